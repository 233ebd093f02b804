//! End-to-end tests of `dlx xc` through the built binary.

use crate::common;
use std::collections::BTreeSet;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(common::fixture(name))
}

fn dlx(args: &[&str], stdin: Option<&str>) -> Output {
    common::dlx(args, stdin.unwrap_or(""))
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Splits `dlx xc` output into solutions, each a set of options, each a set of item names.
fn solutions(text: &str) -> Vec<BTreeSet<BTreeSet<String>>> {
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| block.lines().map(|line| line.split(' ').map(str::to_owned).collect()).collect())
        .collect()
}

/// The options of a `.dlx` text, each as a set of names, and its primary and secondary items.
fn read_problem(text: &str) -> (Vec<String>, Vec<String>, BTreeSet<BTreeSet<String>>) {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('|'));
    let items = lines.next().unwrap();
    let (primary, secondary) = items.split_once('|').unwrap_or((items, ""));
    let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let options = lines.map(|l| l.split_whitespace().map(str::to_owned).collect()).collect();
    (words(primary), words(secondary), options)
}

/// Checks that each printed solution is an exact cover made of the problem's options.
fn assert_exact_covers(problem_text: &str, printed: &[BTreeSet<BTreeSet<String>>]) {
    let (primary, secondary, options) = read_problem(problem_text);
    for solution in printed {
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        for option in solution {
            assert!(options.contains(option), "{option:?} is not an option of the problem");
            for item in option {
                *seen.entry(item).or_default() += 1;
            }
        }
        for p in &primary {
            assert_eq!(seen.get(p.as_str()), Some(&1), "primary {p}");
        }
        for s in &secondary {
            assert!(seen.get(s.as_str()).copied().unwrap_or(0) <= 1, "secondary {s}");
        }
    }
}

#[test]
fn prints_knuths_solution() {
    let out = dlx(&["xc", fixture("knuth7.dlx").to_str().unwrap()], None);
    assert!(out.status.success());
    let printed = solutions(&stdout(&out));
    let want: BTreeSet<BTreeSet<String>> =
        ["A D", "B G", "C E F"].iter().map(|o| o.split(' ').map(str::to_owned).collect()).collect();
    assert_eq!(printed, vec![want]);
}

#[test]
fn prints_every_solution_once_and_each_is_an_exact_cover() {
    let text = std::fs::read_to_string(fixture("queens8.dlx")).unwrap();
    let out = dlx(&["xc", "-"], Some(&text));
    assert!(out.status.success());
    let printed = solutions(&stdout(&out));
    assert_eq!(printed.len(), 92);
    assert_eq!(printed.iter().collect::<BTreeSet<_>>().len(), 92, "no solution twice");
    assert_exact_covers(&text, &printed);
}

#[test]
fn counts_and_limits() {
    let q8 = fixture("queens8.dlx");
    let q8 = q8.to_str().unwrap();
    assert_eq!(stdout(&dlx(&["xc", "--count", q8], None)), "92\n");
    // A count the limit cut short says so, as `dlx count` does; a whole count does not.
    assert_eq!(stdout(&dlx(&["xc", "--count", "--limit", "10", q8], None)), "10+\n");
    assert_eq!(stdout(&dlx(&["xc", "--count", "--limit", "1000", q8], None)), "92\n");
    assert_eq!(stdout(&dlx(&["xc", "--count", "--limit", "93", q8], None)), "92\n");
    assert_eq!(solutions(&stdout(&dlx(&["xc", "--limit", "5", q8], None))).len(), 5);
    assert_eq!(stdout(&dlx(&["xc", "--limit", "0", q8], None)), "");
    assert_eq!(stdout(&dlx(&["xc", "--count", fixture("langford8.dlx").to_str().unwrap()], None)), "300\n");
    assert_eq!(
        stdout(&dlx(&["xc", "--count", fixture("pentominoes3x20.dlx").to_str().unwrap()], None)),
        "8\n"
    );
}

