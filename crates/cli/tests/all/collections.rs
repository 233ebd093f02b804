//! Files and formats that round-trip: the variant travels with generated puzzles, generated JSON
//! is read back, collections with extra fields are read, given solutions are checked.

use crate::common;
use crate::common::dlx;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

const PUZZLE: &str = "5176...34289..4...3462.5.9.6.2....1..38..6.47..........9.....787.34..56..........";
const SOLUTION: &str = "517698234289134756346275891672849315138526947954713682495362178723481569861957423";

/// Generated diagonal puzzles are rated and solved as diagonal without `--variant`, from the
/// line, grid and JSON output alike.
#[test]
fn the_variant_travels_with_generated_puzzles() {
    for format in ["line", "grid", "json"] {
        let out = dlx(&["generate", "--variant", "diagonal", "-n", "5", "--seed", "9", "-f", format], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let puzzles = text(&out.stdout);
        let rated = dlx(&["rate", "--strict"], &puzzles);
        assert!(rated.status.success(), "{format}: {}", text(&rated.stdout));
        assert!(!text(&rated.stdout).contains("multiple"), "{format}: {}", text(&rated.stdout));
        let solved = dlx(&["solve", "--strict", "-f", "json"], &puzzles);
        assert!(solved.status.success(), "{format}: {}", text(&solved.stdout));
        let rows: Vec<serde_json::Value> =
            text(&solved.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|r| r["status"] == "unique"), "{format}");
        let counts = dlx(&["count"], &puzzles);
        assert_eq!(text(&counts.stdout), "1\n".repeat(5), "{format}");
        // The command line's --variant is the user's word, and wins.
        let classic = dlx(&["count", "--variant", "classic", "--limit", "2"], &puzzles);
        assert!(text(&classic.stdout).contains("2+"), "{format}: {}", text(&classic.stdout));
    }
}

/// A diagonal puzzle read as classic has several solutions, and the message says it would be
/// unique as diagonal.
#[test]
fn several_solutions_but_unique_as_another_variant() {
    let out = dlx(&["generate", "--variant", "diagonal", "--seed", "5", "-f", "json"], "");
    let row: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let puzzle = row["puzzle"].as_str().unwrap().to_owned();
    let out = dlx(&["solve"], &puzzle);
    let said = text(&out.stdout);
    assert!(
        said.starts_with(&format!(
            "{puzzle} # line 1: multiple solutions (unique as a diagonal puzzle: give --rules diagonal"
        )),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "one line per record: {said}");
    let json = dlx(&["count", "-f", "json", "--limit", "5"], &puzzle);
    assert!(text(&json.stdout).contains("\"unique_as\":\"diagonal\""), "{}", text(&json.stdout));
    // A puzzle with several solutions as every variant gets no such hint.
    let open = dlx(&["solve"], &".".repeat(81));
    assert!(!text(&open.stdout).contains("unique as"), "{}", text(&open.stdout));
}

