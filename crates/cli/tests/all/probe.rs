//! The defects a hostile probe of the binary found (issue 35), each through the binary: a record's
//! fields dropped, answers that do not read back, a finished count thrown away, searches without
//! a bound, quadratic reading, and reports that did not say where or what.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{bounded, dlx, fixture};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A chain of `n` items: each alone, or with its neighbour (2^(n/2) solutions).
fn chain(n: usize) -> String {
    let mut text: String = (0..n).map(|k| format!("i{k} ")).collect();
    text.push('\n');
    for k in 0..n {
        text += &format!("i{k}\n");
    }
    for k in (0..n).step_by(2) {
        text += &format!("i{k} i{}\n", k + 1);
    }
    text
}

/// Defect 1: every field of a JSON record applies to it, whatever its size: the same answers as the
/// line form; a bad value is an error, as for 81-cell records.
#[test]
fn json_fields_apply_on_every_path() {
    let count = |input: &str| text(&dlx(&["count", "--limit", "2"], input).stdout).trim().to_owned();
    let all = |input: &str| text(&dlx(&["count"], input).stdout).trim().to_owned();
    assert_eq!(all("{\"puzzle\":\"................\",\"variant\":\"diagonal\"}\n"), "48");
    assert_eq!(all("................ variant=diagonal\n"), "48");
    let empty = ".".repeat(36);
    let shaped = dlx(&["solve"], &format!("{{\"puzzle\":\"{empty}\",\"size\":\"3x2\"}}\n"));
    let line = dlx(&["solve", "-f", "json"], &format!("{empty} size=3x2\n"));
    assert_eq!(text(&shaped.stdout), text(&line.stdout));
    // An 81-cell record with a field of the general forms keeps its variant: a windoku puzzle
    // with its boxes as a jigsaw map is unique as windoku only.
    let generated = text(&dlx(&["generate", "-n", "1", "--seed", "3", "--variant", "windoku"], "").stdout);
    // The puzzle's cells alone (its line carries `variant=windoku`).
    let puzzle = generated.lines().next().unwrap().split(' ').next().unwrap();
    let regions: String =
        (0..81u32).map(|c| char::from_digit(c / 27 * 3 + c % 9 / 3 + 1, 10).unwrap()).collect();
    let record = format!("{{\"puzzle\":\"{puzzle} regions={regions}\",\"variant\":\"windoku\"}}\n");
    assert_eq!(count(&record), "1");
    assert_eq!(count(&format!("{puzzle} regions={regions} variant=windoku\n")), "1");
    assert_eq!(count(&format!("{puzzle} regions={regions}\n")), "2+");
    for (bad, says) in [
        ("{\"puzzle\":\"................\",\"variant\":\"bogus\"}", "unknown constraint `bogus`"),
        ("{\"puzzle\":\"................\",\"variant\":7}", "\"variant\" is 7, not a string"),
        ("{\"puzzle\":\"................\",\"varient\":\"diagonal\"}", "unknown field \"varient\""),
        (
            "{\"puzzle\":\"................\",\"solution\":\"123\"}",
            "the given solution has 3 cells, the puzzle 16",
        ),
    ] {
        let out = dlx(&["count"], &format!("{bad}\n"));
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains(says), "{bad}: {}", text(&out.stderr));
    }
}

