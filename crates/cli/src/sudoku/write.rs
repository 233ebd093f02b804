//! Answers written out: lines and grids with their `# size:` and `# variant:` headers, JSON
//! records, CSV rows, and the rating view shared by every size.

use super::*;

/// The header row of `--format csv`, for `rate` and for the other commands.
pub(super) const CSV_HEADER: [&str; 8] =
    ["file", "line", "puzzle", "status", "solution", "count", "error", "variant"];
pub(super) const CSV_RATE_HEADER: [&str; 11] = [
    "file",
    "line",
    "puzzle",
    "level",
    "rating",
    "technique",
    "nodes",
    "guesses",
    // Not `solutions`: readers (this one too) take a column of that name for the given solution.
    "count",
    "error",
    "variant",
];

/// Writes one CSV row (quoted as RFC 4180 asks, by the `csv` crate).
pub(super) fn write_csv<I: AsRef<[u8]>>(
    out: &mut impl Write,
    fields: impl IntoIterator<Item = I>,
) -> io::Result<()> {
    let mut writer =
        csv::WriterBuilder::new().has_headers(false).buffer_capacity(1024).from_writer(&mut *out);
    let io = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        kind => io::Error::other(format!("{kind:?}")),
    };
    writer.write_record(fields).map_err(io)?;
    writer.flush()
}

/// `line:column` of an answer's error (the record's line when the error is about no one place).
pub(super) fn position(a: &Answer) -> String {
    match a.error_at {
        Some((line, Some(column))) => format!("{line}:{column}"),
        Some((line, None)) => line.to_string(),
        None => a.line.to_string(),
    }
}

/// Where an answer's comment points: the file (when there are several) and the line, or the
/// error's own line and column.
pub(super) fn place(a: &Answer, file: Option<&str>) -> String {
    let file = file.map(|f| format!("{f}, ")).unwrap_or_default();
    match a.error_at {
        Some((line, Some(column))) => format!("{file}line {line}, column {column}"),
        Some((line, None)) => format!("{file}line {line}"),
        None => format!("{file}line {}", a.line),
    }
}

/// The cells where two solutions differ, as `r1c2, r5c7`.
fn differing_cells(a: &Puzzle, b: &Puzzle) -> String {
    let cells: Vec<String> = a.cells_differing_from(b).iter().map(ToString::to_string).collect();
    cells.join(", ")
}

/// Writes a JSON value and a newline; write errors stay I/O errors (a closed pipe is quiet).
pub(super) fn write_json(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)
}

/// The form an answer is written in: the one asked, else the form of its record.
fn form(format: Option<OutputFormat>, a: &Answer) -> OutputFormat {
    format.unwrap_or(match a.format {
        Format::Line => OutputFormat::Line,
        Format::Json => OutputFormat::Json,
        Format::Grid | Format::List => OutputFormat::Grid,
    })
}

/// The messages an answer leaves on stderr beside its record on stdout: what is wrong with the
/// record, and with the solution given beside it.
pub(super) fn notes(a: &Answer, name: &str) -> impl Iterator<Item = String> {
    let error = a.error.as_ref().map(|e| format!("dlx: {name}:{}: {e}", position(a)));
    let given = match &a.given {
        Some(Err(e)) => Some(format!("dlx: {name}:{}: {e}", a.line)),
        _ => None,
    };
    error.into_iter().chain(given)
}

/// How a batch's answers are written, for the workers to write those they can.
pub(super) struct Writing {
    /// The form asked, if one was.
    pub(super) format: Option<OutputFormat>,
    pub(super) task: Task,
    /// The input's name in records, when there are several inputs.
    pub(super) file: Option<String>,
    /// The input's name in messages.
    pub(super) name: String,
    /// Whether stdout and stderr are both the screen a person reads: messages are then in the
    /// records alone.
    pub(super) on_screen: bool,
}

/// Answers written on a worker's thread: their text, what they add to the batch's summary, and
/// the messages they leave for stderr.
pub(super) struct Written {
    pub(super) text: Vec<u8>,
    pub(super) summary: Summary,
    pub(super) messages: Vec<String>,
}

