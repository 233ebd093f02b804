//! The shell examples of the README and `docs/`: every `dlx` command line in their `sh` blocks
//! runs, from the project root, as written. One whose files are bundled must succeed, and print
//! what the line after it shows (`# OUTPUT`) when there is one; one that names files of the
//! reader's (`puzzles.txt`) must get past the command line to reading them (exit status 0 or 1,
//! never 2 for a bad option). Synopses (`[--count]`), pipes and loops are left out.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The command lines of the `sh` blocks of a Markdown file, each with the line after it when
/// that is a comment showing its output.
fn examples(markdown: &str) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    let mut inside = false;
    let lines: Vec<&str> = markdown.lines().collect();
    for (k, line) in lines.iter().enumerate() {
        if line.starts_with("```") {
            inside = !inside && line.trim() == "```sh";
            continue;
        }
        let Some(command) = line.strip_prefix("dlx ").filter(|_| inside) else { continue };
        if ["[", "|", "$", "{", "<"].iter().any(|c| command.contains(c)) {
            continue;
        }
        // The command, without a comment after it.
        let command = command.split("  #").next().unwrap_or(command).trim().to_owned();
        let shown = lines.get(k + 1).and_then(|next| next.strip_prefix("# ")).map(str::to_owned);
        found.push((command, shown));
    }
    found
}

#[test]
fn shell_examples_run_as_written() {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> =
        std::fs::read_dir(root().join("docs")).unwrap().map(|e| e.unwrap().path()).collect();
    docs.retain(|p| p.extension().is_some_and(|e| e == "md"));
    docs.sort();
    files.extend(docs);
    let scratch = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for file in &files {
        let markdown = std::fs::read_to_string(file).unwrap();
        for (command, shown) in examples(&markdown) {
            // Output into a file (`> page.svg`, `-o pages`) goes to the scratch folder.
            let (command, _) = command.split_once(" > ").unwrap_or((&command, ""));
            let words: Vec<String> = command
                .split_whitespace()
                .map(|w| {
                    if w == "pages" || w == "man" && command.contains("--output") {
                        scratch.path().join(w).display().to_string()
                    } else {
                        w.to_owned()
                    }
                })
                .collect();
            let file_like = |w: &String| [".txt", ".dlx", ".json", ".ckpt"].iter().any(|e| w.ends_with(e));
            let bundled = words.iter().filter(|w| file_like(w)).all(|w| root().join(w).exists());
            let out = Command::new(env!("CARGO_BIN_EXE_dlx"))
                .args(&words)
                .current_dir(root())
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code();
            let where_ = format!("{}: dlx {command}: {stderr}", file.display());
            if bundled {
                assert_eq!(code, Some(0), "{where_}");
                if let Some(shown) = shown {
                    let first = String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").to_owned();
                    assert_eq!(first, shown, "{where_}");
                }
            } else {
                assert!(matches!(code, Some(0 | 1)), "{where_}");
                assert!(stderr.contains("cannot read") || code == Some(0), "{where_}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 15, "{ran} examples");
}
