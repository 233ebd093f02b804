//! Every output form read back as input, for every rule kind: random puzzles of each kind
//! (made by `dlx generate` from a random seed) are solved, counted and rated in each form, and
//! what was written is read back and answered again: the same puzzles, the same solutions, the
//! given solutions accepted.

use crate::common::dlx;
use proptest::prelude::*;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The flags of `dlx generate` for each kind of rules.
const KINDS: [&[&str]; 12] = [
    &[],
    &["--variant", "diagonal"],
    &["--variant", "windoku"],
    &["--variant", "anti-king"],
    &["--variant", "even"],
    &["--size", "4"],
    &["--size", "6", "--jigsaw"],
    &["--size", "6", "--killer"],
    &["--size", "6", "--parity"],
    &["--size", "6", "--constraint", "anti-knight"],
    &["--size", "9", "--jigsaw", "--killer"],
    &["--size", "8", "--constraint", "diagonal", "--parity"],
];

/// The JSON answers of `dlx solve -f json` on `input`, each as its status, puzzle and solution.
fn answers(input: &str) -> Vec<(String, String, String, Option<bool>)> {
    let out = dlx(&["solve", "-f", "json"], input);
    assert!(out.status.success(), "{}\n{input}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let field = |k: &str| v[k].as_str().unwrap_or("").to_owned();
            (field("status"), field("puzzle"), field("solution"), v["given_solution"].as_bool())
        })
        .collect()
}

proptest! {
    // 32 cases a run (each generates and answers 3 puzzles 11 times): every run draws new
    // seeds, so the runs of CI cover more than one run could.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_output_form_reads_back(kind in 0..KINDS.len(), seed in 0u64..1_000_000) {
        let seed = seed.to_string();
        let mut args = vec!["generate", "-n", "3", "--seed", &seed];
        args.extend(KINDS[kind]);
        let generated = dlx(&args, "");
        prop_assert!(generated.status.success(), "{args:?}: {}", text(&generated.stderr));
        let puzzles = text(&generated.stdout);
        let first = answers(&puzzles);
        prop_assert_eq!(first.len(), 3);
        prop_assert!(first.iter().all(|a| a.0 == "unique"), "{:?}", first);
        // Made as JSON, the puzzles read back with their solutions.
        let mut json = args.clone();
        json.extend(["-f", "json"]);
        let made = answers(&text(&dlx(&json, "").stdout));
        prop_assert!(made.iter().all(|a| a.0 == "unique" && a.3 == Some(true)), "{:?}", made);

        for format in ["line", "grid", "json", "csv"] {
            let out = dlx(&["solve", "-f", format], &puzzles);
            prop_assert!(out.status.success());
            let written = text(&out.stdout);
            let again = answers(&written);
            prop_assert_eq!(again.len(), 3, "{}:\n{}", format, written);
            for (a, b) in first.iter().zip(&again) {
                prop_assert_eq!(&b.0, "unique", "{}:\n{}", format, written);
                // The solution is the same, whether the puzzle or its solution was read back.
                prop_assert_eq!(&a.2, &b.2, "{}:\n{}", format, written);
                if matches!(format, "json" | "csv") {
                    prop_assert_eq!(&a.1, &b.1, "{}: the puzzle", format);
                    prop_assert_eq!(b.3, Some(true), "{}: the given solution", format);
                }
            }
        }
        // Counts with their puzzles, and ratings, read back to the same puzzles.
        for command in [&["count", "-p"][..], &["rate"][..]] {
            let written = text(&dlx(command, &puzzles).stdout);
            let counted = dlx(&["count"], &written);
            prop_assert!(counted.status.success(), "{:?}: {}\n{}", command, text(&counted.stderr), written);
            prop_assert_eq!(text(&counted.stdout), "1\n1\n1\n", "{:?}:\n{}", command, written);
        }
    }
}

/// The records of `written` (what a command printed in `format`), each as text that reads alone:
/// a line; a CSV row under the header row; a block with the header lines above it.
fn records(written: &str, format: &str) -> Vec<String> {
    match format {
        "csv" => {
            let mut lines = written.lines();
            let header = lines.next().unwrap_or("");
            lines.map(|row| format!("{header}\n{row}\n")).collect()
        }
        "grid" => written
            .split("\n\n")
            .filter(|chunk| !chunk.trim().is_empty())
            .map(|chunk| format!("{}\n", chunk.trim_start_matches('\n')))
            .collect(),
        _ => written.lines().map(|line| format!("{line}\n")).collect(),
    }
}

/// Kinds beside [`KINDS`] for the mixed batches: 9x9 anti-knight and killer, 6x6 jigsaw windoku.
const MORE: [&[&str]; 3] = [
    &["--constraint", "anti-knight"],
    &["--killer"],
    &["--size", "6", "--jigsaw", "--constraint", "windoku"],
];

/// Every kind of the mixed batches.
fn mixed() -> Vec<&'static [&'static str]> {
    KINDS.iter().chain(&MORE).copied().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Issue 49: a batch of puzzles of mixed rule sets, through every command and output form,
    /// gives as many records out as in, and each record read back alone gives the same answer
    /// (its rules travel with it: `sort`, `split` or `parallel --pipe` lose none).
    #[test]
    fn mixed_batches_keep_every_rule_in_every_form(
        kinds in proptest::collection::vec((0..KINDS.len() + MORE.len(), 0u64..1_000_000), 2..5),
    ) {
        let mixed = mixed();
        let mut batch = String::new();
        for (kind, seed) in &kinds {
            let seed = seed.to_string();
            let mut args = vec!["generate", "-n", "1", "--seed", &seed];
            args.extend(mixed[*kind]);
            let out = dlx(&args, "");
            prop_assert!(out.status.success(), "{:?}: {}", args, text(&out.stderr));
            batch += &text(&out.stdout);
        }
        let first = answers(&batch);
        prop_assert_eq!(first.len(), kinds.len(), "{}", batch);
        prop_assert!(first.iter().all(|a| a.0 == "unique"), "{:?}", first);
        for (command, forms) in [
            ("solve", &["line", "grid", "json", "csv"][..]),
            ("count", &["line", "json", "csv"][..]),
            ("rate", &["line", "json", "csv"][..]),
        ] {
            for &format in forms {
                // `count` writes the puzzle beside its count only when asked.
                let args: Vec<&str> = match command {
                    "count" => vec![command, "-p", "-f", format],
                    _ => vec![command, "-f", format],
                };
                let out = dlx(&args, &batch);
                prop_assert!(out.status.success(), "{:?}: {}", args, text(&out.stderr));
                let written = text(&out.stdout);
                let records = records(&written, format);
                prop_assert_eq!(records.len(), kinds.len(), "{:?}:\n{}", args, written);
                for (record, answer) in records.iter().zip(&first) {
                    let again = answers(record);
                    prop_assert_eq!(again.len(), 1, "{:?}:\n{}", args, record);
                    prop_assert_eq!(&again[0].0, "unique", "{:?}:\n{}", args, record);
                    prop_assert_eq!(&again[0].2, &answer.2, "{:?}:\n{}", args, record);
                }
            }
        }
    }
}
