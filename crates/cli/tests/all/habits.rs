//! Command-line habits: shell completions and the manual page, short flags, `--strict`.

use std::process::Command;

use crate::common::{dlx, fixture};

/// Every shell's completion script is produced and names the subcommands; bash's (and zsh's and
/// fish's, where installed) parses.
#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish", "nushell"] {
        let out = dlx(&["completions", shell], "");
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["solve", "generate", "xc", "merge", "threads"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
        let checker = match shell {
            "bash" | "zsh" => Some((shell, vec!["-n"])),
            "fish" => Some(("fish", vec!["--no-execute"])),
            _ => None,
        };
        let Some((program, args)) = checker else { continue };
        let file = std::env::temp_dir().join(format!("dlx-completion-{}.{shell}", std::process::id()));
        std::fs::write(&file, &script).unwrap();
        match Command::new(program).args(&args).arg(&file).output() {
            Ok(check) => {
                assert!(check.status.success(), "{shell}: {}", String::from_utf8_lossy(&check.stderr))
            }
            // The shell is not installed: bash always is.
            Err(_) => assert_ne!(shell, "bash", "bash is needed to check its script"),
        }
        std::fs::remove_file(&file).unwrap();
    }
    assert_eq!(dlx(&["completions", "tcsh"], "").status.code(), Some(2));
}

/// The manual page is roff with every subcommand; where groff is installed it renders without a
/// warning.
#[test]
fn manual_page() {
    let out = dlx(&["man"], "");
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH dlx 1"), "{page}");
    for word in ["solve", "count", "generate", "rate", "xc", "merge", "completions"] {
        assert!(page.contains(word), "{word}");
    }
    let file = std::env::temp_dir().join(format!("dlx-{}.1", std::process::id()));
    std::fs::write(&file, &page).unwrap();
    if let Ok(render) = Command::new("groff").args(["-man", "-Tutf8", "-ww", "-z"]).arg(&file).output() {
        assert!(
            render.status.success() && render.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&render.stderr)
        );
    }
    std::fs::remove_file(&file).unwrap();

    // A page per command, with its options and examples, and the words in backquotes in the
    // help set in bold instead: `man -l` renders each without a warning and with no backquote.
    let dir = tempfile::tempdir().unwrap();
    let out = dlx(&["man", "--output", dir.path().to_str().unwrap()], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let commands = ["solve", "count", "generate", "rate", "render", "xc", "merge", "completions", "man"];
    for name in std::iter::once("dlx".to_owned()).chain(commands.iter().map(|c| format!("dlx-{c}"))) {
        let path = dir.path().join(format!("{name}.1"));
        let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(&format!(".TH {name} 1")), "{name}");
        assert!(page.contains(".SH OPTIONS"), "{name}");
        if name != "dlx" {
            assert!(
                page.contains(".SH EXAMPLES") && page.contains(&format!("\\fBdlx {}", &name[4..])),
                "{name}"
            );
        }
        let Ok(render) = Command::new("man")
            .args(["--warnings", "-E", "UTF-8", "-l"])
            .arg(&path)
            .env("MANWIDTH", "100")
            .env("MAN_KEEP_FORMATTING", "0")
            .output()
        else {
            continue;
        };
        let text = String::from_utf8_lossy(&render.stdout);
        assert!(
            render.status.success() && render.stderr.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&render.stderr)
        );
        assert!(!text.contains('`'), "{name}: a backquote shown");
    }
    // And `--help` ends with the examples.
    let help = String::from_utf8(dlx(&["xc", "--help"], "").stdout).unwrap();
    assert!(help.contains("Examples:\n  dlx xc problem.dlx"), "{help}");
}

