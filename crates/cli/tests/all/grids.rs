//! End-to-end tests of puzzles of other sizes and rules: reading, solving, counting, encoding,
//! generating, and the errors that name where input is wrong.

use crate::common::dlx;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn a_4x4_line_is_solved_and_its_answer_reads_back() {
    let out = dlx(&["solve"], "1.3.3..2.1.34..1\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "1234341221434321\n");
    let again = dlx(&["count"], &text(&out.stdout));
    assert_eq!(text(&again.stdout), "1\n", "a full grid read back has one solution");
}

#[test]
fn counts_of_empty_grids_are_the_known_ones() {
    // 4x4: 288. 6x6 with boxes of 2x3 and 3x2: 28,200,960 = 720 x the grids with first row 123456.
    assert_eq!(text(&dlx(&["count", "--size", "4"], &".".repeat(16)).stdout), "288\n");
    for shape in ["2x3", "3x2"] {
        let line = format!("123456{}\n", ".".repeat(30));
        let out = dlx(&["count", "--size", shape], &line);
        assert_eq!(text(&out.stdout), "39168\n", "{shape}: {}", text(&out.stderr));
    }
}

#[test]
fn generated_puzzles_of_other_sizes_read_back_unique_in_every_form() {
    for (size, extra) in [("6", &[][..]), ("8", &["--constraint", "diagonal"][..]), ("12", &[][..])] {
        for format in ["line", "grid", "json"] {
            let mut args = vec!["generate", "--size", size, "-n", "3", "--seed", "5", "-f", format];
            args.extend_from_slice(extra);
            let out = dlx(&args, "");
            assert!(out.status.success(), "{}", text(&out.stderr));
            let counts = dlx(&["count", "--limit", "2"], &text(&out.stdout));
            assert_eq!(text(&counts.stdout), "1\n".repeat(3), "{size} {format}: {}", text(&counts.stderr));
        }
    }
    // The same seed makes the same puzzles, whatever the threads.
    let one = dlx(&["generate", "--size", "16", "-n", "2", "--seed", "9", "-j", "1"], "");
    let two = dlx(&["generate", "--size", "16", "-n", "2", "--seed", "9", "-j", "2"], "");
    assert_eq!(text(&one.stdout), text(&two.stdout));
    // One line per puzzle, no header: a 16x16 line's length says its size.
    assert!(text(&one.stdout).lines().all(|l| l.len() == 256), "{}", text(&one.stdout));
}

#[test]
fn rules_ride_on_the_line_and_the_answer_keeps_them() {
    // A killer cage, an odd cell and anti-knight on a 4x4 line; the answer is a line with the
    // same fields, which reads back to one solution.
    let line = "1....4.......... cage=7:r4c3,r4c4 marks=.........o...... variant=anti-knight\n";
    let count = dlx(&["count"], line);
    let solved = dlx(&["solve"], line);
    let answer = text(&solved.stdout);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    assert!(answer.contains("cage=7:r4c3,r4c4") && answer.contains("variant=anti-knight"), "{answer}");
    assert_eq!(text(&count.stdout), "1\n", "the rules leave one solution");
    assert_eq!(text(&dlx(&["count"], &answer).stdout), "1\n", "the answer reads back as itself");
    // The answer obeys the cage and the odd mark: r4c3 + r4c4 = 7, r3c2 odd.
    let digits: Vec<u32> = answer.chars().take(16).map(|c| c.to_digit(10).unwrap()).collect();
    assert_eq!(digits[14] + digits[15], 7, "{answer}");
    assert_eq!(digits[9] % 2, 1, "{answer}");
}

#[test]
fn encoded_grids_count_the_same_through_dlx_xc() {
    let puzzle = ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1 variant=diagonal\n";
    let ours = text(&dlx(&["count"], puzzle).stdout);
    let problem = dlx(&["solve", "--format", "dlx"], puzzle);
    assert!(problem.status.success(), "{}", text(&problem.stderr));
    let theirs = dlx(&["xc", "--count"], &text(&problem.stdout));
    assert_eq!(text(&theirs.stdout).split_whitespace().next(), ours.split_whitespace().next());
}

#[test]
fn sixteen_by_sixteen_in_hexadecimal_is_answered_in_hexadecimal() {
    let made = text(&dlx(&["generate", "--size", "16", "--seed", "2"], "").stdout);
    let puzzle = made.lines().next().unwrap();
    // 1-9A-G to 0-F: each digit one lower in base 16.
    let hex: String = puzzle
        .chars()
        .map(|c| match c.to_digit(17) {
            Some(d) => char::from_digit(d - 1, 16).unwrap().to_ascii_uppercase(),
            None => c,
        })
        .collect();
    let solved = text(&dlx(&["solve"], &format!("{hex}\n")).stdout);
    assert!(solved.trim().chars().all(|c| c.is_ascii_hexdigit()), "{solved}");
    assert!(solved.contains('0') && !solved.contains('G'), "{solved}");
}

#[test]
fn bad_grids_are_reported_where_they_are_wrong() {
    let cases = [
        ("1..4..2.2..1..3.5\n", "17 cells"),
        ("1..5............\n", "1:4: `5` is not a digit of a 4x4 grid"),
        ("................ regions=AABBAABBCCDDCCDE\n", "region map has 5 regions"),
        ("................ variant=anti-queen\n", "unknown constraint `anti-queen`"),
        ("................ cage=40:r1c1,r1c2\n", "cage 1: no 2 different digits 1-4 add up to 40"),
        ("................ colour=red\n", "1:18: unknown field `colour`"),
        ("11..............\n", "digit 1 appears twice in row 1 (r1c1, r1c2)"),
    ];
    for (input, message) in cases {
        let out = dlx(&["solve"], &format!("{input}1.3.3..2.1.34..1\n"));
        assert_eq!(out.status.code(), Some(2), "{input}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(message), "{input}: {}", text(&out.stderr));
        // The batch goes on past the bad record.
        assert!(text(&out.stdout).contains("1234341221434321"), "{input}");
    }
    let out = dlx(&["generate", "--size", "6", "--symmetry", "diagonal"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("diagonal symmetry does not fit a 6x6 grid: it maps its boxes onto others")
    );
}

#[test]
fn answers_from_several_files_name_them_and_still_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, "1.3.3..2.1.34..1\n").unwrap();
    std::fs::write(&b, "# size: 2x3\n.6..4.3.4.....1.3..4.5.....6.4.1..2.\n").unwrap();
    let out = dlx(&["solve", a.to_str().unwrap(), b.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answers = text(&out.stdout);
    assert!(answers.lines().all(|l| l.contains(" # ")), "{answers}");
    let counts = dlx(&["count"], &answers);
    assert_eq!(text(&counts.stdout), "1\n1\n", "{}", text(&counts.stderr));
}

#[test]
fn a_solution_given_beside_a_grid_is_checked() {
    let out = dlx(&["solve"], "1.3.3..2.1.34..1 1234341221434321\n1.3.3..2.1.34..1 1234341221434312\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            ":2: the solution given beside the puzzle is wrong: it differs from the solution in r4c3, r4c4"
        ),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout).matches("1234341221434321").count(), 2, "both are answered");
    // JSON records carry it as "solution", as generate writes them.
    let made = dlx(&["generate", "--size", "6", "-n", "2", "--seed", "3", "-f", "json"], "");
    let answered = dlx(&["solve", "-f", "json"], &text(&made.stdout));
    assert!(answered.status.success(), "{}", text(&answered.stderr));
    assert_eq!(text(&answered.stdout).matches("\"given_solution\":true").count(), 2);
}

/// `render` puts puzzles of every size and rules on the same pages, each captioned with its
/// number, level and rules, with one legend for the marks the page shows.
#[test]
fn render_puts_every_puzzle_on_the_same_pages() {
    let made = dlx(&["generate", "--size", "6", "--jigsaw", "-n", "3", "--seed", "4"], "");
    let puzzles = text(&made.stdout);
    // One page on stdout, a document of paper size with a caption per puzzle.
    let page = dlx(&["render"], &puzzles);
    assert!(page.status.success(), "{}", text(&page.stderr));
    let svg = text(&page.stdout);
    assert!(svg.starts_with("<svg") && svg.contains(r#"width="210mm""#), "{svg}");
    assert_eq!(svg.matches("6x6 jigsaw</text>").count(), 3);
    // With answers, into a folder: the answers carry the found digits in grey.
    let dir = tempfile::tempdir().unwrap();
    let out = dlx(&["render", "--output", dir.path().to_str().unwrap(), "--answers"], &puzzles);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answers = std::fs::read_to_string(dir.path().join("answers-0001.svg")).unwrap();
    assert!(answers.contains(r#"class="found""#), "grey digits on the answer page");
    assert!(dir.path().join("page-0001.svg").exists());
    // A 9x9 puzzle, a 6x6 killer with odd marks and the jigsaw ones share one page, numbered in
    // order, the legend naming the marks of both.
    let killer =
        ".6..4.3.4.....1.3..4.5.....6.4.1..2. marks=o................................... cage=4:r1c1,r2c1";
    let mixed = format!("{}\n{puzzles}{killer}\n", ".".repeat(80) + "1");
    let page = dlx(&["render"], &mixed);
    assert!(page.status.success(), "{}", text(&page.stderr));
    let svg = text(&page.stdout);
    for caption in ["1 · several solutions · classic", "2 · ", "5 · easy · 6x6 odd killer"] {
        assert!(svg.contains(caption), "{caption}: {svg}");
    }
    assert!(svg.contains("a grey circle holds an odd digit") && svg.contains("adds up to its sum"), "{svg}");
}

/// A classic puzzle read as a grid of any size (`--size 9`) gets what it gets as a 9x9 puzzle:
/// the same level, rating, hardest technique, counts of techniques and averaged effort. The
/// fixture holds a puzzle for each technique, the wings, rectangle, coloring and chain included.
#[test]
fn a_classic_puzzle_rates_the_same_read_either_way() {
    let input =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/techniques.txt"))
            .expect("the fixture");
    let nine = dlx(&["rate"], &input);
    let any = dlx(&["rate", "--size", "9"], &input);
    assert!(nine.status.success() && any.status.success(), "{}", text(&any.stderr));
    // Each answer is the puzzle (written by its form), then the verdict.
    let verdicts = |out: &[u8]| -> Vec<String> {
        text(out).lines().map(|l| l.split_once(' ').expect("a verdict").1.to_owned()).collect()
    };
    let (nine, any) = (verdicts(&nine.stdout), verdicts(&any.stdout));
    assert_eq!(nine.len(), 15);
    assert_eq!(any, nine);
    assert!(nine.iter().any(|v| v.contains("(forcing chain)")), "{nine:?}");
    assert!(!nine.iter().any(|v| v.contains("guessing")), "{nine:?}");
}

/// A 9x9 puzzle's exact-cover problem names its items one way whatever the form it was read in:
/// `--format dlx` writes the same items and options for it as a 9x9 puzzle of a variant and as
/// a grid of the same rules (only the title line names the form).
#[test]
fn a_9x9_puzzle_is_encoded_the_same_read_either_way() {
    let puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    for (variant, constraint) in [
        ("classic", None),
        ("diagonal", Some("diagonal")),
        ("windoku", Some("windoku")),
        ("anti-king", Some("anti-king")),
    ] {
        let nine = dlx(&["solve", "-f", "dlx", "--variant", variant], puzzle);
        let mut args = vec!["solve", "-f", "dlx", "--size", "9"];
        args.extend(constraint.iter().flat_map(|c| ["--constraint", c]));
        let any = dlx(&args, puzzle);
        let body = |out: &[u8]| text(out).lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(body(&nine.stdout), body(&any.stdout), "{variant}");
        assert!(body(&nine.stdout).starts_with("r1c1 r1c2"), "{variant}");
        assert!(body(&nine.stdout).contains(" R1#1 "), "{variant}");
    }
}

/// A rating says how many branching orders its effort averages: eight up to 81 cells, one on
/// larger grids (whose random orders cost too much).
#[test]
fn a_rating_says_how_many_orders_its_effort_averages() {
    for (size, orders) in [("6", 8), ("9", 8), ("16", 1)] {
        let made = dlx(&["generate", "--size", size, "-n", "1", "--seed", "2"], "");
        let rated = dlx(&["rate", "-f", "json"], &text(&made.stdout));
        let row: serde_json::Value = serde_json::from_str(text(&rated.stdout).trim()).unwrap();
        assert_eq!(row["effort"]["orders"], orders, "{size}: {row}");
    }
}

/// `--engine dlx` and `--engine bits` give the same answers, in every command that searches,
/// on 9x9 puzzles and on generated ones of other sizes and rules; a search that is no search is
/// refused with the names of those that are.
#[test]
fn both_engines_give_the_same_answers() {
    let mut input = std::fs::read_to_string(crate::common::fixture("sudoku.txt")).unwrap();
    for (size, extra) in [("6", &[][..]), ("8", &["--rules", "diagonal"][..]), ("16", &[][..])] {
        let mut args = vec!["generate", "--size", size, "-n", "3", "--seed", "9", "-f", "line"];
        args.extend_from_slice(extra);
        let out = dlx(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        input.push_str(&text(&out.stdout));
        // The same puzzles with a clue fewer: several solutions each.
        for line in text(&out.stdout).lines() {
            let (cells, rest) = line.split_at(line.find(' ').unwrap_or(line.len()));
            let at = cells.find(|c: char| c != '.').unwrap();
            input.push_str(&format!("{}.{}{rest}\n", &cells[..at], &cells[at + 1..]));
        }
    }
    for task in
        [&["solve"][..], &["solve", "--first"], &["count", "--limit", "20"], &["count", "--limit", "2"]]
    {
        let answers: Vec<String> = ["dlx", "bits", "auto"]
            .iter()
            .map(|engine| {
                let mut args = task.to_vec();
                args.extend(["--engine", engine, "-f", "json"]);
                let out = dlx(&args, &input);
                assert!(out.status.success(), "{task:?} {engine}: {}", text(&out.stderr));
                text(&out.stdout)
            })
            .collect();
        // Nodes and guesses count each search's own tree; everything else is the same.
        let strip = |json: &str| -> Vec<serde_json::Value> {
            json.lines()
                .map(|l| {
                    let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                    let o = v.as_object_mut().unwrap();
                    o.remove("nodes");
                    o.remove("guesses");
                    // Two witnesses may be any two of the solutions, a first solution any one.
                    if o.get("status").and_then(|s| s.as_str()) == Some("multiple")
                        || task[1..] == ["--first"]
                    {
                        o.remove("solution");
                        o.remove("solutions");
                    }
                    v
                })
                .collect()
        };
        assert!(answers[0].lines().count() >= 20, "{task:?}: {}", answers[0]);
        assert_eq!(strip(&answers[0]), strip(&answers[1]), "{task:?}: dlx against bits");
        assert_eq!(strip(&answers[0]), strip(&answers[2]), "{task:?}: dlx against auto");
    }
    let out = dlx(&["count", "--engine", "links"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("links") && err.contains("auto") && err.contains("dlx") && err.contains("bits"),
        "{err}"
    );
}
