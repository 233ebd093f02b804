//! Ctrl-C (SIGINT) and SIGTERM through the binary, wherever a run is: inside a long search, a
//! generation, a listing, a wait on standard input. Each stops promptly with exit status 130 (143
//! for SIGTERM), whole records on stdout and the usual message on stderr. And a person typing at a
//! terminal (through `script`, which gives the run a terminal of its own): no spinner under the
//! lines typed, each error said once, and Ctrl-C while the run waits ends it.
#![cfg(unix)]

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A grid with one given: counting its solutions would take years.
const NEARLY_EMPTY: &str =
    "........................................................................4........\n";

/// How a run's standard input is fed.
#[derive(Clone, Copy)]
enum Input {
    /// Closed at once (empty).
    Closed,
    /// These bytes, then kept open: the run then waits for more.
    Open(&'static str),
}

/// How long a run may take to stop after the signal: generous, so that a loaded machine cannot
/// fail it, and still far below the seconds or years these runs would go on without it (the
/// figures measured are in the close note of issue 37 and `benches/RESULTS.md`).
const PROMPT: Duration = Duration::from_secs(2);

/// Starts `dlx args`, waits `after`, sends `signal` (`INT` or `TERM`) and waits for the end:
/// the exit status, stdout, stderr, and the time from the signal to the end.
fn stop(args: &[&str], input: Input, after: Duration, signal: &str) -> (i32, String, String, Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _kept = match input {
        Input::Closed => None,
        Input::Open(bytes) => {
            stdin.write_all(bytes.as_bytes()).unwrap();
            Some(stdin)
        }
    };
    // Read both outputs as they come, so that a run that writes much never blocks on a pipe.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            r.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    std::thread::sleep(after);
    assert!(child.try_wait().unwrap().is_none(), "{args:?} ended before the signal");
    let sent = Instant::now();
    kill(&child, signal);
    let status = wait(&mut child, sent);
    let latency = sent.elapsed();
    let (stdout, stderr) = (text(&stdout.join().unwrap()), text(&stderr.join().unwrap()));
    let code =
        status.unwrap_or_else(|| panic!("{args:?} still running {PROMPT:?} after SIG{signal}: {stderr}"));
    (code, stdout, stderr, latency)
}

/// Sends SIG`signal` to the child, as the shell's `kill` does.
fn kill(child: &Child, signal: &str) {
    let status =
        Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// The child's exit code once it ends, or `None` (after killing it) if it runs on past
/// [`PROMPT`] from `sent`.
fn wait(child: &mut Child, sent: Instant) -> Option<i32> {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status.code().expect("an exit status, not death by a signal"));
        }
        if sent.elapsed() > PROMPT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Queens on an `n` x `n` board in Knuth's `.dlx` format: rows and columns primary, diagonals
/// secondary.
fn queens(n: usize) -> String {
    let mut text = String::new();
    let names = |p: &'static str, n: usize| (0..n).map(move |k| format!("{p}{k}"));
    let items: Vec<String> = names("r", n).chain(names("c", n)).collect();
    let secondary: Vec<String> = names("a", 2 * n - 1).chain(names("b", 2 * n - 1)).collect();
    text.push_str(&format!("{} | {}\n", items.join(" "), secondary.join(" ")));
    for r in 0..n {
        for c in 0..n {
            text.push_str(&format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c));
        }
    }
    text
}

/// Every command, caught in a long search, a generation, a listing or a wait on stdin, stops
/// promptly on SIGINT with 130 and on SIGTERM with 143, whole records out, and says so.
#[test]
fn every_command_stops_promptly_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("nearly-empty.txt");
    std::fs::write(&grid, NEARLY_EMPTY).unwrap();
    let queens20 = dir.path().join("queens20.dlx");
    std::fs::write(&queens20, queens(20)).unwrap();
    let (grid, queens20) = (grid.to_str().unwrap(), queens20.to_str().unwrap());
    let puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let short = Duration::from_millis(300);
    let cases: [(&[&str], Input, Duration); 12] = [
        // Inside one long search.
        (&["count", "--threads", "1", grid], Input::Closed, short),
        (&["count", grid], Input::Closed, short),
        (&["xc", "--count", "--threads", "1", queens20], Input::Closed, short),
        // A listing that writes all the while.
        (&["xc", "--threads", "1", queens20], Input::Closed, short),
        // A generation of 25x25 puzzles (seconds each).
        (&["generate", "--size", "25", "-n", "3", "--seed", "1", "--threads", "1"], Input::Closed, short),
        // Issue 49: one line without end, from a file named (a device): the reading stops.
        (&["solve", "/dev/zero"], Input::Closed, short),
        (&["count", "/dev/zero"], Input::Closed, short),
        (&["rate", "/dev/zero"], Input::Closed, short),
        // Issue 49: a generation whose first grid is a long search (its check of the rules).
        (
            &[
                "generate",
                "--size",
                "16",
                "--rules",
                "diagonal,windoku,anti-king,anti-knight",
                "-n",
                "1",
                "-q",
            ],
            Input::Closed,
            Duration::from_secs(1),
        ),
        // Waiting on standard input, some of it read.
        (&["solve"], Input::Open(puzzle), short),
        (&["rate"], Input::Open(puzzle), short),
        (&["render", "--output", dir.path().to_str().unwrap()], Input::Open(puzzle), short),
    ];
    for (args, input, after) in cases {
        for (signal, status) in [("INT", 130), ("TERM", 143)] {
            let (code, stdout, stderr, latency) = stop(args, input, after, signal);
            eprintln!("{args:?} SIG{signal}: {code} after {latency:?}");
            assert_eq!(code, status, "{args:?} SIG{signal}: {stderr}");
            assert!(
                stderr.contains("dlx: interrupted; the output holds whole records"),
                "{args:?}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
            if args[0] == "xc" && !args.contains(&"--count") {
                // Whole solutions, twenty options each, separated by blank lines.
                assert!(stdout.is_empty() || stdout.ends_with('\n'), "{args:?}: a line cut");
                let blocks = stdout.trim_end().split("\n\n").filter(|s| !s.is_empty());
                assert!(blocks.clone().count() > 0, "{args:?}: solutions were listed before the signal");
                assert!(blocks.clone().all(|s| s.lines().count() == 20), "{args:?}: a solution cut");
            } else if args[0] == "generate" {
                // Whole puzzles only: 625 cells each.
                assert!(
                    stdout.lines().filter(|l| !l.starts_with('#')).all(|l| l
                        .split_whitespace()
                        .next()
                        .unwrap()
                        .len()
                        == 625)
                );
            } else if matches!(input, Input::Open(_)) && args[0] != "render" {
                // The one puzzle read is answered at once (issue 52), and no more is written.
                assert!(stdout.is_empty() || stdout.ends_with('\n'), "{args:?}: a line cut");
                assert!(stdout.lines().count() <= 1, "{args:?}: one record: {stdout}");
            } else {
                assert!(stdout.is_empty(), "{args:?}: nothing was finished, so nothing is written: {stdout}");
            }
        }
    }
}