/// Short flags where the habit exists: -n, -j, -f, -s, -q, -o.
#[test]
fn short_flags() {
    let knuth = fixture("knuth7.dlx");
    let out = dlx(&["xc", "-n", "-j", "1", "-f", "json", "-s", "-q", &knuth], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains("\"solutions\":1"));
    let out = dlx(&["generate", "-n", "2", "-f", "line", "--seed", "4", "-j", "1", "-q"], "");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().filter(|l| !l.starts_with('#')).count(), 2);
    let dir = tempfile::tempdir().unwrap();
    let out = dlx(&["generate", "-f", "svg", "-o", dir.path().to_str().unwrap(), "--seed", "4"], "");
    assert!(out.status.success());
    assert!(dir.path().join("puzzle-0001.svg").exists());
    let puzzles = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    assert!(dlx(&["count", "-f", "json", "--no-progress", "-s"], &puzzles).status.success());
    assert!(dlx(&["rate", "-f", "json", "-q", "-j", "2"], &puzzles).status.success());
}

/// --strict: status 3 when some puzzle has no solution or several; 0 when all are unique; a
/// malformed record still gives 2.
#[test]
fn strict_tells_by_the_status() {
    let unique = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    assert_eq!(dlx(&["solve", "--strict"], &unique).status.code(), Some(0));
    let empty = ".".repeat(81) + "\n";
    assert_eq!(dlx(&["solve"], &empty).status.code(), Some(0));
    assert_eq!(dlx(&["solve", "--strict"], &empty).status.code(), Some(3));
    assert_eq!(dlx(&["count", "--strict", "--limit", "2"], &empty).status.code(), Some(3));
    assert_eq!(dlx(&["rate", "--strict"], &empty).status.code(), Some(3));
    assert_eq!(dlx(&["rate", "--strict"], &unique).status.code(), Some(0));
    let none = "11".to_owned() + &".".repeat(79) + "\n";
    assert_eq!(dlx(&["solve", "--strict"], &none).status.code(), Some(2), "a rule broken is malformed");
    let bad = std::fs::read_to_string(fixture("sudoku-bad.txt")).unwrap();
    assert_eq!(dlx(&["solve", "--strict"], &bad).status.code(), Some(2));
}

/// `solve --format dlx` writes one problem: a second puzzle is refused (exit 2) after the first is
/// written whole; `dlx xc` warns of an option that repeats the item line, and refuses one with a
/// bar, as a second problem.
#[test]
fn one_dlx_problem_per_stream() {
    let puzzles = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    let out = dlx(&["solve", "--format", "dlx"], &puzzles);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(":3: a second puzzle: --format dlx writes one problem")
    );
    let first = String::from_utf8(out.stdout).unwrap();
    assert_eq!(dlx(&["xc", "-n"], &first).stdout, b"1\n", "the first problem, whole");
    let out = dlx(&["xc", "-n"], "A B\nA\nB\nA B\nA\n");
    assert_eq!((out.status.code(), out.stdout.as_slice()), (Some(0), &b"3\n"[..]));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("<stdin>:4: warning: this option repeats the item line")
    );
    let out = dlx(&["xc", "-n"], "A | x\nA x\nA | x\nA\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("<stdin>:3:1: this line repeats the item line of line 1")
    );
}

/// Typed at a terminal, a puzzle is answered as soon as its line is complete, before the input
/// ends. The terminal is made by `script` (util-linux); without it the test says so and passes.
#[test]
fn typed_puzzles_are_answered_at_once() {
    use std::io::Write;
    use std::process::Stdio;
    let command = format!("{} solve -q", env!("CARGO_BIN_EXE_dlx"));
    let Ok(mut child) = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        println!("no `script` here: not checked");
        return;
    };
    let puzzle = "5176...34289..4...3462.5.9.6.2....1..38..6.47..........9.....787.34..56..........";
    let solution = "517698234289134756346275891672849315138526947954713682495362178723481569861957423";
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{puzzle}\n").as_bytes()).unwrap();
    stdin.flush().unwrap();
    // Read while the input stays open: the answer must come before it ends.
    let seen = read_while_running(child, move |seen| seen.contains(solution));
    drop(stdin);
    assert!(seen.is_some(), "the typed puzzle was not answered while the input was open");
}

/// Reads `child`'s stdout until what it read makes `enough` true, for at most 20 s (the records
/// asked for are finished in milliseconds; a run that holds them back fails): what it read, or
/// `None` if it did not come. Kills the child either way, which must still be running then.
fn read_while_running(
    mut child: std::process::Child,
    enough: impl Fn(&str) -> bool + Send + 'static,
) -> Option<String> {
    use std::io::Read;
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&seen);
            if enough(&text) {
                return Some(text.into_owned());
            }
        }
        None
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !reader.is_finished() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let seen = reader.join().unwrap();
    assert!(still_running, "the run ended before its last record: {seen:?}");
    seen
}

