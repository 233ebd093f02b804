//! End-to-end tests of `dlx solve` and `dlx count`.

use crate::common;
use crate::common::{dlx, fixture};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

const SOLUTIONS: [&str; 4] = [
    "517698234289134756346275891672849315138526947954713682495362178723481569861957423",
    "947165283823974516651328947478596132516432879239817465764251398385749621192683754",
    "145327698839654127672918543496185372218473956753296481367542819984761235521839764",
    "849257631357618249612439758423761985165892374798345162281573496934186527576924813",
];

#[test]
fn solves_the_known_puzzles_in_their_own_forms() {
    let out = dlx(&["solve", &fixture("sudoku.txt")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    for s in &SOLUTIONS[..3] {
        assert_eq!(lines.next(), Some(*s));
    }
    // The list puzzle comes back as a grid, its even cells' marks in the header line above it.
    assert!(lines.next().is_some_and(|l| l.starts_with("# size: 3x3 marks=")), "{stdout}");
    let grid: String = lines.take(11).collect::<Vec<_>>().join("\n");
    let digits: String = grid.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits, SOLUTIONS[3]);
    // Every thread count gives the same output.
    for threads in ["1", "3"] {
        assert_eq!(text(&dlx(&["solve", "--threads", threads, &fixture("sudoku.txt")], "").stdout), stdout);
    }
}

#[test]
fn json_lines_and_a_bad_batch() {
    let out = dlx(&["solve", "--format", "json", &fixture("sudoku-bad.txt")], "");
    assert_eq!(out.status.code(), Some(2));
    let rows: Vec<serde_json::Value> =
        text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["status"], "unique");
    assert_eq!(rows[0]["line"], 2);
    assert_eq!(rows[0]["solution"], SOLUTIONS[2]);
    assert!(rows[0]["nodes"].as_u64().unwrap() >= rows[0]["guesses"].as_u64().unwrap());
    assert_eq!(rows[1]["status"], "invalid");
    assert_eq!(rows[1]["error"], "digit 5 appears twice in row 1 (r1c2, r1c8)");
    assert_eq!(rows[2]["error"], "79 cells, expected 81");
    assert_eq!(rows[2]["line"], 4);
    assert_eq!(rows[3]["solution"], SOLUTIONS[1]);
    let err = text(&out.stderr);
    assert!(err.contains("sudoku-bad.txt:3: digit 5 appears twice in row 1 (r1c2, r1c8)"), "{err}");
    assert!(err.contains("sudoku-bad.txt:4: 79 cells, expected 81"), "{err}");

    let bad_char = dlx(&["solve"], &format!("{}x\n", ".".repeat(80)));
    assert_eq!(bad_char.status.code(), Some(2));
    assert_eq!(text(&bad_char.stderr), "dlx: <stdin>:1:81: unexpected character 'x'\n");
}

#[test]
fn none_multiple_first_and_counts() {
    let empty = ".".repeat(81);
    let none = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let input = format!("{empty}\n{none}\n");
    let out = dlx(&["solve", "--stats"], &input);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // One line per record: the puzzle, and a comment with both witnesses of an ambiguous puzzle
    // and the cells where they differ.
    assert_eq!(lines.len(), 2);
    let witnesses: Vec<&str> = lines[0].rsplit(": ").next().unwrap().split(' ').collect();
    let (one, two) = (witnesses[0], witnesses[1]);
    assert!(one.len() == 81 && two.len() == 81 && one != two);
    let differ: Vec<String> = (0..81)
        .filter(|&k| one.as_bytes()[k] != two.as_bytes()[k])
        .map(|k| format!("r{}c{}", k / 9 + 1, k % 9 + 1))
        .collect();
    assert_eq!(
        lines[0],
        format!(
            "{empty} # line 1: multiple solutions; two of them, which differ in {}: {one} {two}",
            differ.join(", ")
        )
    );
    assert_eq!(lines[1], format!("{none} # line 2: no solution"));
    assert!(text(&out.stderr).starts_with("puzzles 2, unique 0, multiple 1, none 1, invalid 0, "));

    let first = dlx(&["solve", "--first", "--format", "json"], &format!("{empty}\n"));
    assert!(text(&first.stdout).contains("\"status\":\"solved\""));
    // The closing summary tells solved apart from unique, for --first and for counts alike;
    // --first, which checks no uniqueness, does not say `unique 0`.
    let first = dlx(&["solve", "--first", "--stats"], &input);
    assert!(text(&first.stderr).starts_with("puzzles 2, solved 1, none 1, invalid 0, "));
    let both = format!("{empty}\n{none}\n{}\n", SOLUTIONS[0]);
    let counted = dlx(&["count", "--limit", "5", "--stats"], &both);
    assert!(text(&counted.stderr).starts_with("puzzles 3, unique 1, multiple 1, none 1, invalid 0, "));
    let at_least_one = dlx(&["count", "--limit", "1", "--stats"], &both);
    assert!(text(&at_least_one.stderr).starts_with("puzzles 3, solved 2, none 1, "));

    // Effort is averaged over the puzzles searched, not over malformed records.
    let one = "....6..8..2.........1.......7....1.25...3..........4....42.1...3..7..6.........5.\n";
    let row: serde_json::Value =
        serde_json::from_slice(&dlx(&["solve", "--format", "json"], one).stdout).unwrap();
    let (nodes, guesses) = (row["nodes"].as_u64().unwrap(), row["guesses"].as_u64().unwrap());
    assert!(nodes > 0 && guesses > 0, "{row}");
    let with_bad = dlx(&["solve", "--stats"], &format!("123\n{one}"));
    let summary = text(&with_bad.stderr);
    assert!(summary.contains(&format!("nodes/puzzle {nodes}.0, guesses/puzzle {guesses}.0")), "{summary}");

    let counts = dlx(&["count", "--limit", "5"], &format!("{empty}\n{none}\n{}\n", SOLUTIONS[0]));
    assert_eq!(text(&counts.stdout), "5+\n0\n1\n");

    let diagonal =
        dlx(&["solve", "--variant", "diagonal", "--format", "json"], &format!("{}\n", SOLUTIONS[0]));
    assert!(text(&diagonal.stdout).contains("\"status\":\"invalid\""), "a classic grid breaks the diagonals");
}