impl Writing {
    /// Whether an answer is the caller's to write, in order with every answer before it: a grid's
    /// header lines say what changed since the block above, `.dlx` problems are numbered (or
    /// refused past the first), and ratings' averages are summed in the input's order.
    fn callers(&self, a: &Answer) -> bool {
        matches!(self.task, Task::Encode | Task::Rate { .. }) || form(self.format, a) == OutputFormat::Grid
    }

    /// A run of answers written, unless one of them is the caller's to write.
    pub(super) fn write(&self, answers: Vec<Answer>) -> Body {
        if answers.iter().any(|a| self.callers(a)) {
            return Body::Answers(answers);
        }
        let text = Vec::with_capacity(answers.len() * 96);
        let mut written = Written { text, summary: Summary::default(), messages: Vec::new() };
        // Untouched: no header lines but the grid form's.
        let mut said = Said::default();
        for a in &answers {
            written.summary.add(a, self.task);
            if !self.on_screen {
                written.messages.extend(notes(a, &self.name));
            }
            let file = self.file.as_deref();
            if write_answer(&mut written.text, a, self.format, self.task, file, &mut said).is_err() {
                // Memory does not refuse a write; were it to, the caller would write them.
                return Body::Answers(answers);
            }
        }
        Body::Written(written)
    }
}

pub(super) fn write_answer(
    out: &mut impl Write,
    a: &Answer,
    format: Option<OutputFormat>,
    task: Task,
    file: Option<&str>,
    said: &mut Said,
) -> io::Result<()> {
    let format = form(format, a);
    if let (Task::Rate { explain }, Some(rating)) = (task, &a.rating) {
        return write_rating(out, a, rating, format, file, explain);
    }
    if let Task::Encode = task {
        return match &a.encoding {
            Some(text) => out.write_all(text.as_bytes()),
            None => writeln!(out, "| {}: invalid: {}", place(a, file), a.error.as_deref().unwrap_or("")),
        };
    }
    if format == OutputFormat::Csv {
        let line = a.error_at.map_or(a.line, |(line, _)| line).to_string();
        let puzzle = a.puzzle.as_ref().map(Puzzle::to_record_line).unwrap_or_default();
        let wrong = a.given.as_ref().and_then(|g| g.as_ref().err());
        let error = a.error.as_deref().or(wrong.map(String::as_str)).unwrap_or("");
        let variant = a.variant.map_or("", Variant::name);
        if let Task::Rate { .. } = task {
            // A record that could not be rated.
            return write_csv(
                out,
                [file.unwrap_or(""), &line, &puzzle, "", "", "", "", "", "", error, variant],
            );
        }
        let solution = a.solution.as_ref().map(Puzzle::to_record_line).unwrap_or_default();
        let count = a.count.map(|n| n.to_string()).unwrap_or_default();
        return write_csv(
            out,
            [file.unwrap_or(""), &line, &puzzle, a.status.name(), &solution, &count, error, variant],
        );
    }
    if format == OutputFormat::Json {
        return write_json(out, &a.to_json(task, file));
    }
    let grid = format == OutputFormat::Grid;
    let mut comment = match (a.status, &a.error, &a.second) {
        (Status::Invalid, Some(e), _) => Some(format!("invalid: {e}")),
        (Status::None, ..) => Some("no solution".to_owned()),
        (Status::Multiple, _, Some(second)) => match &a.solution {
            Some(first) if grid => Some(format!(
                "multiple solutions; two of them, which differ in {}:",
                differing_cells(first, second)
            )),
            Some(first) => Some(format!(
                "multiple solutions; two of them, which differ in {}: {} {}",
                differing_cells(first, second),
                first.to_line(),
                second.to_line()
            )),
            None => Some("multiple solutions".to_owned()),
        },
        (Status::Multiple, ..) if grid => Some("multiple solutions; one of them:".to_owned()),
        (Status::Multiple, ..) => Some(format!(
            "multiple solutions; one of them: {}",
            a.solution.as_ref().map(Puzzle::to_line).unwrap_or_default()
        )),
        _ => None,
    };
    if let Some(v) = a.unique_as {
        let hint =
            format!(" (unique as a {v} puzzle: give --rules {v}, or a `# variant: {v}` line above it)");
        let text = comment.get_or_insert_with(|| "several solutions".to_owned());
        match text.find(';') {
            Some(at) => text.insert_str(at, &hint),
            None => text.push_str(&hint),
        }
    }
    if !grid || matches!(task, Task::Count { .. }) {
        // A count is a number: a line whatever the form asked.
        return write_record_line(out, a, task, file, comment);
    }
    if let Some(Err(e)) = &a.given {
        writeln!(out, "# {}: {e}", place(a, file))?;
    }
    if let Some(c) = comment {
        writeln!(out, "# {}: {c}", place(a, file))?;
    }
    if a.solution.is_some() {
        say_headers(out, a, said)?;
    }
    if let (Some(f), Some(_)) = (file, &a.solution) {
        writeln!(out, "# {f}:{}", a.line)?;
    }
    for s in a.solution.iter().chain(&a.second) {
        let mut text = s.to_record_block();
        // Two solutions of one puzzle are separated, as puzzles are.
        if a.second.is_some() && Some(s) == a.solution.as_ref() {
            text.push('\n');
        }
        out.write_all(text.as_bytes())?;
    }
    if matches!(task, Task::Solve { .. }) {
        writeln!(out)?;
    }
    Ok(())
}