#[test]
fn seeds_reorder_but_keep_the_solutions() {
    let q8 = fixture("queens8.dlx");
    let q8 = q8.to_str().unwrap();
    let plain = stdout(&dlx(&["xc", q8], None));
    let seeded = stdout(&dlx(&["xc", "--seed", "7", q8], None));
    assert_eq!(seeded, stdout(&dlx(&["xc", "--seed", "7", q8], None)), "same seed, same output");
    assert_ne!(plain, seeded);
    let set = |t: &str| solutions(t).into_iter().collect::<BTreeSet<_>>();
    assert_eq!(set(&plain), set(&seeded));
    assert_eq!(stdout(&dlx(&["xc", "--count", "--seed", "99", q8], None)), "92\n");
}

#[test]
fn tie_break_rules_find_the_same_solutions() {
    let nodes = |err: &[u8]| -> u64 {
        let err = std::str::from_utf8(err).unwrap();
        err.split(", ").find_map(|part| part.strip_prefix("nodes ")).unwrap().parse().unwrap()
    };
    for name in ["queens8.dlx", "langford8.dlx", "pentominoes3x20.dlx"] {
        let path = fixture(name);
        let path = path.to_str().unwrap();
        let earliest = dlx(&["xc", "--stats", path], None);
        let last = dlx(&["xc", "--stats", "--tie-break", "last-conflict", path], None);
        assert_eq!(earliest.status.code(), Some(0));
        assert_eq!(last.status.code(), Some(0));
        let set = |o: &Output| solutions(&stdout(o)).into_iter().collect::<BTreeSet<_>>();
        assert_eq!(set(&earliest), set(&last), "{name}");
        // The rules branch differently on these problems: the search trees differ.
        assert_ne!(nodes(&earliest.stderr), nodes(&last.stderr), "{name}");
    }
    let bad = dlx(&["xc", "--tie-break", "latest", fixture("queens8.dlx").to_str().unwrap()], None);
    assert_eq!(bad.status.code(), Some(2));
}

