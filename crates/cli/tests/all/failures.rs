//! Failure paths through the binary: closed and full outputs, unreadable and malformed inputs,
//! misuse. Every case ends with exit status 0, 1 or 2 and says what it should; none aborts.

use std::fs::File;
use std::process::{Command, ExitStatus, Output, Stdio};

use crate::common::{dlx, dlx_bytes, dlx_with, fixture};
use proptest::prelude::*;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const PUZZLE: &str = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
const SOLUTION: &str = "145327698839654127672918543496185372218473956753296481367542819984761235521839764";
/// Two solutions: they differ in eleven cells.
const AMBIGUOUS: &str = "....6..8..2.........1.......7....1.25...3..........4....42.1...3..7..6...........";

/// Where a run's stdout or stderr goes.
#[derive(Clone, Copy, Debug)]
enum Sink {
    /// Captured.
    Piped,
    /// A pipe whose reading end is closed before the run starts (`| head` after it quit).
    Closed,
    /// `/dev/full`: every write fails with "no space left".
    Full,
    /// `/dev/null`.
    Null,
}

impl Sink {
    fn stdio(self) -> Stdio {
        match self {
            Sink::Piped => Stdio::piped(),
            Sink::Closed => {
                let (reader, writer) = std::io::pipe().unwrap();
                drop(reader);
                writer.into()
            }
            Sink::Full => File::options().write(true).open("/dev/full").unwrap().into(),
            Sink::Null => Stdio::null(),
        }
    }
}

/// Runs `dlx` with `stdin`, its stdout and stderr sent where asked.
fn run(args: &[&str], stdin: &[u8], stdout: Sink, stderr: Sink) -> Output {
    dlx_with(args, stdin, stdout.stdio(), stderr.stdio())
}

fn code(status: ExitStatus) -> i32 {
    status.code().unwrap_or_else(|| panic!("killed by a signal: {status:?}"))
}

/// Every command that writes to stderr: a full stderr is an output error (1), a closed one ends
/// the run quietly (0); before, each aborted with "failed printing to stderr" (134).
#[test]
fn a_failed_write_to_stderr_never_aborts() {
    let bad = fixture("sudoku-bad.txt");
    let knuth = fixture("knuth7.dlx");
    let cases: [&[&str]; 6] = [
        &["solve", &bad],
        &["count", "--stats", &bad],
        &["rate", &bad],
        &["xc", "--stats", &knuth],
        &["xc", &fixture("bad-unknown-item.dlx")],
        &["generate", "--seed", "1", "--difficulty", "expert", "--max-attempts", "1", "--stats"],
    ];
    for args in cases {
        let full = run(args, b"", Sink::Null, Sink::Full);
        assert_eq!(code(full.status), 1, "{args:?} with stderr full");
        let closed = run(args, b"", Sink::Null, Sink::Closed);
        assert_eq!(code(closed.status), 0, "{args:?} with stderr closed");
    }
    // The usage error goes to stderr too; its status stays 2 whether or not it could be written.
    assert_eq!(code(run(&["solve", "--bogus"], b"", Sink::Null, Sink::Full).status), 2);
}

/// Every format of every command ends quietly with 0 when its reader has gone (`| head`), with
/// nothing on stderr.
#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let sudoku = fixture("sudoku.txt");
    let queens = fixture("queens8.dlx");
    let mut cases: Vec<Vec<&str>> = Vec::new();
    for format in ["line", "grid", "json", "dlx"] {
        cases.push(vec!["solve", "--format", format, &sudoku]);
    }
    for format in ["line", "json"] {
        cases.push(vec!["count", "--format", format, &sudoku]);
        cases.push(vec!["rate", "--format", format, &sudoku]);
    }
    for format in ["line", "grid", "json", "svg"] {
        cases.push(vec!["generate", "--count", "300", "--seed", "7", "--format", format]);
    }
    cases.push(vec!["xc", &queens]);
    cases.push(vec!["xc", "--count", &queens]);
    cases.push(vec!["--help"]);
    for args in &cases {
        let out = run(args, b"", Sink::Closed, Sink::Piped);
        assert_eq!((code(out.status), text(&out.stderr)), (0, String::new()), "{args:?}");
    }
    // A full stdout is an output error, help included (it used to exit 0).
    for args in
        [&["--help"][..], &["solve", "--help"], &["solve", &sudoku], &["generate", "--format", "json"]]
    {
        let out = run(args, b"", Sink::Full, Sink::Piped);
        assert_eq!(code(out.status), 1, "{args:?}");
        assert!(text(&out.stderr).contains("No space left"), "{args:?}: {}", text(&out.stderr));
    }
}

