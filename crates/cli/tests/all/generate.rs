//! End-to-end tests of `dlx generate` and `dlx rate`.

use crate::common::{dlx, fixture};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn json_lines(bytes: &[u8]) -> Vec<serde_json::Value> {
    text(bytes).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn generated_puzzles_are_unique_and_reproducible() {
    let out = dlx(&["generate", "--count", "6", "--seed", "3"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let puzzles = text(&out.stdout);
    // One line per puzzle, no header: a classic puzzle needs no field.
    assert_eq!(puzzles.lines().count(), 6);
    assert!(puzzles.lines().all(|l| l.len() == 81), "{puzzles}");
    let counts = dlx(&["count", "--limit", "2"], &puzzles);
    assert_eq!(text(&counts.stdout), "1\n".repeat(6), "every puzzle has exactly one solution");
    for threads in ["1", "3"] {
        let again = dlx(&["generate", "--count", "6", "--seed", "3", "--threads", threads], "");
        assert_eq!(text(&again.stdout), puzzles, "same seed, same puzzles with {threads} threads");
    }
    assert_ne!(text(&dlx(&["generate", "--count", "6", "--seed", "4"], "").stdout), puzzles);
}

#[test]
fn json_and_stats_report_the_seed() {
    const RUN: [&str; 9] =
        ["generate", "--count", "2", "--variant", "even", "--symmetry", "mirror", "--format", "json"];
    let out = dlx(&[&RUN[..], &["--stats"]].concat(), "");
    assert!(out.status.success());
    let rows = json_lines(&out.stdout);
    assert_eq!(rows.len(), 2);
    let run_seed = rows[0]["run_seed"].as_u64().unwrap();
    assert!(text(&out.stderr).starts_with(&format!("seed {run_seed}, puzzles 2, ")), "{}", text(&out.stderr));
    for row in &rows {
        assert_eq!(row["variant"], "even");
        assert_eq!(row["symmetry"], "mirror");
        let puzzle = row["puzzle"].as_str().unwrap();
        let check = dlx(&["solve", "--variant", "even", "--format", "json"], &format!("{puzzle}\n"));
        let verdict = json_lines(&check.stdout);
        assert_eq!(verdict[0]["status"], "unique");
        // The answer's solution carries its marks as a field; the cells are the generated ones.
        let solved = verdict[0]["solution"].as_str().unwrap();
        assert_eq!(solved.split(' ').next(), row["solution"].as_str(), "{solved}");
        assert!(solved.contains(" marks="), "{solved}");
        // Without --difficulty the JSON still carries the rating, as `dlx rate` gives it.
        let rated = json_lines(
            &dlx(&["rate", "--variant", "even", "--format", "json"], &format!("{puzzle}\n")).stdout,
        );
        assert_eq!((&row["level"], &row["technique"]), (&rated[0]["level"], &rated[0]["technique"]));
        assert!(row["level"].is_string() && row["technique"].is_string(), "{row}");
    }
    // Repeating the run with its reported seed gives the same puzzles.
    let seed = run_seed.to_string();
    let again = dlx(&[&RUN[..], &["--seed", &seed]].concat(), "");
    assert_eq!(json_lines(&again.stdout), rows);
}

#[test]
fn difficulty_is_reached_and_rated_alike() {
    let out =
        dlx(&["generate", "--count", "3", "--seed", "11", "--difficulty", "medium", "--format", "json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = json_lines(&out.stdout);
    let puzzles: String = rows.iter().map(|r| format!("{}\n", r["puzzle"].as_str().unwrap())).collect();
    for row in &rows {
        assert_eq!(row["level"], "medium");
    }
    let rated = json_lines(&dlx(&["rate", "--format", "json"], &puzzles).stdout);
    assert_eq!(rated.len(), 3);
    for r in &rated {
        assert_eq!(r["level"], "medium");
        assert_eq!(r["technique"], "locked candidates");
        assert_eq!(r["solutions"], 1);
    }
    // An unreachable bound is reported, not looped on forever.
    let seed = (1..100)
        .map(|s: u64| s.to_string())
        .find(|s| {
            json_lines(&dlx(&["generate", "--seed", s, "--format", "json"], "").stdout)[0]["level"] != "hard"
        })
        .expect("most first puzzles are not hard");
    let out = dlx(&["generate", "--seed", &seed, "--difficulty", "hard", "--max-attempts", "1"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        "dlx: puzzle 1: no hard puzzle in 1 attempt (try more --max-attempts, or another level)\n"
    );
}

#[test]
fn svg_files_and_page() {
    let dir = std::env::temp_dir().join(format!("dlx-svg-test-{}", std::process::id()));
    let out = dlx(
        &[
            "generate",
            "--count",
            "2",
            "--seed",
            "1",
            "--variant",
            "diagonal",
            "--format",
            "svg",
            "--output",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for name in ["puzzle-0001.svg", "puzzle-0002.svg"] {
        let svg = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("stroke-dasharray"), "diagonals are marked");
        assert!(svg.trim_end().ends_with("</svg>"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let page = text(&dlx(&["generate", "--count", "4", "--seed", "1", "--format", "svg"], "").stdout);
    assert_eq!(page.matches("<g transform").count(), 4);
    // Pages of paper into a folder: 5 puzzles, 2 a page, make 3 pages.
    let out = dlx(
        &[
            "generate",
            "--count",
            "5",
            "--seed",
            "1",
            "--format",
            "svg",
            "--per-page",
            "2",
            "--output",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let grids: Vec<usize> = ["page-0001.svg", "page-0002.svg", "page-0003.svg"]
        .iter()
        .map(|name| std::fs::read_to_string(dir.join(name)).unwrap().matches(r#"class="caption""#).count())
        .collect();
    assert_eq!(grids, [2, 2, 1]);
    // Pages were written under temporary names, then renamed: nothing else is left.
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["page-0001.svg", "page-0002.svg", "page-0003.svg"]);
    std::fs::remove_dir_all(&dir).unwrap();
    // Misuse is exit status 2, and nothing is made.
    for (args, message) in [
        (
            &["generate", "--format", "line", "--output", dir.to_str().unwrap()][..],
            "--output, --per-page and --paper are for pictures (--format svg, pdf or png)",
        ),
        (
            &["generate", "-f", "json", "--per-page", "2"],
            "--output, --per-page and --paper are for pictures (--format svg, pdf or png)",
        ),
        // (Without --format, --per-page means pages of paper, in SVG; stdout holds one.)
        (&["generate", "-n", "3", "--per-page", "2"], "3 puzzles make several pages of 2"),
    ] {
        let bad = dlx(args, "");
        assert_eq!(bad.status.code(), Some(2), "{args:?}");
        assert!(text(&bad.stderr).contains(message), "{args:?}: {}", text(&bad.stderr));
        assert!(bad.stdout.is_empty());
    }
    assert!(!dir.exists());
}

#[test]
fn rate_reports_each_technique_fixture() {
    let out = dlx(&["rate", "--format", "json", &fixture("techniques.txt")], "");
    assert!(out.status.success());
    let rows = json_lines(&out.stdout);
    let expected = [
        ("easy", "hidden single", 1.5),
        ("easy", "naked single", 2.3),
        ("medium", "locked candidates", 2.6),
        ("hard", "naked pair", 3.0),
        ("hard", "x-wing", 3.2),
        ("hard", "hidden pair", 3.4),
        ("hard", "naked triple", 3.6),
        ("hard", "swordfish", 3.8),
        ("hard", "hidden triple", 4.0),
        ("expert", "xy-wing", 4.2),
        ("expert", "xyz-wing", 4.4),
        ("expert", "unique rectangle", 4.5),
        ("expert", "jellyfish", 5.2),
        ("expert", "simple coloring", 6.5),
        ("expert", "forcing chain", 7.5),
    ];
    assert_eq!(rows.len(), expected.len());
    for (row, (level, technique, rating)) in rows.iter().zip(expected) {
        assert_eq!((row["level"].as_str().unwrap(), row["technique"].as_str().unwrap()), (level, technique));
        assert_eq!(row["rating"].as_f64(), Some(rating), "{technique}");
        assert!(row["techniques"][technique].as_u64().unwrap() >= 1);
        assert!(row["effort"]["nodes"].as_f64().unwrap() >= row["effort"]["guesses"].as_f64().unwrap());
    }
    let line = text(&dlx(&["rate", &fixture("sudoku.txt")], "").stdout);
    assert!(line.lines().nth(2).unwrap().contains(" expert 10.0 (guessing) nodes "), "{line}");
}

/// The library's `Run` makes exactly what `dlx generate --seed S` prints, byte for byte, with
/// and without a level, for every variant and a few symmetries, and for rules made up for each
/// puzzle; and so do JSON's `seed`, `attempts` and `minimal`. `--minimal` is the 9x9 generator's
/// run; the default is a run that eases (`Run::ease`), over the generator of any rules.
#[test]
fn the_library_run_is_what_the_command_prints() {
    use dlx_sudoku::{
        Extras, Generator, Level, Matrix, Numbered, Rules, Run, Symmetry, Variant, generate_in_with_extras,
    };
    let check = |args: &[&str], lines: String, made: &[(u64, u64, bool)]| {
        let out = dlx(args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), lines, "{args:?}");
        let rows = json_lines(&dlx(&[args, &["--format", "json"]].concat(), "").stdout);
        let said: Vec<(u64, u64, bool)> = rows
            .iter()
            .map(|r| (r["seed"].as_u64().unwrap(), r["attempts"].as_u64().unwrap(), r["minimal"] == true))
            .collect();
        assert_eq!(said, made, "{args:?}");
    };
    let figures = |made: &[Numbered]| -> Vec<(u64, u64, bool)> {
        made.iter().map(|m| (m.seed, m.attempts, m.added == 0)).collect()
    };
    let mut eased = 0;
    for (variant, symmetry, level) in [
        (Variant::Classic, Symmetry::Rotational, None),
        (Variant::Diagonal, Symmetry::Mirror, None),
        (Variant::Even, Symmetry::Dihedral, None),
        (Variant::Classic, Symmetry::None, Some(Level::Hard)),
    ] {
        let mut args = vec!["generate", "--count", "5", "--seed", "77", "--rules", variant.name()];
        args.extend(["--symmetry", symmetry.name()]);
        if let Some(level) = level {
            args.extend(["--difficulty", level.name()]);
        }
        // One line per puzzle, its rules in its fields, no header.
        let rules = std::sync::Arc::new(Rules::from(variant));
        // --minimal: a run that does not ease (the 9x9 generator's, inside).
        let minimal_matrix = Matrix::new(&rules);
        let mut generator = Generator::for_variant(&minimal_matrix, variant).unwrap();
        let run = Run { symmetry, level, ..Run::new(77) };
        let made: Vec<_> =
            (0..5).map(|index| generator.generate_in(&run, index, &mut |_, _| {}).unwrap()).collect();
        let lines = made.iter().map(|m| m.generated.puzzle.to_text() + "\n").collect::<String>();
        let figures_nine: Vec<_> = made.iter().map(|m| (m.seed, m.attempts, true)).collect();
        check(&[&args[..], &["--minimal"]].concat(), lines, &figures_nine);
        if level.is_some() {
            assert!(made.iter().any(|m| m.attempts > 1), "some puzzle needed more than one attempt");
        }
        // By default: a run that eases.
        let matrix = Matrix::new(&Rules::from(variant));
        let mut generator = Generator::for_variant(&matrix, variant).unwrap();
        let run = Run { ease: true, ..run };
        let made: Vec<_> =
            (0..5).map(|index| generator.generate_in(&run, index, &mut |_, _| {}).unwrap()).collect();
        eased += made.iter().filter(|m| m.added > 0).count();
        let lines = made.iter().map(|m| m.generated.puzzle.to_text() + "\n").collect::<String>();
        check(&args, lines, &figures(&made));
    }
    // Rules made up for each puzzle: jigsaw regions, and killer cages (whose minimal puzzles all
    // need guessing, so that each takes givens back).
    for (name, extras, symmetry) in [
        ("jigsaw", Extras { jigsaw: true, ..Extras::default() }, Symmetry::Rotational),
        ("killer", Extras { killer: true, ..Extras::default() }, Symmetry::None),
    ] {
        let run = Run { ease: true, symmetry, ..Run::new(77) };
        let base = Rules::from(Variant::Classic);
        let made: Vec<_> = (0..3)
            .map(|index| generate_in_with_extras(&base, extras, &run, index, &mut |_, _| {}, None).unwrap())
            .collect();
        eased += made.iter().filter(|m| m.added > 0).count();
        let lines = made.iter().map(|m| m.generated.puzzle.to_text() + "\n").collect::<String>();
        check(&["generate", "--count", "3", "--seed", "77", "--rules", name], lines, &figures(&made));
    }
    assert!(eased > 0, "some puzzle took givens back");
}

/// Pages of paper, files per puzzle and answers, for puzzles of every size and rules alike.
#[test]
fn pages_and_files_for_every_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let args = ["generate", "--size", "6", "--killer", "-n", "4", "--seed", "2", "-f", "svg"];
    let paper = dlx(&[&args[..], &["--paper", "a4", "--answers", "--output", path]].concat(), "");
    assert!(paper.status.success(), "{}", text(&paper.stderr));
    let page = std::fs::read_to_string(dir.path().join("page-0001.svg")).unwrap();
    assert_eq!(page.matches("6x6 killer</text>").count(), 4, "{page}");
    assert!(page.contains("adds up to its sum"), "the legend names the cages: {page}");
    let answers = std::fs::read_to_string(dir.path().join("answers-0001.svg")).unwrap();
    assert!(answers.contains(r#"class="found""#), "grey digits on the answer page");
    let files = tempfile::tempdir().unwrap();
    let one = dlx(&[&args[..], &["--output", files.path().to_str().unwrap()]].concat(), "");
    assert!(one.status.success(), "{}", text(&one.stderr));
    for k in 1..=4 {
        let svg = std::fs::read_to_string(files.path().join(format!("puzzle-{k:04}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("stroke-dasharray"), "{svg}");
    }
}

/// A slow generation never goes silent: with `--progress` on a stderr that is no terminal, a
/// line after the first second says how far it is (one 25x25 puzzle takes tens of seconds; the
/// run is stopped by SIGINT once the line is out).
#[test]
fn a_slow_generation_reports_progress() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(["generate", "--size", "25", "-n", "1", "--seed", "3", "--threads", "1", "--progress"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1_600));
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    let line =
        stderr.lines().find(|l| l.starts_with("dlx: generating: ")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains("% done (0 of 1 puzzles)") && line.contains(" s so far"), "{line}");
}

/// Killer puzzles as minimal ones all need guessing: by default each takes givens back until
/// logic solves it, or until it is of the level asked (easy here, which no minimal killer puzzle
/// is), and says so in JSON and in the summary; `--minimal` keeps them minimal, and then they
/// need guessing.
#[test]
fn puzzles_take_givens_back_unless_minimal() {
    let args = ["generate", "--killer", "-n", "3", "--seed", "8", "-f", "json", "--stats"];
    let easy = ["--difficulty", "easy", "--max-attempts", "4"];
    for (extra, level) in [(&[][..], None), (&easy[..], Some("easy"))] {
        let out = dlx(&[&args[..], extra].concat(), "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let rows = json_lines(&out.stdout);
        assert_eq!(rows.len(), 3);
        for row in &rows {
            assert_ne!(row["technique"], "guessing", "{row}");
            assert_eq!(row["minimal"], false, "{row}");
            if let Some(level) = level {
                assert_eq!(row["level"], level, "{row}");
            }
            // What `rate` says of the puzzle is what `generate` said.
            let rated = json_lines(&dlx(&["rate", "-f", "json"], row["puzzle"].as_str().unwrap()).stdout);
            assert_eq!(rated[0]["level"], row["level"]);
        }
        assert!(text(&out.stderr).contains("3 with givens added back"), "{}", text(&out.stderr));
    }
    let out = dlx(&[&args[..], &["--minimal"]].concat(), "");
    let rows = json_lines(&out.stdout);
    assert!(rows.iter().all(|r| r["minimal"] == true && r["technique"] == "guessing"), "{rows:?}");
    assert!(text(&out.stderr).contains("0 with givens added back"), "{}", text(&out.stderr));
}

/// Issue 52: `--solution` writes each puzzle's solution beside it in the line form, as QQWing
/// users expect; `dlx solve` reads it back and finds it right, for every rule set; the JSON
/// record's solution is the same; other forms refuse it.
#[test]
fn solutions_beside_the_puzzles() {
    for rules in ["classic", "diagonal,jigsaw", "killer", "odd-even"] {
        let args = ["generate", "-n", "3", "--seed", "9", "--rules", rules, "--size", "6"];
        let lines = dlx(&[&args[..], &["--solution"]].concat(), "");
        assert!(lines.status.success(), "{rules}: {}", text(&lines.stderr));
        let json = json_lines(&dlx(&[&args[..], &["-f", "json"]].concat(), "").stdout);
        let plain = text(&dlx(&args, "").stdout);
        for ((with, record), without) in text(&lines.stdout).lines().zip(&json).zip(plain.lines()) {
            let mut words = with.split(' ');
            let (puzzle, solution) = (words.next().unwrap(), words.next().unwrap());
            assert_eq!(solution, record["solution"].as_str().unwrap(), "{rules}");
            // The rest of the line is the line form's, unchanged.
            let rest: Vec<&str> = words.collect();
            let mut plain_words = without.split(' ');
            assert_eq!(plain_words.next(), Some(puzzle));
            assert_eq!(rest, plain_words.collect::<Vec<_>>(), "{rules}");
        }
        let solved = dlx(&["solve", "-f", "json"], &text(&lines.stdout));
        assert!(solved.status.success(), "{rules}: {}", text(&solved.stderr));
        for answer in json_lines(&solved.stdout) {
            assert_eq!(answer["status"], "unique", "{rules}: {answer}");
            assert_eq!(answer["given_solution"], true, "{rules}: {answer}");
        }
    }
    let out = dlx(&["generate", "--solution", "-f", "grid"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--solution is for the line form"), "{}", text(&out.stderr));
}