/// Extra fields are read or ignored as documented; a given solution is checked, and a wrong one
/// is reported (exit status 2) while the rest of the batch is answered.
#[test]
fn given_solutions_are_checked() {
    let mut wrong = SOLUTION.to_owned();
    // Swap two digits of the first row: still a full grid, no longer this puzzle's solution.
    wrong.replace_range(4..6, "89");
    let input =
        format!("puzzle,solution,rating\n{PUZZLE},{SOLUTION},1.2\n{PUZZLE},{wrong},1.2\n{PUZZLE},,\n");
    let out = dlx(&["solve"], &input);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).matches(SOLUTION).count(), 3, "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stderr),
        "dlx: <stdin>:3: the solution given beside the puzzle is wrong: it differs from the solution in \
         r1c5, r1c6\n"
    );
    let json = dlx(&["solve", "-f", "json"], &input);
    let given: Vec<serde_json::Value> = text(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["given_solution"].clone())
        .collect();
    assert_eq!(given, [true.into(), false.into(), serde_json::Value::Null]);
    // A puzzle followed by a comment or a rating, and 81 comma-separated cells.
    let cells: Vec<String> = PUZZLE.chars().map(|c| c.to_string()).collect();
    let input = format!("{PUZZLE} # from a book\n{PUZZLE};2.6\n{}\n", cells.join(","));
    let out = dlx(&["solve", "--strict"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{SOLUTION}\n").repeat(3));
}

/// `count --puzzles` prints each puzzle beside its count; with several files every line names
/// its file and line (physical lines: comments count).
#[test]
fn records_name_their_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(&a, format!("# a comment\n\n{PUZZLE}\n")).unwrap();
    std::fs::write(&b, format!("{}\n", ".".repeat(81))).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = dlx(&["count", "-p", "--limit", "3", a, b], "");
    assert_eq!(text(&out.stdout), format!("{PUZZLE} 1 # {a}:3\n{} 3+ # {b}:1\n", ".".repeat(81)));
    let out = dlx(&["count", a], "");
    assert_eq!(text(&out.stdout), "1\n");
    let out = dlx(&["solve", a, a], "");
    assert_eq!(text(&out.stdout), format!("{SOLUTION} # {a}:3\n").repeat(2));
    // What solve writes reads back: the comment after the solution is ignored.
    let again = dlx(&["count", "-p"], &text(&out.stdout));
    assert_eq!(text(&again.stdout), format!("{SOLUTION} 1\n").repeat(2));
    let out = dlx(&["solve", "-f", "grid", a, b], "");
    assert!(
        text(&out.stdout).starts_with(&format!("# {a}:3\n5 1 7 | 6 9 8 | 2 3 4\n")),
        "{}",
        text(&out.stdout)
    );
    let out = dlx(&["rate", a, b], "");
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert!(lines[0].ends_with(&format!(" # {a}:3")), "{lines:?}");
    assert!(
        lines[1].ends_with(&format!(" # {b}, line 1: multiple solutions; rated all the same")),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 2, "one line per record");
}

/// `rate --stats` says how many puzzles came out at each level and hardest technique.
#[test]
fn rate_stats_count_levels_and_techniques() {
    let out = dlx(&["rate", "--stats", &common::fixture("sudoku.txt")], "");
    let stderr = text(&out.stderr);
    let last = stderr.lines().last().unwrap();
    let rows = dlx(&["rate", "-f", "json", &common::fixture("sudoku.txt")], "");
    let rows: Vec<serde_json::Value> =
        text(&rows.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let at = |level: &str| rows.iter().filter(|r| r["level"] == level).count();
    let expected = format!(
        "levels: easy {}, medium {}, hard {}, expert {}; hardest technique: ",
        at("easy"),
        at("medium"),
        at("hard"),
        at("expert")
    );
    assert!(last.starts_with(&expected), "{last}");
    let guessing = rows.iter().filter(|r| r["technique"] == "guessing").count();
    assert!(guessing > 0 && last.ends_with(&format!("guessing {guessing}")), "{last}");
}

/// `solve --format dlx --output DIR` writes one problem per puzzle, each counting the puzzle's
/// solutions; a malformed record gets no file and is reported.
#[test]
fn one_dlx_file_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("problems");
    let input = format!("{PUZZLE}\nnot a puzzle\n{}\n", ".".repeat(80) + "1");
    let out = dlx(&["solve", "-f", "dlx", "-o", out_dir.to_str().unwrap()], &input);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("<stdin>:2:1: unexpected character 'n'"), "{}", text(&out.stderr));
    let mut names: Vec<String> =
        std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["puzzle-0001.dlx", "puzzle-0003.dlx"]);
    let one = dlx(&["xc", "-n", out_dir.join("puzzle-0001.dlx").to_str().unwrap()], "");
    assert_eq!(text(&one.stdout), "1\n");
    let many = dlx(&["xc", "-n", "--limit", "2", out_dir.join("puzzle-0003.dlx").to_str().unwrap()], "");
    assert_eq!(text(&many.stdout), "2+\n");
    let misused = dlx(&["solve", "-o", out_dir.to_str().unwrap()], PUZZLE);
    assert_eq!(misused.status.code(), Some(2));
    assert_eq!(text(&misused.stderr), "dlx: --output DIR is for --format dlx (one problem per file)\n");
}