/// Defect 2: what `solve` writes reads back: a killer grid's JSON answer (whose solution carries
/// the cages again), CSV rows of grids (whose cages hold commas), a windoku puzzle's answer in
/// every form. Random puzzles of every rule kind are in `round_trips.rs`.
#[test]
fn answers_read_back() {
    let killer = "4............... cage=3:r1c2,r1c3\n";
    for format in ["json", "csv", "line"] {
        let first = dlx(&["solve", "-f", format], killer);
        assert!(first.status.success(), "{format}");
        let again = dlx(&["solve", "-f", "json"], &text(&first.stdout));
        assert!(again.status.success(), "{format}: {}", text(&again.stderr));
        assert!(text(&again.stdout).contains("cage=3:r1c2,r1c3"), "{format}: {}", text(&again.stdout));
    }
    let generated = text(&dlx(&["generate", "-n", "2", "--seed", "3", "--variant", "windoku"], "").stdout);
    let unique = |out: &std::process::Output| text(&out.stdout).matches("\"status\":\"unique\"").count();
    let first = dlx(&["solve", "-f", "json"], &generated);
    assert_eq!(unique(&first), 2);
    for format in ["json", "csv"] {
        let answers = text(&dlx(&["solve", "-f", format], &generated).stdout);
        let again = dlx(&["solve", "-f", "json"], &answers);
        assert_eq!(unique(&again), 2, "{format}: the variant travels with the answer:\n{answers}");
        assert!(text(&again.stdout).contains("\"variant\":\"windoku\""), "{format}");
    }
    // Read as classic, the windoku puzzles say as which variant they are unique; that reads
    // back too.
    let puzzles: String = generated.lines().map(|l| format!("{}\n", l.split(' ').next().unwrap())).collect();
    let hinted = text(&dlx(&["solve", "-f", "json"], &puzzles).stdout);
    assert!(hinted.contains("\"unique_as\":\"windoku\""), "{hinted}");
    let again = dlx(&["solve", "-f", "json"], &hinted);
    assert!(again.status.success(), "{}", text(&again.stderr));
    // Counts and ratings of named variants read back as such: each line says its variant.
    let counted = text(&dlx(&["count", "-p"], &generated).stdout);
    assert!(counted.lines().all(|l| l.ends_with(" variant=windoku 1")), "{counted}");
    assert_eq!(counted.lines().count(), 2, "{counted}");
    let rated = text(&dlx(&["rate"], &generated).stdout);
    let again = text(&dlx(&["count"], &rated).stdout);
    assert_eq!(again, "1\n1\n", "{rated}");
}

/// Defect 3: a checkpoint that cannot be written is refused before the search, not after it.
#[test]
fn an_unwritable_checkpoint_is_refused_at_once() {
    // `/proc` takes no new files, even from root.
    let out = dlx(&["xc", "-n", "--checkpoint", "/proc/dlx-checkpoint", &fixture("pentominoes6x10.dlx")], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("cannot write the checkpoint /proc/dlx-checkpoint"), "{stderr}");
    assert!(stderr.contains("nothing was counted"), "{stderr}");
}

/// Defect 3: a count that finishes is printed even when its checkpoint can no longer be written
/// (here its folder turns into a file during the search).
#[test]
fn a_finished_count_is_never_thrown_away() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let checkpoint = folder.join("count.json");
    let child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(["xc", "-n", "-j", "1", "--checkpoint-every", "1000", "--checkpoint"])
        .arg(&checkpoint)
        .arg(fixture("pentominoes6x10.dlx"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written once before the search starts; then the folder goes.
    let start = std::time::Instant::now();
    while !checkpoint.exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "no checkpoint written before the search");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::rename(&folder, dir.path().join("gone")).unwrap();
    std::fs::write(&folder, "a file now").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!((out.status.code(), text(&out.stdout).as_str()), (Some(0), "9356\n"), "{stderr}");
    assert!(stderr.contains("warning: cannot write the checkpoint"), "{stderr}");
    assert!(stderr.contains("the count is complete, and printed"), "{stderr}");
}

/// Defect 4: `--limit` on several threads stops them at once: the figures are those of a few
/// subtrees, not of a window of them searched whole (98,675 nodes before, on a chain of 40 items).
#[test]
fn a_limit_stops_every_thread() {
    let out = dlx(&["xc", "-j", "2", "--limit", "1", "--stats", "-"], &chain(40));
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).lines().count(), 40, "one solution of 40 options");
    let stats = text(&out.stderr);
    let nodes: u64 = stats.split("nodes ").nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
    assert!(nodes < 20_000, "{stats}");
}