#[test]
fn even_markers_are_inferred_and_kept() {
    let out = dlx(&["count", "--limit", "20", &fixture("sudoku.txt")], "");
    assert_eq!(text(&out.stdout), "1\n1\n1\n1\n");
    // A variant named adds its rules to each puzzle's own: the even markers are the puzzle's and
    // stay, whatever variant is named (a classic one adds nothing; diagonals join them).
    let classic = dlx(&["count", "--variant", "classic", "--format", "json", &fixture("sudoku.txt")], "");
    let rows: Vec<serde_json::Value> =
        text(&classic.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let counts: Vec<u64> = rows.iter().map(|r| r["count"].as_u64().unwrap()).collect();
    assert_eq!((classic.status.code(), counts), (Some(0), vec![1, 1, 1, 1]));
    assert_eq!(rows[3]["variant"], "even", "the markers are kept: {}", rows[3]);
    let lines = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    let even = lines.lines().last().unwrap();
    let diagonal = dlx(&["count", "--variant", "diagonal", "--format", "json"], &format!("{even}\n"));
    let row: serde_json::Value = serde_json::from_slice(&diagonal.stdout).unwrap();
    // 9x9 with diagonals and even cells is no 9x9 variant: the puzzle carries its rules.
    assert!(row["puzzle"].as_str().unwrap().contains("variant=diagonal marks="), "{row}");
    assert_eq!(row["count"], 0, "{row}");
}

#[test]
fn raw_bytes_never_panic() {
    let inputs: [&[u8]; 6] = [
        b"\xff\xfe\x00garbage\n",
        b"[[[[[[\n",
        b"]]]\n1,2,3\n",
        b"4 . . | . . . | 8 . 5\n\xc3\x28\n",
        &[b'1'; 100_000],
        b"e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e.e\n",
    ];
    for input in inputs {
        for command in ["solve", "count", "rate"] {
            let out = common::dlx_bytes(&[command], input);
            assert!(
                matches!(out.status.code(), Some(0 | 2)),
                "{command} on {:?}: {:?}",
                &input[..input.len().min(20)],
                out.status
            );
        }
    }
}

#[test]
fn dlx_encoding_counts_alike_through_xc() {
    // The even puzzle (list form), and the empty grid (many solutions), as .dlx for other tools.
    let even = std::fs::read_to_string(fixture("sudoku.txt")).unwrap().lines().nth(4).unwrap().to_owned();
    // `dlx xc --count --limit 3` prints 3+ for "at least 3", as `dlx count` does.
    for (puzzle, want) in [(even.as_str(), "1\n"), (&*".".repeat(81), "3+\n")] {
        let encoded = dlx(&["solve", "--format", "dlx"], &format!("{puzzle}\n"));
        assert!(encoded.status.success());
        let dlx_text = text(&encoded.stdout);
        assert!(dlx_text.starts_with("| sudoku ("), "{dlx_text}");
        assert_eq!(text(&dlx(&["xc", "--count", "--limit", "3"], &dlx_text).stdout), want);
    }
    // A puzzle that breaks the rules is reported, not encoded.
    let bad = dlx(&["solve", "--format", "dlx"], &format!("55{}\n", ".".repeat(79)));
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stdout).starts_with("| line 1: invalid: digit 5 appears twice in row 1"));
}
