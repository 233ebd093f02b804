//! Checkpoints: a count interrupted again and again, by SIGINT and by SIGKILL at random moments,
//! resumes to the exact total and the figures of one whole run; a checkpoint of another problem,
//! shard or rule is refused.

use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::common::fixture;

fn dlx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dlx"))
}

/// The count and the `--stats` figures (without the time) of a finished run.
fn finish(args: &[&str]) -> (String, String) {
    let out = dlx().args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats = String::from_utf8_lossy(&out.stderr);
    let stats =
        stats.lines().last().unwrap_or_default().split(", time").next().unwrap_or_default().to_owned();
    (String::from_utf8(out.stdout).unwrap(), stats)
}

#[test]
fn interrupted_counts_resume_to_the_exact_total() {
    let dir = tempfile::tempdir().unwrap();
    let problem = fixture("line-sums7.dlx");
    // Plain search, whose figures are a function of the problem (the memo, which this problem
    // takes by itself, makes a table per piece; its counts resume exactly too: see `xc.rs`).
    let whole = finish(&["xc", "--count", "--memo", "never", "--stats", "--quiet", &problem]);
    assert_eq!(whole.0, "3110940\n");
    let file = dir.path().join("count.checkpoint");
    let file = file.to_str().unwrap();
    let args = [
        "xc",
        "--count",
        "--memo",
        "never",
        "--stats",
        "--quiet",
        "--checkpoint",
        file,
        "--checkpoint-every",
        "0.05",
        &problem,
    ];
    // Random moments, from the clock (printed, to replay a failure).
    let mut seed: u64 = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().subsec_nanos().into();
    seed |= 1;
    println!("seed {seed}");
    let mut random = move |below: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % below
    };
    for round in 0..8 {
        let child = dlx().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(150 + random(700)));
        let signal = if round % 2 == 0 { "-INT" } else { "-KILL" };
        // The shell's own `kill`, which every `sh` has.
        Command::new("sh").arg("-c").arg(format!("kill {signal} {}", child.id())).status().unwrap();
        let out = child.wait_with_output().unwrap();
        // Stopped (130 or killed), or finished before the signal came: then the total is right.
        if out.status.success() {
            assert_eq!(String::from_utf8(out.stdout).unwrap(), whole.0, "round {round}");
        } else {
            assert!(out.stdout.is_empty(), "round {round}: an interrupted count prints no total");
        }
    }
    assert_eq!(finish(&args), whole, "resumed: the total and the figures of one run");
    // Finished: the checkpoint answers at once, the same.
    assert_eq!(finish(&args), whole);
    // Another problem, shard or rule is refused, and the file is left as it was.
    let before = std::fs::read(file).unwrap();
    for other in [
        vec!["xc", "--count", "--checkpoint", file, &fixture("knuth7.dlx")],
        vec!["xc", "--count", "--checkpoint", file, "--shard", "1/2", &problem],
        vec!["xc", "--count", "--checkpoint", file, "--tie-break", "last-conflict", &problem],
        vec!["xc", "--count", "--checkpoint", file, "--branch", "frb", &problem],
    ] {
        let out = dlx().args(&other).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{other:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("cannot resume from this checkpoint"),
            "{other:?}"
        );
    }
    assert_eq!(std::fs::read(file).unwrap(), before);
    // A file whose pieces were cut otherwise (another version of dlx, or none recorded) into as
    // many pieces is refused too: its pieces are not this run's.
    let text = String::from_utf8(before.clone()).unwrap();
    let cut = text.split("\"cut\":\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap().to_owned();
    for edited in [text.replace(&cut, "0000000000000000"), text.replace(&format!("\"cut\":\"{cut}\","), "")] {
        assert!(edited != text, "the cut is in the file");
        std::fs::write(file, &edited).unwrap();
        let out = dlx().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("cut otherwise"), "{stderr}");
    }
}
