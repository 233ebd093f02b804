//! Files and formats that round-trip: the variant travels with generated puzzles, generated JSON
//! is read back, collections with extra fields are read, given solutions are checked.

mod common;

use common::dlx;

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
        said.starts_with(
            "# line 1: multiple solutions (unique as a diagonal puzzle: give --variant diagonal"
        ),
        "{said}"
    );
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
