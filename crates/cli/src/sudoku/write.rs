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
    "solutions",
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
pub(super) fn differing_cells(a: &Puzzle, b: &Puzzle) -> String {
    let cells: Vec<String> = a.cells_differing_from(b).iter().map(ToString::to_string).collect();
    cells.join(", ")
}

/// The fields of a JSON record that say what its puzzle is, as the library writes them for
/// every puzzle (`puzzle`, `size`, `rules`, and `variant` for a 9x9 variant's puzzle).
pub(super) fn rules_fields(value: &mut serde_json::Value, a: &Answer) {
    if let Some(puzzle) = &a.puzzle {
        let named = if a.named { a.variant } else { None };
        for (key, field) in puzzle.json_fields(named) {
            value[key] = field;
        }
    }
}

/// Writes a JSON value and a newline; write errors stay I/O errors (a closed pipe is quiet).
pub(super) fn write_json(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)
}

pub(super) fn write_answer(
    out: &mut impl Write,
    a: &Answer,
    format: Option<OutputFormat>,
    task: Task,
    file: Option<&str>,
    said: &mut Said,
) -> io::Result<()> {
    let format = format.unwrap_or(match a.format {
        Format::Line => OutputFormat::Line,
        Format::Json => OutputFormat::Json,
        Format::Grid | Format::List => OutputFormat::Grid,
    });
    if let (Task::Rate { explain }, Some(view)) = (task, &a.rating) {
        return write_rating(out, a, view, format, file, explain, said);
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
        let solutions: Vec<String> = a.solution.iter().chain(&a.second).map(Puzzle::to_record_line).collect();
        let mut value = serde_json::json!({
            "line": a.line,
            "puzzle": a.puzzle.as_ref().map(Puzzle::to_record_line),
            "status": a.status.name(),
            // The solution, when there is one (several: the witnesses are in `solutions`).
            "solution": a.solution.as_ref().filter(|_| a.status != Status::Multiple).map(Puzzle::to_record_line),
            "solutions": solutions,
            "count": a.count,
            "error": a.error,
            "error_line": a.error_at.map(|(line, _)| line),
            "error_column": a.error_at.and_then(|(_, column)| column),
            "nodes": a.nodes,
            "guesses": a.guesses,
        });
        rules_fields(&mut value, a);
        if let Some(given) = &a.given {
            value["given_solution"] = given.is_ok().into();
        }
        if let Some(variant) = a.unique_as {
            value["unique_as"] = variant.name().into();
        }
        if let Task::Count { limit, .. } = task
            && let Some(n) = a.count
        {
            // A count that reached the limit may not be all of them.
            value["complete"] = (limit != Some(n)).into();
        }
        if let Some(file) = file {
            value["file"] = file.into();
        }
        return write_json(out, &value);
    }
    let grid = format == OutputFormat::Grid;
    let mut comment = match (a.status, &a.error, &a.second) {
        (Status::Invalid, Some(e), _) => Some(format!("invalid: {e}")),
        (Status::None, ..) => Some("no solution".to_owned()),
        (Status::Multiple, _, Some(second)) => match &a.solution {
            Some(first) => Some(format!(
                "multiple solutions; two of them, which differ in {}:",
                differing_cells(first, second)
            )),
            None => Some("multiple solutions".to_owned()),
        },
        (Status::Multiple, ..) => Some("multiple solutions; one of them:".to_owned()),
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
    if let Some(Err(e)) = &a.given {
        writeln!(out, "# {}: {e}", place(a, file))?;
    }
    if let Some(c) = comment {
        writeln!(out, "# {}: {c}", place(a, file))?;
    }
    // With several files, each record's line names its file and line, as a comment that the
    // readers skip (a grid has it on a line of its own, above).
    let at = file.map(|f| format!(" # {f}:{}", a.line)).unwrap_or_default();
    if let Task::Count { limit, puzzles } = task {
        if let Some(n) = a.count {
            if puzzles {
                say_headers(out, a, said, false)?;
            }
            let plus = if limit == Some(n) { "+" } else { "" };
            let puzzle = match (puzzles, &a.puzzle) {
                (true, Some(p)) => p.to_record_line() + " ",
                _ => String::new(),
            };
            writeln!(out, "{puzzle}{n}{plus}{at}")?;
        }
    } else {
        if a.solution.is_some() {
            say_headers(out, a, said, grid)?;
        }
        if let (true, Some(f), Some(_)) = (grid, file, &a.solution) {
            writeln!(out, "# {f}:{}", a.line)?;
        }
        for s in a.solution.iter().chain(&a.second) {
            let mut text = String::with_capacity(200);
            if grid {
                text.push_str(&s.to_record_block());
                // Two solutions of one puzzle are separated, as puzzles are.
                if a.second.is_some() && Some(s) == a.solution.as_ref() {
                    text.push('\n');
                }
            } else {
                text.push_str(&s.to_record_line());
                text.push_str(&at);
                text.push('\n');
            }
            out.write_all(text.as_bytes())?;
        }
    }
    if grid && matches!(task, Task::Solve { .. }) {
        writeln!(out)?;
    }
    Ok(())
}

/// The header lines written so far: what the records below them are read as.
#[derive(Debug, Default)]
pub(super) struct Said {
    /// The variant the last `# variant:` line named.
    pub(super) variant: Option<Variant>,
    /// The last `# size:` line written.
    pub(super) size: Option<String>,
}

/// Writes the header lines an answer needs above it, when its puzzle or solution follows, so
/// that the output reads back as it was answered:
/// - `# variant: NAME` for a 9x9 puzzle whose variant was named, or `classic` before a grid of
///   any size (whose rules are in its fields, and which a variant line above it would add to)
///   and before a puzzle whose variant its cells tell; none for classic before the first;
/// - `# size: 2x3 variant=diagonal regions=...` before a block of a grid of another size or
///   rules (`block`): the size, and the fields its rows cannot hold (jigsaw regions, marks,
///   cages), which the readers apply to the blocks below; `# size: 3x3` before a 9x9 block
///   after one.
pub(super) fn say_headers(out: &mut impl Write, a: &Answer, said: &mut Said, block: bool) -> io::Result<()> {
    let want = match (&a.puzzle, a.variant) {
        // What the cells say (even markers) they say again when read back.
        (Some(_), Some(Variant::Even)) if !a.named => Variant::Classic,
        // A variant's puzzle is written in 81 characters: the line above says its rules.
        (Some(_), Some(v)) => v,
        (Some(_), None) => Variant::Classic,
        _ => return Ok(()),
    };
    if said.variant != Some(want) && !(said.variant.is_none() && want == Variant::Classic) {
        writeln!(out, "{}", want.header_line())?;
        said.variant = Some(want);
    }
    if block {
        let header = match &a.puzzle {
            Some(grid) if a.variant.is_none() => Some(grid.block_header()),
            _ => said.size.is_some().then(|| "# size: 3x3".to_owned()),
        };
        if let Some(header) = header.filter(|h| said.size.as_ref() != Some(h)) {
            writeln!(out, "{header}")?;
            said.size = Some(header);
        }
    }
    Ok(())
}

/// What a rating line says, for a 9x9 puzzle or one of any size.
#[derive(Debug, Clone)]
pub(super) struct RatingView {
    pub(super) level: Level,
    pub(super) rating: f32,
    pub(super) hardest: &'static str,
    pub(super) counts: [u32; Technique::COUNT],
    pub(super) nodes: f64,
    pub(super) guesses: f64,
    /// How many branching orders the effort is averaged over.
    pub(super) orders: u64,
    pub(super) solutions: u64,
    pub(super) solved: bool,
}

pub(super) fn write_rating(
    out: &mut impl Write,
    a: &Answer,
    r: &RatingView,
    format: OutputFormat,
    file: Option<&str>,
    explain: bool,
    said: &mut Said,
) -> io::Result<()> {
    let used = Technique::ALL.iter().filter(|&&t| r.counts[t as usize] > 0);
    if format == OutputFormat::Csv {
        let puzzle = a.puzzle.as_ref().map(Puzzle::to_record_line).unwrap_or_default();
        let level = r.level.name();
        let (nodes, guesses, solutions) =
            (format!("{:.1}", r.nodes), format!("{:.1}", r.guesses), r.solutions.to_string());
        let line = a.line.to_string();
        let hardest = r.hardest;
        let rating = format!("{:.1}", r.rating);
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
        let techniques: serde_json::Map<String, serde_json::Value> =
            used.map(|&t| (t.name().to_owned(), r.counts[t as usize].into())).collect();
        let mut value = serde_json::json!({
            "line": a.line,
            "puzzle": a.puzzle.as_ref().map(Puzzle::to_record_line),
            "level": r.level.name(),
            "rating": (f64::from(r.rating) * 10.0).round() / 10.0,
            "technique": r.hardest,
            "techniques": techniques,
            "effort": { "nodes": r.nodes, "guesses": r.guesses, "orders": r.orders },
            "solutions": r.solutions,
        });
        if let Some(file) = file {
            value["file"] = file.into();
        }
        rules_fields(&mut value, a);
        if explain {
            value["steps"] = a.steps.clone().into();
        }
        return write_json(out, &value);
    }
    if r.solutions != 1 {
        let what = if r.solutions == 0 { "no solution" } else { "multiple solutions" };
        writeln!(out, "# {}: {what}; rated all the same:", place(a, file))?;
    }
    say_headers(out, a, said, false)?;
    let puzzle = a.puzzle.as_ref().map(Puzzle::to_record_line).unwrap_or_default();
    let hardest = r.hardest;
    let counts: Vec<String> = used.map(|&t| format!("{} {}", t.name(), r.counts[t as usize])).collect();
    let at = file.map(|f| format!(" # {f}:{}", a.line)).unwrap_or_default();
    writeln!(
        out,
        "{puzzle} {} {:.1} ({hardest}) nodes {:.1} guesses {:.1}: {}{at}",
        r.level,
        r.rating,
        r.nodes,
        r.guesses,
        counts.join(", ")
    )?;
    if explain {
        for (k, step) in a.steps.iter().enumerate() {
            writeln!(out, "  {}. {step}", k + 1)?;
        }
        if !r.solved {
            writeln!(out, "  the techniques stop here: guessing is needed")?;
        }
    }
    Ok(())
}