/// Runs `dlx args` on a terminal of its own (`script`), typing `lines` one at a time, then
/// `last` (Ctrl-D to end, or Ctrl-C): what the terminal showed, and the exit status. `None` when
/// `script` is not installed.
fn typed(args: &str, lines: &[&str], last: &[u8]) -> Option<(String, i32)> {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_dlx"));
    let mut child = Command::new("script")
        .args(["-qefc", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    for line in lines {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    stdin.write_all(last).unwrap();
    let sent = Instant::now();
    let status = wait(&mut child, sent).expect("the run ended");
    let mut shown = String::new();
    child.stdout.take().unwrap().read_to_string(&mut shown).unwrap();
    Some((shown, status))
}

/// At a terminal: the puzzles typed are answered as they come, with no spinner drawn under them,
/// an error said once (by the record on the screen), and Ctrl-C while the run waits for the next
/// line ends it with 130.
#[test]
fn typing_at_a_terminal() {
    let puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let Some((shown, status)) = typed("solve", &["123", puzzle], b"\x04") else {
        eprintln!("skipped: no `script` to give the run a terminal");
        return;
    };
    assert_eq!(status, 2, "a malformed line: {shown}");
    assert!(
        shown.contains("417369825632158947958724316825437169791586432346912758289643571573291684164875293")
    );
    assert_eq!(shown.matches("3 cells, expected 81").count(), 1, "said once: {shown}");
    assert!(!shown.contains('\u{2801}') && !shown.contains("\u{1b}[2K"), "no spinner: {shown:?}");

    for args in ["solve", "xc", "count"] {
        let (shown, status) = typed(args, &[], b"\x03").unwrap();
        assert_eq!(status, 130, "{args}: {shown}");
        assert!(shown.contains("dlx: interrupted"), "{args}: {shown}");
        // Issue 52: the run says what it waits for.
        let waits = if args == "xc" { "reading a problem in Knuth's .dlx format" } else { "reading puzzles" };
        assert!(shown.contains(waits), "{args}: {shown}");
    }

    // Issue 52: a line that cannot start a grid is answered when it is typed, not at the end of
    // the input (the run is stopped by Ctrl-C, before any end).
    let (shown, status) = typed("solve", &["garbage"], b"\x03").unwrap();
    assert_eq!(status, 130, "{shown}");
    assert!(shown.contains("unexpected character 'g'"), "answered when typed: {shown}");
}

/// Issue 52: a count that would take years says so at once and how to bound it, shows a bar
/// labelled with the record while it runs (at a terminal), and the bar is cleared on Ctrl-C.
#[test]
fn a_long_count_warns_and_shows_a_bar() {
    let empty = ".".repeat(81);
    // Lines typed to the terminal (the count does not read them) give it three seconds.
    let Some((shown, status)) = typed(&format!("count {empty}"), &[""; 10], b"\x03") else {
        eprintln!("skipped: no `script` to give the run a terminal");
        return;
    };
    assert_eq!(status, 130, "{shown}");
    assert!(shown.contains("<argument 1>:1: this count may take"), "{shown}");
    assert!(shown.contains("--limit N stops it at N solutions"), "{shown}");
    let bar = shown.rfind("counting <argument 1>:1").expect("a labelled bar");
    let end = shown.find("dlx: interrupted").expect("the interruption said");
    assert!(bar < end && shown[bar..end].contains("\u{1b}[2K"), "the bar cleared: {shown:?}");
}