/// Writes an answer in the line form: exactly one line per record, the same way for every size
/// and rule set, its rules in its own fields ([`Puzzle::to_text`]), so that the output reads back
/// line by line (`sort`, `split`, `parallel --pipe` keep every rule). A solved puzzle is its
/// solution; one with no solution or several is the puzzle itself, with a comment that says so
/// (and holds two solutions), so that it is answered the same when read again; a malformed
/// record is a comment. A count is the number, after the puzzle with `--puzzles`.
fn write_record_line(
    out: &mut impl Write,
    a: &Answer,
    task: Task,
    file: Option<&str>,
    comment: Option<String>,
) -> io::Result<()> {
    let mut notes: Vec<String> = Vec::new();
    if let Some(Err(e)) = &a.given {
        notes.push(e.clone());
    }
    let mut line = String::with_capacity(200);
    if let Task::Count { limit, puzzles } = task {
        if let Some(n) = a.count {
            if let (true, Some(p)) = (puzzles, &a.puzzle) {
                line.push_str(&p.to_text());
                line.push(' ');
            }
            line.push_str(&n.to_string());
            if limit == Some(n) {
                line.push('+');
            }
        }
        // The count says whether there is none or several; a malformed record says why not.
        if a.status == Status::Invalid {
            notes.extend(comment);
        }
    } else {
        match (&a.solution, a.status) {
            (Some(solution), status) if status != Status::Multiple => line.push_str(&solution.to_text()),
            _ => {
                if let Some(p) = a.puzzle.as_ref().filter(|_| a.status != Status::Invalid) {
                    line.push_str(&p.to_text());
                }
            }
        }
        notes.extend(comment);
    }
    if notes.is_empty() {
        if let Some(f) = file {
            line.push_str(&format!(" # {f}:{}", a.line));
        }
    } else {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&format!("# {}: {}", place(a, file), notes.join("; ")));
    }
    if line.is_empty() {
        return Ok(());
    }
    line.push('\n');
    out.write_all(line.as_bytes())
}

/// The header lines written so far: what the records below them are read as.
#[derive(Debug, Default)]
pub(super) struct Said {
    /// The variant the last `# variant:` line named.
    pub(super) variant: Option<Variant>,
    /// The last `# size:` line written, while it says other rules than a 9x9 grid's.
    pub(super) size: Option<String>,
}