/// A list that never closes ends where the next well-formed record begins; the puzzles after
/// it are answered.
#[test]
fn an_unclosed_list_does_not_swallow_the_batch() {
    // (A list is answered as a grid by default: the comment, then a blank line.)
    let out = dlx(&["solve"], &format!("[[0,0\n{PUZZLE}\n{PUZZLE}\n"));
    assert_eq!(code(out.status), 2);
    assert_eq!(
        text(&out.stdout),
        format!("# line 1: invalid: the list is not closed\n\n{SOLUTION}\n{SOLUTION}\n")
    );
    assert_eq!(text(&out.stderr), "dlx: <stdin>:1: the list is not closed\n");
}

/// An error in a block grid is reported at the offending character (line 10, column 5), not at
/// the record's first line with that column.
#[test]
fn errors_in_multi_line_records_give_their_own_line_and_column() {
    let mut rows: Vec<String> = PUZZLE.as_bytes().chunks(9).map(text).collect();
    rows[8].replace_range(4..5, "x");
    let input = format!("# a grid\n{}\n", rows.join("\n"));
    let out = dlx(&["solve"], &input);
    assert_eq!(code(out.status), 2);
    assert_eq!(text(&out.stderr), "dlx: <stdin>:10:5: unexpected character 'x'\n");
    assert!(text(&out.stdout).starts_with("# line 10, column 5: invalid: unexpected character 'x'\n"));
    let json = dlx(&["solve", "--format", "json"], &input);
    let row: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((&row["line"], &row["error_line"], &row["error_column"]), (&2.into(), &10.into(), &5.into()));
}

/// A byte-order mark at the start of a file is skipped, in sudoku files and in `.dlx` files.
#[test]
fn byte_order_marks_are_skipped() {
    let out = dlx(&["solve"], &format!("\u{feff}{PUZZLE}\n"));
    assert_eq!((code(out.status), text(&out.stdout)), (0, format!("{SOLUTION}\n")));
    let out = dlx(&["xc", "--count"], "\u{feff}| comment\nA B\nA\nB\n");
    assert_eq!((code(out.status), text(&out.stdout)), (0, "1\n".to_owned()), "{}", text(&out.stderr));
}

/// A `.dlx` file with bytes that are not UTF-8: ignored in comments, malformed input elsewhere
/// (exit 2, with file, line and column).
#[test]
fn bytes_that_are_not_utf8_in_a_dlx_file() {
    let out = dlx_bytes(&["xc", "--count"], b"| caf\xe9\nA B\nA\nB\n");
    assert_eq!((code(out.status), text(&out.stdout)), (0, "1\n".to_owned()));
    let out = dlx_bytes(&["xc"], b"A B\nA\nB \xff\n");
    assert_eq!(code(out.status), 2);
    assert_eq!(text(&out.stderr), "dlx: <stdin>:3:3: byte 0xff is not valid UTF-8\n");
}

/// Zero is no limit: refused, not counted as "no solution". A count cut by the limit says so
/// in JSON.
#[test]
fn counting_limits() {
    for args in [&["count", "--limit", "0"][..], &["xc", "--limit", "0"], &["xc", "--count", "--limit", "0"]]
    {
        let out = dlx(args, &format!("{PUZZLE}\n"));
        assert_eq!(code(out.status), 2, "{args:?}");
        assert!(out.stdout.is_empty());
    }
    let empty = ".".repeat(81);
    let out = dlx(&["count", "--limit", "3", "--format", "json"], &format!("{empty}\n{PUZZLE}\n"));
    let rows: Vec<serde_json::Value> =
        text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((&rows[0]["count"], &rows[0]["complete"]), (&3.into(), &false.into()));
    assert_eq!((&rows[1]["count"], &rows[1]["complete"]), (&1.into(), &true.into()));
    let all = dlx(&["count", "--format", "json"], &format!("{PUZZLE}\n"));
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&all.stdout).unwrap()["complete"], true);
}