/// Defects 5 and 9: generation ends for every seed the probe found hanging or failing, and for a
/// sweep of seeds of each combination of flags; a puzzle that cannot be made is named with its
/// seed.
#[test]
fn generation_is_bounded() {
    let runs: [&[&str]; 7] = [
        &["--size", "9", "--jigsaw", "--killer", "-n", "25", "--seed", "1"],
        &["--size", "12", "--constraint", "anti-knight", "--seed", "106"],
        &["--size", "9", "--jigsaw", "--killer", "--parity", "-n", "3", "--seed", "108"],
        &["--size", "12", "--constraint", "windoku", "--symmetry", "none", "-n", "3", "--seed", "107"],
        &["--size", "6", "--jigsaw", "--constraint", "diagonal", "-n", "40", "--seed", "2"],
        &["--jigsaw", "--killer", "-n", "100", "--seed", "1"],
        &["--size", "8", "--jigsaw", "--parity", "--constraint", "anti-king", "-n", "20", "--seed", "5"],
    ];
    for run in runs {
        let args: Vec<&str> = ["generate", "-q"].iter().chain(run).copied().collect();
        let out = bounded(&args, Duration::from_secs(300)).unwrap_or_else(|| panic!("{args:?} did not end"));
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let n = run.iter().position(|&a| a == "-n").map_or(1, |k| run[k + 1].parse().unwrap());
        let puzzles = text(&out.stdout).lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(puzzles, n, "{args:?}");
    }
}

/// Defect 6: one option of many items is read in linear time (it took minutes at a million items).
#[test]
fn a_long_option_is_read_in_linear_time() {
    let n = 1_000_000;
    let mut items: Vec<String> = (0..n).map(|k| format!("i{k}")).collect();
    let declared = items.join(" ");
    items.reverse();
    let problem = format!("{declared}\n{}\n", items.join(" "));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.dlx");
    std::fs::write(&file, problem).unwrap();
    // 1.8 s here; over two minutes before.
    let out = bounded(&["xc", "-n", file.to_str().unwrap()], Duration::from_secs(60)).expect("read in time");
    assert_eq!(text(&out.stdout), "1\n");
}