/// Writes the header lines a block needs above it (a block's rows cannot hold fields), so that
/// the grid form reads back as it was answered, the whole stream and each block alone (with the
/// header lines right above it):
/// - `# variant: NAME` above every block of a 9x9 variant's puzzle whose variant was named or its
///   cells tell (the classic one only after another variant's);
/// - `# size: 2x3 variant=diagonal regions=...` above every block of a grid of another size or
///   rules, or with even and odd marks: the size, and the fields its rows cannot hold (regions,
///   marks, cages), which the readers apply to the blocks below; `# size: 3x3` above a 9x9
///   variant's block after one.
pub(super) fn say_headers(out: &mut impl Write, a: &Answer, said: &mut Said) -> io::Result<()> {
    let Some(puzzle) = &a.puzzle else { return Ok(()) };
    // Even and odd marks go in the `# size:` line: a full grid's cells cannot show them.
    let general = a.variant.is_none() || puzzle.rules().has_parity();
    let want = match a.variant {
        // An even variant's name only when it was given: what the cells say they say again.
        Some(v) if !general && (v != Variant::Even || a.named) => v,
        _ => Variant::Classic,
    };
    if want != Variant::Classic || said.variant.is_some_and(|v| v != Variant::Classic) {
        writeln!(out, "{}", want.header_line())?;
        said.variant = Some(want);
    }
    let header = Some(puzzle.block_header()).filter(|h| general && h != "# size: 3x3");
    match header {
        // Above every such block: each block reads back alone.
        Some(header) => {
            writeln!(out, "{header}")?;
            said.size = Some(header);
        }
        // A 9x9 block needs none, but after a block of other rules.
        None => {
            if said.size.take().is_some() {
                writeln!(out, "# size: 3x3")?;
            }
        }
    }
    Ok(())
}

fn write_rating(
    out: &mut impl Write,
    a: &Answer,
    r: &dlx_sudoku::Rating,
    format: OutputFormat,
    file: Option<&str>,
    explain: bool,
) -> io::Result<()> {
    let used = Technique::ALL.iter().filter(|&&t| r.logic.counts[t as usize] > 0);
    if format == OutputFormat::Csv {
        let puzzle = a.puzzle.as_ref().map(Puzzle::to_record_line).unwrap_or_default();
        let level = r.logic.level().name();
        let (nodes, guesses, solutions) =
            (format!("{:.1}", r.nodes), format!("{:.1}", r.guesses), r.solutions.to_string());
        let line = a.line.to_string();
        let hardest = r.logic.hardest_name();
        let rating = format!("{:.1}", r.logic.rating());
        let variant = a.variant.map_or("", Variant::name);
        return write_csv(
            out,
            [
                file.unwrap_or(""),
                &line,
                &puzzle,
                level,
                &rating,
                hardest,
                &nodes,
                &guesses,
                &solutions,
                "",
                variant,
            ],
        );
    }
    if format == OutputFormat::Json {
        return write_json(out, &a.to_json(Task::Rate { explain }, file));
    }
    // One line per record, its rules in its fields, as the other commands' line form.
    let puzzle = a.puzzle.as_ref().map(Puzzle::to_text).unwrap_or_default();
    let hardest = r.logic.hardest_name();
    let counts: Vec<String> = used.map(|&t| format!("{} {}", t.name(), r.logic.counts[t as usize])).collect();
    let at = match r.solutions {
        1 => file.map(|f| format!(" # {f}:{}", a.line)).unwrap_or_default(),
        0 => format!(" # {}: no solution; rated all the same", place(a, file)),
        _ => format!(" # {}: multiple solutions; rated all the same", place(a, file)),
    };
    // A puzzle no technique advances says so, rather than leaving the list empty.
    let counts = if counts.is_empty() { "no technique applies".to_owned() } else { counts.join(", ") };
    writeln!(
        out,
        "{puzzle} {} {:.1} ({hardest}) nodes {:.1} guesses {:.1}: {counts}{at}",
        r.logic.level(),
        r.logic.rating(),
        r.nodes,
        r.guesses,
    )?;
    if explain {
        for (k, step) in a.steps.iter().enumerate() {
            writeln!(out, "  {}. {step}", k + 1)?;
        }
        if !r.logic.solved {
            writeln!(out, "  the techniques stop here: guessing is needed")?;
        }
    }
    Ok(())
}
