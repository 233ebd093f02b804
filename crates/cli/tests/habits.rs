//! Command-line habits: shell completions and the manual page, short flags, `--strict`.

mod common;

use std::process::Command;

use common::{dlx, fixture};

/// Every shell's completion script is produced and names the subcommands; bash's (and zsh's and
/// fish's, where installed) parses.
#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = dlx(&["completions", shell], "");
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["solve", "generate", "xc", "merge", "threads"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
        let checker = match shell {
            "bash" | "zsh" => Some((shell, vec!["-n"])),
            "fish" => Some(("fish", vec!["--no-execute"])),
            _ => None,
        };
        let Some((program, args)) = checker else { continue };
        let file = std::env::temp_dir().join(format!("dlx-completion-{}.{shell}", std::process::id()));
        std::fs::write(&file, &script).unwrap();
        match Command::new(program).args(&args).arg(&file).output() {
            Ok(check) => {
                assert!(check.status.success(), "{shell}: {}", String::from_utf8_lossy(&check.stderr))
            }
            // The shell is not installed: bash always is.
            Err(_) => assert_ne!(shell, "bash", "bash is needed to check its script"),
        }
        std::fs::remove_file(&file).unwrap();
    }
    assert_eq!(dlx(&["completions", "tcsh"], "").status.code(), Some(2));
}

/// The manual page is roff with every subcommand; where groff is installed it renders without a
/// warning.
#[test]
fn manual_page() {
    let out = dlx(&["man"], "");
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH dlx 1"), "{page}");
    for word in ["solve", "count", "generate", "rate", "xc", "merge", "completions"] {
        assert!(page.contains(word), "{word}");
    }
    let file = std::env::temp_dir().join(format!("dlx-{}.1", std::process::id()));
    std::fs::write(&file, &page).unwrap();
    if let Ok(render) = Command::new("groff").args(["-man", "-Tutf8", "-ww", "-z"]).arg(&file).output() {
        assert!(
            render.status.success() && render.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&render.stderr)
        );
    }
    std::fs::remove_file(&file).unwrap();
}

/// Short flags where the habit exists: -n, -j, -f, -s, -q, -o.
#[test]
fn short_flags() {
    let knuth = fixture("knuth7.dlx");
    let out = dlx(&["xc", "-n", "-j", "1", "-f", "json", "-s", "-q", &knuth], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains("\"solutions\":1"));
    let out = dlx(&["generate", "-n", "2", "-f", "line", "--seed", "4", "-j", "1", "-q"], "");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    let dir = tempfile::tempdir().unwrap();
    let out = dlx(&["generate", "-f", "svg", "-o", dir.path().to_str().unwrap(), "--seed", "4"], "");
    assert!(out.status.success());
    assert!(dir.path().join("puzzle-0001.svg").exists());
    let puzzles = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    assert!(dlx(&["count", "-f", "json", "--no-progress", "-s"], &puzzles).status.success());
    assert!(dlx(&["rate", "-f", "json", "-q", "-j", "2"], &puzzles).status.success());
}

/// --strict: status 3 when some puzzle has no solution or several; 0 when all are unique; a
/// malformed record still gives 2.
#[test]
fn strict_tells_by_the_status() {
    let unique = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    assert_eq!(dlx(&["solve", "--strict"], &unique).status.code(), Some(0));
    let empty = ".".repeat(81) + "\n";
    assert_eq!(dlx(&["solve"], &empty).status.code(), Some(0));
    assert_eq!(dlx(&["solve", "--strict"], &empty).status.code(), Some(3));
    assert_eq!(dlx(&["count", "--strict", "--limit", "2"], &empty).status.code(), Some(3));
    assert_eq!(dlx(&["rate", "--strict"], &empty).status.code(), Some(3));
    assert_eq!(dlx(&["rate", "--strict"], &unique).status.code(), Some(0));
    let none = "11".to_owned() + &".".repeat(79) + "\n";
    assert_eq!(dlx(&["solve", "--strict"], &none).status.code(), Some(2), "a rule broken is malformed");
    let bad = std::fs::read_to_string(fixture("sudoku-bad.txt")).unwrap();
    assert_eq!(dlx(&["solve", "--strict"], &bad).status.code(), Some(2));
}

/// `solve --format dlx` writes one problem: a second puzzle is refused (exit 2) after the first is
/// written whole; `dlx xc` warns of an option that repeats the item line, and refuses one with a
/// bar, as a second problem.
#[test]
fn one_dlx_problem_per_stream() {
    let puzzles = std::fs::read_to_string(fixture("sudoku.txt")).unwrap();
    let out = dlx(&["solve", "--format", "dlx"], &puzzles);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(":3: a second puzzle: --format dlx writes one problem")
    );
    let first = String::from_utf8(out.stdout).unwrap();
    assert_eq!(dlx(&["xc", "-n"], &first).stdout, b"1\n", "the first problem, whole");
    let out = dlx(&["xc", "-n"], "A B\nA\nB\nA B\nA\n");
    assert_eq!((out.status.code(), out.stdout.as_slice()), (Some(0), &b"3\n"[..]));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("<stdin>:4: warning: this option repeats the item line")
    );
    let out = dlx(&["xc", "-n"], "A | x\nA x\nA | x\nA\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("<stdin>:3:1: this line repeats the item line of line 1")
    );
}