/// Defects 7, 8 and 10: a 16x16 `0`-`F` puzzle with no `0` given, beside its solution; a bad
/// digit in a block under `# size:`; a block of another size without one; `e` marks with
/// `--constraint`.
#[test]
fn records_are_read_by_their_own_convention_and_errors_say_where() {
    let one = "123456789ABCDEFG";
    let zero = "0123456789ABCDEF";
    let generated =
        text(&dlx(&["generate", "--size", "16", "-n", "1", "--seed", "4", "-f", "json"], "").stdout);
    let value: serde_json::Value = serde_json::from_str(&generated).unwrap();
    let shift = |s: &str| -> String {
        s.chars().map(|c| one.find(c).map_or('.', |k| zero.as_bytes()[k] as char)).collect()
    };
    let puzzle = shift(value["puzzle"].as_str().unwrap().split(' ').next().unwrap()).replace('0', ".");
    let solution = shift(value["solution"].as_str().unwrap());
    assert!(!puzzle.contains('0') && solution.contains('0'));
    let out = dlx(&["solve", "-f", "json"], &format!("{puzzle} {solution}\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"given_solution\":true"));

    let block = "# size: 2x2\n1 2 | 3 4\n3 x | 1 2\n----+----\n. . | . .\n. . | . .\n";
    let out = dlx(&["solve"], block);
    assert!(
        text(&out.stderr).contains("<stdin>:3:3: `x` is not a digit of a 4x4 grid"),
        "{}",
        text(&out.stderr)
    );
    let out = dlx(&["solve"], "1 2 3 4\n3 4 1 2\n. . . .\n. . . .\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("16 cells, expected 81 (as many as a 4x4 grid: give --size 4"), "{stderr}");

    let even = "e.e.e.e..........................................................................";
    let out = dlx(&["count", "--constraint", "anti-knight", "--limit", "3"], &format!("{even}\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "3+\n");
}

/// Defect 11: totals past 2^64 - 1 were errors, or 18446744073709551615. Now shards and pieces
/// add up exactly however large (counts of the memo's size, past 2^128 too).
#[test]
fn totals_add_up_exactly() {
    let part = |shard: &str, solutions: u128| {
        let out = dlx(&["xc", "-n", "--format", "json", "--shard", shard, &fixture("queens8.dlx")], "");
        let mut value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        value["solutions"] = serde_json::to_value(solutions).unwrap();
        value.to_string()
    };
    let out = dlx(&["merge"], &format!("{}\n{}\n", part("0/2", u128::from(u64::MAX)), part("1/2", 2)));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "18446744073709551617\n");
    let out = dlx(&["merge"], &format!("{}\n{}\n", part("0/2", u128::MAX - 1), part("1/2", 2)));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "340282366920938463463374607431768211456\n", "2^128");

    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("queens.json");
    let args = ["xc", "-n", "--checkpoint", checkpoint.to_str().unwrap(), &fixture("queens8.dlx")];
    let first = dlx(&args, "");
    assert_eq!(text(&first.stdout), "92\n");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    let pieces = value["pieces"].as_u64().unwrap();
    let done = value["done"].as_array_mut().unwrap();
    for piece in done.iter_mut() {
        piece[1] = serde_json::to_value(u128::MAX / 2).unwrap();
    }
    let want: dlx_engine::Count = done.iter().map(|_| dlx_engine::Count::from(u128::MAX / 2)).sum();
    assert!(done.len() > 2 && want > u128::MAX);
    std::fs::write(&checkpoint, value.to_string()).unwrap();
    let out = dlx(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{want}\n"), "the pieces' sum, exactly");
    // Defect 13: a piece past the cut is named as such.
    value["done"][0][0] = (pieces + 3).into();
    std::fs::write(&checkpoint, value.to_string()).unwrap();
    let stderr = text(&dlx(&args, "").stderr);
    assert!(
        stderr.contains(&format!(
            "piece {} as counted, but the search has pieces 0 to {}",
            pieces + 3,
            pieces - 1
        )),
        "{stderr}"
    );
}

/// Defect 12: an option that repeats the item line is reported once, with how many more do.
#[test]
fn a_repeated_item_line_is_reported_once() {
    let mut problem = String::from("A B\n");
    for _ in 0..1_000 {
        problem.push_str("A B\n");
    }
    let out = dlx(&["xc", "-n"], &problem);
    assert_eq!(text(&out.stdout), "1000\n");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "<stdin>:2: warning: this option repeats the item line (and 999 more options after it)"
        ),
        "{stderr}"
    ); // Options skipped for want of a primary item: ten named, the rest counted.
    let mut problem = String::from("A | x\nA\n");
    for _ in 0..1_000 {
        problem.push_str("x\n");
    }
    let stderr = text(&dlx(&["xc", "-n"], &problem).stderr);
    assert_eq!(stderr.lines().count(), 11, "{stderr}");
    assert!(stderr.ends_with("<stdin>: 990 more options skipped: they have no primary item\n"), "{stderr}");
}

/// Defect 13: reports that say what is wrong, and where.
#[test]
fn reports_say_what_and_where() {
    let out = dlx(&["generate", "--max-attempts", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--max-attempts"), "{}", text(&out.stderr));
    let out = dlx(&["solve"], "4............... size=2x2 size=4\n");
    assert!(
        text(&out.stderr).contains("<stdin>:1:27: `size=` is given twice, differently"),
        "{}",
        text(&out.stderr)
    );
    let out = dlx(&["solve"], "4............... cage=3:r1c2,r5c3\n");
    assert!(
        text(&out.stderr).contains("<stdin>:1:30: cage `3:r1c2,r5c3`: `r5c3` is not a cell of a 4x4 grid"),
        "{}",
        text(&out.stderr)
    );
    let out = dlx(&["generate", "--difficulty", "expert", "--max-attempts", "1", "--seed", "1"], "");
    assert!(text(&out.stderr).contains("in 1 attempt"), "{}", text(&out.stderr));
}
