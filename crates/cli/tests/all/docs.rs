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

/// The Markdown files whose links are checked: the README and every file of `docs/`.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry of docs/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The targets of a Markdown file's inline links (`[text](target)` and `![alt](target)`), with
/// their lines, outside code blocks and code spans.
fn links(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (k, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans (between backticks) hold no links.
        let text: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((k + 1, after[..end].trim().to_owned()));
            rest = &after[end..];
        }
    }
    found
}

/// The anchors of a Markdown file's headings, as GitHub makes them: lower case, spaces to `-`,
/// punctuation other than `-` and `_` dropped.
fn anchors(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Every relative link of the README and `docs/` names a file or folder that exists, and a link
/// to a heading (`file.md#heading`, `#heading`) one that the file has. Web addresses are not
/// fetched.
#[test]
fn relative_links_resolve() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).expect("a readable document");
        let dir = file.parent().expect("a folder");
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() { file.clone() } else { dir.join(path) };
            let place = format!("{}:{line}: {target}", file.strip_prefix(root()).unwrap_or(&file).display());
            if !resolved.exists() {
                broken.push(format!("{place}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor.filter(|_| resolved.extension().is_some_and(|e| e == "md")) {
                let heads = anchors(&std::fs::read_to_string(&resolved).expect("a readable document"));
                if !heads.iter().any(|h| h == anchor) {
                    broken.push(format!("{place}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 10, "only {checked} links found: is the reader right?");
}

/// The link reader finds what a reader sees as links, and nothing in code.
#[test]
fn links_are_read_outside_code() {
    let text = "See [a](a.md) and ![b](img/b.png#x).\n`[c](c.md)` is code.\n```\n[d](d.md)\n```\n";
    assert_eq!(links(text), [(1, "a.md".to_owned()), (1, "img/b.png#x".to_owned())]);
    assert_eq!(
        anchors("# The workspace\n## Exit status: 130 (Ctrl-C)\n"),
        ["the-workspace", "exit-status-130-ctrl-c"]
    );
}