/// A puzzle with several solutions shows two, in every format, so that the maker sees where.
#[test]
fn multiple_solutions_show_both_witnesses() {
    let json = dlx(&["solve", "--format", "json"], &format!("{AMBIGUOUS}\n"));
    let row: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(row["status"], "multiple");
    let solutions: Vec<&str> =
        row["solutions"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(solutions.len(), 2);
    assert_ne!(solutions[0], solutions[1]);
    assert_eq!(row["solution"], serde_json::Value::Null, "no one solution: two witnesses");
    for s in &solutions {
        // Each keeps the givens and is a full grid that the uniqueness check of `solve` accepts.
        assert!(AMBIGUOUS.bytes().zip(s.bytes()).all(|(g, d)| g == b'.' || g == d));
        let check = dlx(&["solve"], &format!("{s}\n"));
        assert_eq!(text(&check.stdout), format!("{s}\n"));
    }
    let grid = text(&dlx(&["solve", "--format", "grid"], &format!("{AMBIGUOUS}\n")).stdout);
    let digits: String = grid.lines().skip(1).flat_map(|l| l.chars().filter(char::is_ascii_digit)).collect();
    assert_eq!(digits, format!("{}{}", solutions[0], solutions[1]));
}

/// A missing file is reported and the others are answered; the status says something was not
/// read. With several files, records name theirs.
#[test]
fn a_missing_file_does_not_stop_the_batch() {
    let bad = fixture("sudoku-bad.txt");
    let out = dlx(&["solve", "no-such-file.txt", &fixture("sudoku.txt")], "");
    assert_eq!(code(out.status), 1);
    assert!(text(&out.stderr).starts_with("dlx: no-such-file.txt: cannot read: "), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().next(),
        Some(
            format!(
                "517698234289134756346275891672849315138526947954713682495362178723481569861957423 # {}:2",
                fixture("sudoku.txt")
            )
            .as_str()
        )
    );
    let json = dlx(&["solve", "--format", "json", &bad, "no-such-file.txt", &bad], "");
    assert_eq!(code(json.status), 1);
    let rows: Vec<serde_json::Value> =
        text(&json.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r["file"] == bad.as_str()));
    let comments = text(&dlx(&["solve", &bad, &bad], "").stdout);
    assert!(comments.contains(&format!("# {bad}, line 3: invalid: digit 5 appears twice")), "{comments}");
    // A directory is no file either; what follows is still answered.
    let dir = dlx(&["count", env!("CARGO_MANIFEST_DIR"), &bad], "");
    assert_eq!(code(dir.status), 1);
    let stdout = text(&dir.stdout);
    let counted: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(counted, [format!("1 # {bad}:2"), format!("1 # {bad}:5")]);
}