/// `rate --explain` prints the logical solution one step per line, as many steps as the
/// techniques' counts add up to, ending with what is left for guessing; JSON has them as
/// `steps`. CSV has no place for them.
#[test]
fn rate_explains_the_steps() {
    let techniques = std::fs::read_to_string(common::fixture("techniques.txt")).unwrap();
    let puzzles: Vec<&str> = techniques.lines().filter(|l| !l.starts_with('#')).collect();
    let xy_wing = puzzles[9];
    let out = dlx(&["rate", "--explain"], xy_wing);
    let said = text(&out.stdout);
    let mut lines = said.lines();
    let head = lines.next().unwrap();
    assert!(head.contains(" expert 4.2 (xy-wing) "), "{head}");
    let steps: Vec<&str> = lines.collect();
    let counted: u64 = head
        .rsplit(": ")
        .next()
        .unwrap()
        .split(", ")
        .map(|t| t.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(steps.len() as u64, counted);
    for (k, step) in steps.iter().enumerate() {
        assert!(step.starts_with(&format!("  {}. ", k + 1)), "{step}");
        assert!(step.contains(" places ") || step.contains(" removes "), "{step}");
    }
    assert!(steps.iter().any(|s| s.contains(". xy-wing ")));
    let json = dlx(&["rate", "--explain", "-f", "json"], xy_wing);
    let row: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    let from_json: Vec<String> =
        row["steps"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect();
    let from_lines: Vec<String> = steps.iter().map(|s| s.split_once(". ").unwrap().1.to_owned()).collect();
    assert_eq!(from_json, from_lines);
    let hardest = dlx(
        &["rate", "--explain"],
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    );
    assert!(text(&hardest.stdout).ends_with("  the techniques stop here: guessing is needed\n"));
    let csv = dlx(&["rate", "--explain", "-f", "csv"], xy_wing);
    assert_eq!(csv.status.code(), Some(2));
    assert_eq!(text(&csv.stderr), "dlx: --explain is for the line and json formats\n");
}

/// Every JSON record says what its puzzle is with the same fields, whatever its size and rules
/// (`size`, `rules`, and `variant` for a 9x9 variant's), and reads back to the same answer: the
/// records of `solve`, `count` and `rate` given to the same command again.
#[test]
fn json_records_have_the_same_fields_for_every_puzzle() {
    let nine = format!("# variant: diagonal\n{}\n", generated(&["--variant", "diagonal"]));
    let even = generated(&["--variant", "even"]);
    let killer = generated(&["--size", "6", "--killer"]);
    let jigsaw = generated(&["--jigsaw"]);
    let cases = [
        (nine.as_str(), "3x3", "9x9 diagonal", Some("diagonal")),
        (even.as_str(), "3x3", "9x9 even", Some("even")),
        (killer.as_str(), "2x3", "6x6 killer", None),
        (jigsaw.as_str(), "3x3", "9x9 jigsaw", None),
    ];
    for (input, size, rules, variant) in cases {
        for command in ["solve", "count", "rate"] {
            let first = dlx(&[command, "-f", "json"], input);
            let row: serde_json::Value = serde_json::from_str(text(&first.stdout).trim()).unwrap();
            let what = format!("{command} {rules}: {row}");
            assert_eq!((row["size"].as_str(), row["rules"].as_str()), (Some(size), Some(rules)), "{what}");
            assert_eq!(row["variant"].as_str(), variant, "{what}");
            let again = dlx(&[command, "-f", "json"], &text(&first.stdout));
            let back: serde_json::Value = serde_json::from_str(text(&again.stdout).trim()).unwrap();
            for field in ["puzzle", "size", "rules", "variant", "solution", "count", "level", "rating"] {
                assert_eq!(back[field], row[field], "{field} of {what} read back: {back}");
            }
        }
    }
}

/// The line of one puzzle `dlx generate` makes with these arguments.
fn generated(args: &[&str]) -> String {
    let out = dlx(&[&["generate", "-n", "1", "--seed", "4"], args].concat(), "");
    let lines = text(&out.stdout);
    lines.lines().rfind(|l| !l.starts_with('#')).unwrap().to_owned()
}