/// Issue 52: each record is written as soon as it and those before it are finished, whatever the
/// output (here a pipe) and however long the records after it take: a puzzle piped in while the
/// input stays open, and the first two counts of a file whose third would take years.
#[test]
fn finished_records_are_written_at_once() {
    use std::io::Write;
    use std::process::Stdio;
    let puzzle = "5176...34289..4...3462.5.9.6.2....1..38..6.47..........9.....787.34..56..........";
    let solution = "517698234289134756346275891672849315138526947954713682495362178723481569861957423";
    // `dlx solve ARGS` with `lines` piped in and the pipe left open: what it writes of them
    // while it still runs, once it has written `lines` lines.
    let piped = |args: &[&str], lines: usize| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dlx"))
            .args(["solve", "-q"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(format!("{puzzle}\n").repeat(lines).as_bytes()).unwrap();
        stdin.flush().unwrap();
        let seen = read_while_running(child, move |seen| seen.matches('\n').count() >= lines);
        drop(stdin);
        seen
    };
    assert_eq!(piped(&[], 1), Some(format!("{solution}\n")), "a piped puzzle held back");
    // Easy puzzles are taken several at a time, but only those already piped in: the worker
    // does not wait for more while it holds some.
    assert_eq!(piped(&["-j", "1"], 3), Some(format!("{solution}\n").repeat(3)), "piped puzzles held back");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let empty = ".".repeat(81);
    std::fs::write(&file, format!("{puzzle}\n{puzzle}\n{empty}\n")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(["count", "-q", file.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let seen = read_while_running(child, |seen| seen.matches('\n').count() >= 2);
    assert_eq!(seen.as_deref(), Some("1\n1\n"), "finished counts held back");
}

/// `--format csv`: a header, then one row per record (the invalid ones too, with their error),
/// read back by a CSV reader; the file named in every row when several are given.
#[test]
fn csv_rows_line_up_with_the_input() {
    let (good, bad) = (fixture("sudoku.txt"), fixture("sudoku-bad.txt"));
    let out = dlx(&["count", "-f", "csv", &good, &bad], "");
    assert_eq!(out.status.code(), Some(2), "a malformed record in the batch");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["file", "line", "puzzle", "status", "solution", "count", "error", "variant"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r[0] == *good || r[0] == *bad));
    assert_eq!(
        (&rows[5][1], &rows[5][3], &rows[5][6]),
        ("3", "invalid", "digit 5 appears twice in row 1 (r1c2, r1c8)")
    );
    assert_eq!((&rows[0][3], &rows[0][5], &rows[0][7]), ("counted", "1", "classic"));
    let out = dlx(&["rate", "-f", "csv", &fixture("techniques.txt")], "");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    assert_eq!(&reader.headers().unwrap()[3], "level");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 15);
    assert_eq!(&reader.headers().unwrap()[4], "rating");
    assert_eq!((&rows[0][3], &rows[0][4], &rows[0][5], &rows[0][8]), ("easy", "1.5", "hidden single", "1"));
    assert_eq!((&rows[14][3], &rows[14][4], &rows[14][5]), ("expert", "7.5", "forcing chain"));
    let solved = dlx(&["solve", "-f", "csv"], &std::fs::read_to_string(&good).unwrap());
    let text = String::from_utf8(solved.stdout).unwrap();
    assert!(text.lines().nth(1).unwrap().contains(
        ",unique,517698234289134756346275891672849315138526947954713682495362178723481569861957423,"
    ));
}

/// `-h` is a summary: each option and argument in one short line (what clap adds, its default,
/// possible values and aliases, aside); `--help` has the long form.
#[test]
fn short_help_is_a_summary() {
    for command in ["solve", "count", "rate", "generate", "render", "xc", "merge", "completions", "man"] {
        let short = String::from_utf8(dlx(&[command, "-h"], "").stdout).unwrap();
        let long = String::from_utf8(dlx(&[command, "--help"], "").stdout).unwrap();
        assert!(long.len() > short.len(), "{command}");
        for line in short.lines().filter(|l| l.starts_with("  ")) {
            // The flags, then (after two spaces or more) the help.
            let help = line.trim().split_once("  ").map_or("", |(_, help)| help.trim());
            let own = help.split(" [").next().unwrap_or(help);
            assert!(own.len() <= 80, "{command} -h: {line}");
        }
    }
}

/// Help fits the terminal: every line of every command's `--help` within `COLUMNS`, usage near
/// the top (the exit statuses at the end of the top-level help), and the manual pages' synopses
/// show the value each option takes.
#[test]
fn help_fits_the_terminal() {
    let commands = ["", "solve", "count", "rate", "generate", "render", "xc", "merge", "completions", "man"];
    for columns in ["60", "80", "120"] {
        for command in commands {
            let args: Vec<&str> = [command, "--help"].into_iter().filter(|a| !a.is_empty()).collect();
            let out =
                Command::new(env!("CARGO_BIN_EXE_dlx")).args(&args).env("COLUMNS", columns).output().unwrap();
            let help = String::from_utf8(out.stdout).unwrap();
            let width: usize = columns.parse().unwrap();
            for line in help.lines() {
                // (A word longer than the line, such as an example's 81-cell puzzle, stays whole.)
                let one_word = !line.trim().contains(char::is_whitespace);
                assert!(
                    line.chars().count() <= width || one_word,
                    "dlx {command} --help, COLUMNS={columns}: {line}"
                );
            }
            let usage = help.lines().position(|l| l.starts_with("Usage:")).expect("a usage line");
            // The top level opens with what it is and how to call it; a command's description
            // comes first, as clap and ripgrep have it.
            assert!(usage <= 3 || !command.is_empty(), "dlx --help: usage on line {usage}");
        }
    }
    let top = String::from_utf8(dlx(&["--help"], "").stdout).unwrap();
    assert!(top.trim_end().rsplit("\n\n").next().unwrap().starts_with("Exit status: 0"), "{top}");
    let dir = tempfile::tempdir().unwrap();
    assert!(dlx(&["man", "--output", dir.path().to_str().unwrap()], "").status.success());
    let page = std::fs::read_to_string(dir.path().join("dlx-generate.1")).unwrap();
    let synopsis = page.split(".SH SYNOPSIS\n").nth(1).unwrap().lines().next().unwrap();
    for shown in
        [r"[\fB\-\-rules\fR \fINAME\fR]...", r"[\fB\-n\fR|\fB\-\-count\fR \fIN\fR]", r"[\fB\-\-minimal\fR]"]
    {
        assert!(synopsis.contains(shown), "{shown} in {synopsis}");
    }
    let page = std::fs::read_to_string(dir.path().join("dlx.1")).unwrap();
    assert!(page.contains(".SH \"EXIT STATUS\"\nExit status: 0 on success"), "{page}");
}

/// A flag given twice is taken once, the last value winning (as ripgrep and fd take it); a list
/// gathers each value.
#[test]
fn a_repeated_flag_is_the_last_one() {
    let queens = fixture("queens8.dlx");
    let out = dlx(&["xc", "-n", "--count", "-j", "1", "-j", "2", &queens], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "92");
    let out = dlx(&["generate", "-n", "1", "-n", "2", "--seed", "1", "-q", "-f", "json"], "");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    let out = dlx(
        &["generate", "--rules", "diagonal", "--rules", "windoku", "--seed", "1", "-q", "-f", "json"],
        "",
    );
    let record = String::from_utf8(out.stdout).unwrap();
    assert!(record.contains("\"rules\":\"9x9 diagonal windoku\""), "{record}");
}

/// Small things a user meets: a rating that no technique advances says so, rather than ending in
/// an empty list.
#[test]
fn a_rating_without_techniques_says_so() {
    let puzzle = format!("{}1", ".".repeat(80));
    let out = dlx(&["rate"], &puzzle);
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(
        line.contains("guesses") && line.contains(": no technique applies # line 1: multiple solutions"),
        "{line}"
    );
}