/// `--threads` has a bound, and a large count costs nothing when the work is small.
#[test]
fn thread_counts_are_bounded() {
    for command in ["solve", "count", "rate", "generate"] {
        let out = dlx(&[command, "--threads", "5000"], "");
        assert_eq!(code(out.status), 2, "{command}");
        assert!(
            text(&out.stderr).contains("'5000' for '--threads <N>': at most 1024 threads"),
            "{}",
            text(&out.stderr)
        );
        let out = dlx(&[command, "--threads", "0"], "");
        assert_eq!(code(out.status), 2);
        assert!(
            text(&out.stderr).contains("'0' for '--threads <N>': must be at least 1"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = dlx(&["solve", "--threads", "1024"], &format!("{PUZZLE}\n"));
    assert_eq!((code(out.status), text(&out.stdout)), (0, format!("{SOLUTION}\n")));
}

/// SVG on stdout is one document, however many puzzles.
#[test]
fn svg_on_stdout_is_one_document() {
    let out = dlx(&["generate", "--count", "7", "--seed", "2", "--format", "svg"], "");
    let svg = text(&out.stdout);
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("<g transform").count(), 7);
    assert!(svg.ends_with("</svg>\n"));
}

/// Misuse is exit status 2, with nothing done.
#[test]
fn misuse_exits_2() {
    for args in [
        &["rate", "--format", "grid"][..],
        &["rate", "--format", "dlx"],
        &["count", "--format", "grid"],
        &["count", "--format", "dlx"],
        &["generate", "--format", "line", "--output", "/nonexistent/dir"],
        &["generate", "--count", "2", "--per-page", "1", "--format", "svg"],
        &["xc", "--tie-break", "sometimes"],
        &["frobnicate"],
    ] {
        let out = dlx(args, &format!("{PUZZLE}\n"));
        assert_eq!(code(out.status), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any bytes given to any command's input end with status 0, 1 or 2 (never a crash), with
    /// one thread or two.
    #[test]
    fn any_bytes_to_any_command(
        input in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..400),
            "[0-9.e|\\[\\], \\n#-]{0,300}".prop_map(String::into_bytes),
            "([A-Za-z|:]{1,3}[ \\n]){0,40}".prop_map(String::into_bytes),
        ],
        command in 0usize..6,
        threads in prop_oneof![Just("1"), Just("2")],
    ) {
        let args: &[&str] = match command {
            0 => &["solve", "--threads", threads],
            1 => &["solve", "--format", "json", "--threads", threads],
            2 => &["count", "--limit", "3", "--threads", threads],
            3 => &["rate", "--threads", threads],
            4 => &["solve", "--format", "dlx", "--threads", threads],
            _ => &["xc", "--limit", "3"],
        };
        let out = dlx_bytes(args, &input);
        let status = out.status.code();
        prop_assert!(matches!(status, Some(0..=2)), "{:?}: {:?}\n{}", args, out.status, text(&out.stderr));
        prop_assert!(!text(&out.stderr).contains("panicked"));
    }
}

/// Sends SIGINT to a running `dlx`, as Ctrl-C does.
fn interrupt(child: &std::process::Child) {
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// Ctrl-C stops a count without printing it, and a batch at a record's end: exit status 130,
/// whole records on stdout, and stderr says so.
#[test]
fn ctrl_c_leaves_whole_records_and_says_so() {
    let child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(["xc", "--count", &fixture("pentominoes6x10.dlx")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(out.status), 130, "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "a count cut short is not printed");
    assert!(text(&out.stderr).starts_with("dlx: interrupted"));

    // A large batch: Ctrl-C stops it at a record's end.
    let path = std::env::temp_dir().join(format!("dlx-ctrl-c-{}.txt", std::process::id()));
    std::fs::write(&path, format!("{PUZZLE}\n").repeat(100_000)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(["solve", "--threads", "2", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code(out.status), 130, "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.lines().count() < 100_000);
    assert!(stdout.lines().all(|l| l == SOLUTION), "only whole answers");
}

/// A puzzle given as an argument is answered as a file's would be (and named by its place); an
/// argument that names no file and does not read as a puzzle is a missing file.
#[test]
fn puzzles_as_arguments() {
    let out = dlx(&["solve", PUZZLE], "");
    assert_eq!(code(out.status), 0, "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{SOLUTION}\n"));
    let out = dlx(&["count", "-f", "json", PUZZLE, &fixture("sudoku.txt")], "");
    assert_eq!(code(out.status), 0, "{}", text(&out.stderr));
    let first: serde_json::Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!((first["file"].as_str(), first["count"].as_u64()), (Some("<argument 1>"), Some(1)));
    // A malformed one is reported where it is, as a record is.
    let bad = format!("5{}", &PUZZLE[1..]);
    let out = dlx(&["solve", &bad], "");
    assert_eq!(code(out.status), 2);
    assert_eq!(text(&out.stderr), "dlx: <argument 1>:1: digit 5 appears twice in row 1 (r1c1, r1c3)\n");
    // Not a puzzle: a file that is missing.
    let out = dlx(&["solve", "no-such-file.txt"], "");
    assert_eq!(code(out.status), 1);
    assert!(text(&out.stderr).starts_with("dlx: no-such-file.txt: cannot read: "), "{}", text(&out.stderr));
}

/// Values out of range and rules named to the wrong flag are refused with a sentence that says
/// what to give instead.
#[test]
fn refusals_point_to_the_right_flag() {
    for (args, said) in [
        (&["count", "--limit", "0"][..], "'0' for '--limit <N>': must be at least 1"),
        (&["xc", "--limit", "0"], "'0' for '--limit <N>': must be at least 1"),
        (&["solve", "--variant", "jigsaw"], "tip: jigsaw regions come with each puzzle"),
        (&["solve", "--rules", "killer"], "`dlx generate --rules killer` makes killer puzzles"),
        (&["render", "--rules", "odd-even"], "a `marks=` field"),
        (&["generate", "--rules", "parity"], "tip: for odd and even marks, give --rules odd-even"),
        (&["generate", "--rules", "hyper"], "tip: hyper sudoku is windoku: --rules windoku"),
        (&["generate", "--rules", "even,diagonal"], "even is the 9x9 variant of `e` marks, alone"),
        (
            &["generate", "--size", "4", "--difficulty", "hard"],
            "no 4x4 puzzle is hard: singles solve every one",
        ),
    ] {
        let out = dlx(args, "");
        assert_eq!(code(out.status), 2, "{args:?}");
        assert!(text(&out.stderr).contains(said), "{args:?}: {}", text(&out.stderr));
    }
}

/// Rules have one name, `--rules`; the older spellings (`--variant`, `--constraint`, and
/// `--jigsaw`, `--killer`, `--parity` of `generate`) say the same and give the same puzzles
/// and answers.
#[test]
fn rules_have_one_name_and_the_old_spellings_agree() {
    let same = |a: &[&str], b: &[&str]| {
        let (x, y) = (dlx(a, ""), dlx(b, ""));
        assert_eq!(code(x.status), 0, "{a:?}: {}", text(&x.stderr));
        assert_eq!((text(&x.stdout), text(&x.stderr)), (text(&y.stdout), text(&y.stderr)), "{a:?} {b:?}");
        text(&x.stdout)
    };
    let made = ["generate", "-n", "3", "--seed", "4", "-f", "json"];
    for (new, old) in [
        (&["--rules", "diagonal"][..], &["--variant", "diagonal"][..]),
        (&["--rules", "even"], &["--variant", "even"]),
        (&["--rules", "anti-knight,windoku"], &["--constraint", "anti-knight", "--constraint", "windoku"]),
        (&["--rules", "jigsaw,odd-even"], &["--jigsaw", "--parity"]),
        (&["--rules", "killer", "--size", "6"], &["--killer", "--size", "6"]),
    ] {
        let puzzles = same(&[&made[..], new].concat(), &[&made[..], old].concat());
        // The puzzles read back with the same rules, however named.
        let lines: Vec<String> = puzzles
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["puzzle"].as_str().unwrap().to_owned()
            })
            .collect();
        let solved = dlx(&["solve", "-f", "json"], &puzzles);
        assert_eq!(code(solved.status), 0, "{new:?}: {}", text(&solved.stderr));
        assert_eq!(lines.len(), 3);
    }
    // Reading: a variant's name, constraints, and both at once.
    let puzzle = ".".repeat(80) + "1";
    for (new, old) in [
        (&["--rules", "windoku"][..], &["--variant", "windoku"][..]),
        (&["--rules", "diagonal,anti-king"], &["--constraint", "diagonal,anti-king"]),
    ] {
        let new = [&["count", "--limit", "50", &puzzle][..], new].concat();
        let old = [&["count", "--limit", "50", &puzzle][..], old].concat();
        same(&new, &old);
    }
}