/// `--branch`: every rule prints the same solutions and counts, on one thread and two, in
/// shards and with a checkpoint; `sharp` branches on the `#` items (a smaller tree than MRV's
/// here, DLX2-SHARP's); what branches by its own rule is refused with a sentence.
#[test]
fn branching_rules_find_the_same_solutions() {
    let nodes = |err: &[u8]| -> u64 {
        let err = std::str::from_utf8(err).unwrap();
        err.split(", ").find_map(|part| part.strip_prefix("nodes ")).unwrap().parse().unwrap()
    };
    // Six queens, the rows' items named `#r1` ... after the columns'.
    let queens = std::fs::read_to_string(fixture("queens6-sharp.dlx")).unwrap();
    let mrv = dlx(&["xc", "--stats"], Some(&queens));
    let sharp = dlx(&["xc", "--stats", "--branch", "sharp"], Some(&queens));
    assert_eq!((nodes(&mrv.stderr), nodes(&sharp.stderr)), (110, 104), "DLX2's 111 and DLX2-SHARP's 105");
    let set = |o: &Output| solutions(&stdout(o)).into_iter().collect::<BTreeSet<_>>();
    assert_eq!(set(&mrv), set(&sharp));
    let path = fixture("pentominoes3x20.dlx");
    let path = path.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for rule in ["mrv", "sharp", "wdeg", "frb"] {
        let listed = dlx(&["xc", "--branch", rule, "-j", "2", path], None);
        assert_eq!(listed.status.code(), Some(0), "{rule}");
        assert_eq!(solutions(&stdout(&listed)).len(), 8, "{rule}");
        assert_exact_covers(&std::fs::read_to_string(path).unwrap(), &solutions(&stdout(&listed)));
        for threads in ["1", "2"] {
            let counted = dlx(&["xc", "--count", "--branch", rule, "-j", threads, path], None);
            assert_eq!(stdout(&counted), "8\n", "{rule} on {threads}");
        }
        let parts: Vec<String> = (0..3)
            .map(|k| {
                stdout(&dlx(&["xc", "--count", "--branch", rule, "--shard", &format!("{k}/3"), path], None))
            })
            .collect();
        let total: u64 = parts.iter().map(|p| p.trim().parse::<u64>().unwrap()).sum();
        assert_eq!(total, 8, "{rule} in shards");
        let file = dir.path().join(format!("{rule}.json"));
        let file = file.to_str().unwrap();
        let resumable = dlx(&["xc", "--count", "--branch", rule, "--checkpoint", file, path], None);
        assert_eq!(stdout(&resumable), "8\n", "{rule} with a checkpoint");
        assert!(std::fs::read_to_string(file).unwrap().contains(&format!("\"branch\":\"{rule}\"")));
    }
    for (args, why) in [
        (&["--tie-break", "last-conflict"][..], "--tie-break last-conflict breaks the ties of --branch mrv"),
        (&["--count", "--memo", "always"][..], "--memo always"),
        (&["--count", "--zdd", "-"][..], "the ZDD is made by the memo"),
        (&["--best", "2"][..], "DLX5's own choice"),
    ] {
        let out = dlx(&[&["xc", "--branch", "wdeg"][..], args, &[path]].concat(), None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--branch wdeg cannot be used here") && err.contains(why), "{err}");
    }
    let bad = dlx(&["xc", "--branch", "dom", path], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("[possible values: mrv, sharp, wdeg, frb]"));
}

#[test]
fn an_unsolvable_problem_says_so_on_stderr() {
    // Item C is in no option: nothing covers it.
    let unsolvable = Some("A B C\nA B\nA\nB\n");
    let out = dlx(&["xc"], unsolvable);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "dlx: <stdin>: no solution\n");
    let out = dlx(&["xc", "--count"], unsolvable);
    assert_eq!((stdout(&out).as_str(), out.stderr.is_empty()), ("0\n", true));
    // A limit of zero asks for no search at all: refused, rather than look like "no solution".
    let out = dlx(&["xc", "--limit", "0"], Some("A\nA\n"));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn stats_go_to_stderr() {
    let out = dlx(&["xc", "--count", "--stats", fixture("knuth7.dlx").to_str().unwrap()], None);
    assert_eq!(stdout(&out), "1\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("solutions 1, nodes "), "{err}");
    assert!(err.contains("updates ") && err.contains(" s\n"), "{err}");
}

#[test]
fn malformed_input_says_where_and_exits_2() {
    let path = fixture("bad-unknown-item.dlx");
    let out = dlx(&["xc", path.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with("bad-unknown-item.dlx:4:3: unknown item `y`\n"), "{err}");
    assert!(out.stdout.is_empty());

    let out = dlx(&["xc"], Some("A B\nA B:blue\n"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "dlx: <stdin>:2:3: `B:blue`: only secondary items take colors\n"
    );
    for nasty in ["", "|", "\n\n\n", "A\u{0}B\nA\n", "A A\n", "\u{feff}A\nA\n", "A | | \n"] {
        let out = dlx(&["xc", "--count"], Some(nasty));
        assert!(matches!(out.status.code(), Some(0) | Some(2)), "{nasty:?}: {:?}", out.status);
    }
}

#[test]
fn missing_file_is_an_error_not_a_panic() {
    // Worded as `solve` words it: the file first, as a position is.
    let out = dlx(&["xc", "/no/such/file.dlx"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("dlx: /no/such/file.dlx: cannot read: "), "{err}");
}

#[test]
fn bad_arguments_exit_2() {
    let out = dlx(&["xc", "--limit", "many"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(["xc", fixture("pentominoes6x10.dlx").to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Colors: solved, counted, printed as written, with cleansings in the statistics.
#[test]
fn colors_are_solved_and_printed_as_written() {
    let path = fixture("knuth-colors.dlx");
    let out = dlx(&["xc", "--stats", path.to_str().unwrap()], None);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "A C X:1 Y:1\nB X:1\n");
    let stats = String::from_utf8(out.stderr).unwrap();
    assert!(stats.starts_with("solutions 1, nodes ") && stats.contains(", cleansings 5, "), "{stats}");
    assert_eq!(stdout(&dlx(&["xc", "--count"], Some("A B | x\nA x:red\nB x:red\nB x:blue\n"))), "1\n");
    // DLX2's whole example: its option without a primary item is skipped, and the warning names
    // its line.
    let whole = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";
    let out = dlx(&["xc"], Some(whole));
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "A C X:1 Y:1\nB X:1\n"));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "dlx: <stdin>:4: option skipped: it has no primary item\n"
    );
    // Colors go on secondary items only.
    let bad = dlx(&["xc"], Some("A B | x\nA:red x\n"));
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(bad.stderr).unwrap(),
        "dlx: <stdin>:2:1: `A:red`: only secondary items take colors\n"
    );
}

/// Multiplicities: DLX3's example solved and printed as written, the 7 x 7 line sums counted, a
/// seeded count the same, and bad bounds refused where they stand.
#[test]
fn multiplicities_are_solved_and_counted() {
    let path = fixture("knuth-multiplicities.dlx");
    let out = dlx(&["xc", "--stats", path.to_str().unwrap()], None);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "A C X:1 Y:1\nB X:1\nC Y:1\n");
    let stats = String::from_utf8(out.stderr).unwrap();
    assert!(stats.starts_with("solutions 1, nodes 5, updates 14, cleansings 7, "), "{stats}");
    let sums = fixture("line-sums7.dlx");
    assert_eq!(stdout(&dlx(&["xc", "--count", sums.to_str().unwrap()], None)), "3110940\n");
    assert_eq!(stdout(&dlx(&["xc", "--count", "--limit", "1000", sums.to_str().unwrap()], None)), "1000+\n");
    // Two of four, once each: six solutions, each of two options.
    let two = "2|A | w x y z\nA w\nA x\nA y\nA z\n";
    assert_eq!(stdout(&dlx(&["xc", "--count", "--seed", "3"], Some(two))), "6\n");
    let printed = solutions(&stdout(&dlx(&["xc"], Some(two))));
    assert_eq!(printed.len(), 6);
    assert!(printed.iter().all(|s| s.len() == 2), "{printed:?}");
    let bad = dlx(&["xc"], Some("A 3:2|B\nA B\n"));
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(bad.stderr).unwrap(),
        "dlx: <stdin>:1:3: `3:2|B`: the lower bound exceeds the upper one\n"
    );
}

/// Threads: the same output, byte for byte, and the same statistics (but the time) as one
/// thread, listing and counting, for problems large enough to be shared out and for small ones;
/// a seed goes with one thread only.
#[test]
fn threads_print_what_one_thread_prints() {
    let q10 = std::env::temp_dir().join(format!("dlx-xc-threads-{}.dlx", std::process::id()));
    // 10 queens: large enough to be cut into subtrees.
    let mut text = (0..10).map(|i| format!("r{i} c{i}")).collect::<Vec<_>>().join(" ") + " |";
    for d in 0..19 {
        text += &format!(" a{d} b{d}");
    }
    text.push('\n');
    for r in 0..10 {
        for c in 0..10 {
            text += &format!("r{r} c{c} a{} b{}\n", r + c, r + 9 - c);
        }
    }
    std::fs::write(&q10, text).unwrap();
    let files = [
        q10.clone(),
        fixture("pentominoes3x20.dlx"),
        fixture("knuth7.dlx"),
        fixture("knuth-colors.dlx"),
        fixture("knuth-multiplicities.dlx"),
    ];
    for file in &files {
        let path = file.to_str().unwrap();
        for args in [&["xc", "--stats"][..], &["xc", "--count", "--stats"], &["xc", "--limit", "5"]] {
            let one = dlx(&[args, &["--threads", "1", path]].concat(), None);
            let two = dlx(&[args, &["--threads", "2", path]].concat(), None);
            assert!(one.status.success() && two.status.success(), "{path} {args:?}");
            assert_eq!(stdout(&one), stdout(&two), "{path} {args:?}");
            let stats = |o: &Output| {
                String::from_utf8_lossy(&o.stderr).split(", time").next().unwrap_or("").to_owned()
            };
            assert_eq!(stats(&one), stats(&two), "{path} {args:?}");
        }
    }
    assert_eq!(stdout(&dlx(&["xc", "--count", "--threads", "2", q10.to_str().unwrap()], None)), "724\n");
    let bad = dlx(&["xc", "--seed", "1", "--threads", "2", q10.to_str().unwrap()], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--seed searches on one thread"));
    std::fs::remove_file(&q10).unwrap();
}

/// Progress: with --progress and stderr not a terminal, a line after the first second (and every
/// ten), with the fraction done; nothing with --quiet; never on stdout.
#[test]
fn progress_lines_for_logs() {
    // A search of a few seconds on one thread (the engine is optimized in tests too).
    let pentominoes = fixture("pentominoes6x10.dlx");
    let out = dlx(&["xc", "--count", "--progress", "-j", "1", pentominoes.to_str().unwrap()], None);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "9356\n");
    let log = String::from_utf8(out.stderr).unwrap();
    let first = log.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("dlx: ") && first.contains("% done, ") && first.contains(" nodes/s, "),
        "{log}"
    );
    let quiet = dlx(&["xc", "--count", "--quiet", fixture("knuth7.dlx").to_str().unwrap()], None);
    assert!(quiet.stderr.is_empty());
    let both =
        dlx(&["xc", "--count", "--quiet", "--progress", fixture("knuth7.dlx").to_str().unwrap()], None);
    assert_eq!(both.status.code(), Some(2));
}

/// Domino tilings of a `rows` x `cols` board as `.dlx` text.
fn dominoes(rows: usize, cols: usize) -> String {
    let cell = |r: usize, c: usize| format!("r{r}c{c}");
    let mut text: Vec<String> =
        vec![(0..rows).flat_map(|r| (0..cols).map(move |c| cell(r, c))).collect::<Vec<_>>().join(" ")];
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                text.push(format!("{} {}", cell(r, c), cell(r, c + 1)));
            }
            if r + 1 < rows {
                text.push(format!("{} {}", cell(r, c), cell(r + 1, c)));
            }
        }
    }
    text.join("\n") + "\n"
}

/// `xc --count` takes the memo for tilings by itself and counts exactly past 2^64 (the published
/// count of 14x14 domino tilings, OEIS A004003) and past 2^256 (200x4, about 2^300, the count of
/// a transfer matrix row by row: the engine's example `dominoes` and a throwaway Python one
/// agree); `--memo never` counts without it; JSON records, shards that `dlx merge` adds up and a
/// checkpoint's pieces hold them exactly; a table of one kilobyte leaves subproblems out, says
/// so, and still counts right.
#[test]
fn the_memo_counts_tilings_exactly_past_2_to_the_64() {
    let out = dlx(&["xc", "-n", "--memo", "never", "--limit", "3"], Some(&dominoes(14, 14)));
    assert_eq!(stdout(&out), "3+\n");
    let big = "2525031577688464488804307479268415358250636716475511790390323454373612463294233511639976145";
    for (rows, cols, want) in [(14, 14, "112202208776036178000000"), (200, 4, big)] {
        let line = format!("{want}\n");
        let out = dlx(&["xc", "--count"], Some(&dominoes(rows, cols)));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(stdout(&out), line);
        // On every thread, in JSON, in shards that `dlx merge` adds up, and in a checkpoint's
        // pieces: exact all the same.
        let out = dlx(&["xc", "-n", "-j", "2", "-f", "json"], Some(&dominoes(rows, cols)));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout(&out).contains(&format!(r#""solutions":{want},"#)), "{}", stdout(&out));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("d.dlx");
        std::fs::write(&file, dominoes(rows, cols)).unwrap();
        let file = file.to_str().unwrap();
        let parts: String = (0..3)
            .map(|k| stdout(&dlx(&["xc", "-n", "-f", "json", "--shard", &format!("{k}/3"), file], None)))
            .collect();
        let merged = dlx(&["merge"], Some(&parts));
        assert_eq!(stdout(&merged), line, "{}", String::from_utf8_lossy(&merged.stderr));
        let merged = dlx(&["merge", "-f", "json"], Some(&parts));
        assert!(stdout(&merged).contains(&format!(r#""solutions":{want},"#)), "{}", stdout(&merged));
        let checkpoint = dir.path().join("d.json");
        for _ in 0..2 {
            // Written, then read back and resumed from.
            let out = dlx(&["xc", "-n", "--checkpoint", checkpoint.to_str().unwrap(), file], None);
            assert_eq!(stdout(&out), line, "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let out = dlx(&["xc", "-n", "--memo", "always", "--memo-memory", "1K", "--stats"], Some(&dominoes(6, 8)));
    assert_eq!(stdout(&out), "167089\n");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(stderr.contains("memo:") && !stderr.contains(" 0 left out"), "{stderr}");
    let out = dlx(&["xc", "-n", "--memo", "sometimes"], Some(&dominoes(2, 2)));
    assert_eq!(out.status.code(), Some(2));
}

/// The memo counts problems with multiplicities too, and `auto` takes it by itself where it pays:
/// the 0-1 matrices of 7x7 whose lines sum to 2 (3,110,940, OEIS A001499), on one thread and on
/// two, and in shards that `dlx merge` adds up, as `--memo never` counts them; `--zdd` refuses
/// such a problem.
#[test]
fn the_memo_counts_problems_with_multiplicities() {
    let sums = fixture("line-sums7.dlx");
    let sums = sums.to_str().unwrap();
    for threads in ["1", "2"] {
        let out = dlx(&["xc", "-n", "--stats", "-j", threads, sums], None);
        assert_eq!(stdout(&out), "3110940\n", "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("memo:"), "{out:?}");
    }
    let out = dlx(&["xc", "-n", "--stats", "--memo", "never", sums], None);
    assert_eq!(stdout(&out), "3110940\n");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("memo:"), "{out:?}");
    let parts: String = (0..4)
        .map(|k| stdout(&dlx(&["xc", "-n", "-f", "json", "--shard", &format!("{k}/4"), sums], None)))
        .collect();
    assert_eq!(stdout(&dlx(&["merge"], Some(&parts))), "3110940\n");
    let dir = tempfile::tempdir().unwrap();
    let zdd = dir.path().join("sums.zdd");
    let out = dlx(&["xc", "-n", "--zdd", zdd.to_str().unwrap(), sums], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("without multiplicities"), "{out:?}");
    assert!(!zdd.exists());
}

/// `--sample N` prints N solutions drawn at random, each one of the problem's, the same for the
/// same `--seed`; tilings past 2^64 too; a problem with multiplicities is refused, and so is
/// `--sample` with `--count`.
#[test]
fn samples_are_solutions_and_follow_the_seed() {
    let queens = fixture("queens8.dlx");
    let queens = queens.to_str().unwrap();
    let every = solutions(&stdout(&dlx(&["xc", queens], None)));
    let drawn = dlx(&["xc", "--sample", "40", "--seed", "3", queens], None);
    assert!(drawn.status.success(), "{}", String::from_utf8_lossy(&drawn.stderr));
    let listed = solutions(&stdout(&drawn));
    assert_eq!(stdout(&drawn).split("\n\n").count(), 40);
    assert!(listed.iter().all(|s| every.contains(s)), "each draw is a solution");
    assert!(listed.len() > 20, "40 draws from 92 solutions repeat few: {}", listed.len());
    assert_eq!(stdout(&dlx(&["xc", "--sample", "40", "--seed", "3", queens], None)), stdout(&drawn));
    assert_ne!(stdout(&dlx(&["xc", "--sample", "40", "--seed", "4", queens], None)), stdout(&drawn));
    let tiles = dlx(&["xc", "--sample", "2", "--stats"], Some(&dominoes(14, 14)));
    assert!(tiles.status.success(), "{}", String::from_utf8_lossy(&tiles.stderr));
    assert_eq!(stdout(&tiles).split("\n\n").count(), 2);
    assert_eq!(stdout(&tiles).lines().filter(|l| !l.is_empty()).count(), 2 * 98, "98 dominoes each");
    let bounded = fixture("knuth-multiplicities.dlx");
    let out = dlx(&["xc", "--sample", "2", bounded.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("without multiplicities"), "{out:?}");
    assert_eq!(dlx(&["xc", "--sample", "2", "-n", queens], None).status.code(), Some(2));
}

/// `--zdd FILE` writes the ZDD of all solutions in ZDDREAD's text, which counts the tilings again
/// here (each node's paths to the unit sink, added up from the bottom); `--by-size` gives the
/// solutions of each size; `--fewest` and `--most` one solution of each extreme; a problem that
/// is not on bit sets is refused.
#[test]
fn the_zdd_counts_sizes_and_extremes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d6.zdd");
    let out = dlx(&["xc", "-n", "--zdd", path.to_str().unwrap()], Some(&dominoes(6, 6)));
    assert_eq!(stdout(&out), "6728\n", "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut paths: std::collections::HashMap<u64, u128> = [(0, 0), (1, 1)].into();
    let mut root = 0;
    for line in text.lines() {
        // `ID: (~V?LO:HI)`, hexadecimal but for V.
        let (id, rest) = line.split_once(": (~").unwrap();
        let (v, rest) = rest.split_once('?').unwrap();
        let (lo, hi) = rest.trim_end_matches(')').split_once(':').unwrap();
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let (id, lo, hi) = (hex(id), hex(lo), hex(hi));
        assert!(lo < id && hi < id, "{line}");
        paths.insert(id, paths[&lo] + paths[&hi]);
        if v == "0" {
            root = id;
        } else {
            assert!((1..=120).contains(&v.parse::<u32>().unwrap()), "{line}: 120 options");
        }
    }
    assert_eq!(paths[&root], 6728);

    let problem = "A B C\nA B\nC\nA\nB C\nA B C\n";
    assert_eq!(stdout(&dlx(&["xc", "-n", "--by-size"], Some(problem))), "3\n1: 1\n2: 2\n");
    // (Lines after a JSON record would break it.)
    assert_eq!(dlx(&["xc", "-n", "--by-size", "-f", "json"], Some(problem)).status.code(), Some(2));
    assert_eq!(stdout(&dlx(&["xc", "--fewest"], Some(problem))), "A B C\n");
    assert_eq!(solutions(&stdout(&dlx(&["xc", "--most"], Some(problem)))).first().unwrap().len(), 2);
    let bounded = fixture("knuth-multiplicities.dlx");
    let out = dlx(&["xc", "-n", "--by-size", bounded.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bit sets"), "{out:?}");
    assert_eq!(dlx(&["xc", "--zdd", "x.zdd"], Some(problem)).status.code(), Some(2), "--zdd needs --count");
    // A diagram larger than --memo-memory: status 1, said, and no file.
    let small = dir.path().join("small.zdd");
    let out =
        dlx(&["xc", "-n", "--memo-memory", "1K", "--zdd", small.to_str().unwrap()], Some(&dominoes(8, 8)));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("more memory than --memo-memory"), "{out:?}");
    assert!(!small.exists() && out.stdout.is_empty());
}

/// Wang tiles (as the engine's `wang` example builds them) on a board of `n` x `n`, as `.dlx`.
fn wang(n: usize) -> String {
    let mut text: String = (0..n * n).map(|k| format!("r{}c{} ", k / n, k % n)).collect();
    text.push('|');
    for r in 0..n {
        for c in 0..n {
            if r + 1 < n {
                text += &format!(" h{}_{c}", r + 1);
            }
            if c + 1 < n {
                text += &format!(" v{r}_{}", c + 1);
            }
        }
    }
    text.push('\n');
    for r in 0..n {
        for c in 0..n {
            for t in 1u8..15 {
                let side = |k: u8| (t >> k) & 1;
                text += &format!("r{r}c{c}");
                if r > 0 {
                    text += &format!(" h{r}_{c}:{}", side(0));
                }
                if c + 1 < n {
                    text += &format!(" v{r}_{}:{}", c + 1, side(1));
                }
                if r + 1 < n {
                    text += &format!(" h{}_{c}:{}", r + 1, side(2));
                }
                if c > 0 {
                    text += &format!(" v{r}_{c}:{}", side(3));
                }
                text.push('\n');
            }
        }
    }
    text
}

/// A count past 2^128 (Wang tiles on 8x8, with colors) is printed exactly, in a line and in
/// JSON; on 5x5 and 8x8 the counts are the transfer matrix's (the engine's `wang` example
/// prints both: 4425607995900383327038065652556133764210 on 8x8).
#[test]
fn a_count_past_2_to_the_128_is_exact() {
    assert_eq!(stdout(&dlx(&["xc", "-n"], Some(&wang(5)))), "41207338897550160\n");
    let out = dlx(&["xc", "-n"], Some(&wang(8)));
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out), "4425607995900383327038065652556133764210\n");
    let out = dlx(&["xc", "-n", "-f", "json", "-j", "2"], Some(&wang(8)));
    assert!(stdout(&out).contains(r#""solutions":4425607995900383327038065652556133764210,"#), "{out:?}");
}

/// `dlx pre` writes Knuth's first example reduced as DLX-PRE writes it (`v9`), each option with
/// its original number, and a summary on stderr; the output reads back as a problem.
#[test]
fn pre_writes_the_reduced_problem_with_origins() {
    let example = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
    let out = dlx(&["pre"], Some(example));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout(&out), "A B E\nE\n| (from 1)\nA\n| (from 4)\nB\n| (from 5)\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("removed 3 of 6 options and 4 of 7 items in 3 rounds, "), "{err}");
    let again = dlx(&["xc", "-n"], Some(&stdout(&out)));
    assert_eq!(stdout(&again), "1\n");

    // One round, quietly.
    let out = dlx(&["pre", "--rounds", "1", "-q"], Some(example));
    assert_eq!(stdout(&out).lines().next(), Some("A B C E | G"));
    assert!(out.stderr.is_empty());

    // Multiplicities: refused, naming the file and the item, exit 2.
    let out = dlx(&["pre"], Some("2:3|a b\na\na b\n"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>: item a may be covered 2 to 3 times"), "{err}");

    // A bad file: where and what, exit 2.
    let out = dlx(&["pre"], Some("a b\na c\n"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("<stdin>:2:3"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `dlx xc --preprocess` prints the same solutions as without, in the original options (the
/// 3x20 pentominoes lose options to preprocessing), counts the same on every thread, and says
/// why there is none when an item is left without options.
#[test]
fn xc_preprocess_prints_the_original_options() {
    let path = fixture("pentominoes3x20.dlx");
    let path = path.to_str().unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let plain = dlx(&["xc", path], None);
    let reduced = dlx(&["xc", "--preprocess", "--stats", path], None);
    assert!(reduced.status.success());
    let (a, b) = (solutions(&stdout(&plain)), solutions(&stdout(&reduced)));
    assert_eq!(b.len(), 8);
    assert_exact_covers(&text, &b);
    assert_eq!(a.into_iter().collect::<BTreeSet<_>>(), b.into_iter().collect::<BTreeSet<_>>());
    let err = String::from_utf8_lossy(&reduced.stderr);
    assert!(err.starts_with("preprocessing: removed "), "{err}");
    for threads in ["1", "2"] {
        let out = dlx(&["xc", "-n", "--preprocess", "-j", threads, path], None);
        assert_eq!(stdout(&out), "8\n");
    }

    let out = dlx(&["xc", "--preprocess"], Some("a b c | x\na x\nb x\nc\n"));
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no solution (preprocessing left item a without options)"), "{err}");
}

/// A problem with costs (`|n`, as Knuth's DLX5 reads them): `dlx xc` prints the cheapest solution
/// after its cost, `--best K` the K cheapest, cheapest first (on every thread the same), `--count`
/// counts every solution, and a bad cost is an error at its line and column.
#[test]
fn costs_give_the_cheapest_solutions() {
    let problem = "a b | x\na |3\nb |4\na b |5\na |1 x\nb x |2\n";
    // Solutions: a|3 b|4 = 7, a b|5 = 5, a|1 x b|4 = 5, a|3 b x|2 = 5 (a|1 x with b x clash).
    let out = dlx(&["xc"], Some(problem));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // One of the three of cost 5: the first the search finds.
    let text = stdout(&out);
    let first = text.strip_prefix("cost 5\n").unwrap_or_else(|| panic!("{text}"));
    let cheapest = [solutions("a b\n"), solutions("a\nb x\n"), solutions("a x\nb\n")];
    assert!(cheapest.contains(&solutions(first)), "{text}");
    for threads in ["1", "2"] {
        let out = dlx(&["xc", "--best", "9", "-j", threads], Some(problem));
        let text = stdout(&out);
        let costs: Vec<&str> = text.lines().filter(|l| l.starts_with("cost ")).collect();
        assert_eq!(costs, ["cost 5", "cost 5", "cost 5", "cost 7"], "{text}");
        // The options printed are the problem's (as written, without their costs).
        let uncosted = "a b | x\na\nb\na b\na x\nb x\n";
        assert_exact_covers(uncosted, &solutions(&text.replace("cost 5\n", "").replace("cost 7\n", "")));
    }
    assert_eq!(stdout(&dlx(&["xc", "-n"], Some(problem))), "4\n");
    let out = dlx(&["xc", "--stats", "--best", "2", "--preprocess"], Some(problem));
    assert_eq!(stdout(&out).lines().filter(|l| l.starts_with("cost ")).count(), 2);
    // `a` is taxed 1, `b` then 2 (`b x |2`): every solution costs at least 3.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("solutions met ") && err.contains("every solution costs at least 3"), "{err}");

    let out = dlx(&["xc"], Some("a b\na |x\n"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>:2:3: `|x`: a cost is `|` and a whole number"), "{err}");
}
