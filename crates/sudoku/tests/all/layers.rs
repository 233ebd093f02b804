//! The floors `lib.rs` describes ("Inside"): each folder of `src/` imports only from the floors
//! before it, so that no module imports another that imports it back. Read from the sources: every
//! `crate::` path outside the tests, the root's re-exports resolved to the floor that defines them.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, bottom first, as `lib.rs` lists them.
const FLOORS: [&str; 8] = ["model", "shape", "cover", "logic", "generate", "text", "print", "answer"];

fn floor(name: &str) -> Option<usize> {
    FLOORS.iter().position(|&f| f == name)
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The leading identifier of `text`.
fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// The names a `{...}` list at the start of `text` holds at its top level (each entry's first
/// segment, or its alias).
fn group(text: &str) -> Vec<String> {
    let (mut depth, mut entry, mut names) = (0, String::new(), Vec::new());
    for c in text.chars().skip(1) {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => names.push(std::mem::take(&mut entry)),
            _ if depth == 0 => entry.push(c),
            _ => {}
        }
    }
    names.push(entry);
    names
        .iter()
        .map(|e| e.trim())
        .filter(|e| !e.is_empty())
        .map(|e| e.rsplit(" as ").next().unwrap_or(e).trim().to_owned())
        .collect()
}

/// The root's public names, each with the floor that defines it.
fn root_names() -> HashMap<String, usize> {
    let lib = code(&fs::read_to_string(src().join("lib.rs")).unwrap());
    let mut names = HashMap::new();
    for statement in lib.split("pub use ").skip(1) {
        let statement = statement.split(';').next().unwrap();
        let Some(at) = floor(ident(statement)) else { continue };
        let last = statement.rfind("::").unwrap() + 2;
        let tail = &statement[last..];
        let found = if tail.starts_with('{') { group(tail) } else { vec![ident(tail).to_owned()] };
        for name in found {
            let name = name.rsplit("::").next().unwrap().to_owned();
            names.insert(name, at);
        }
    }
    names
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn each_floor_imports_only_from_the_floors_before_it() {
    let root = root_names();
    assert!(root.len() > 50 && root.get("Puzzle") == floor("model").as_ref(), "{root:?}");
    let mut paths = Vec::new();
    files(&src(), &mut paths);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in paths {
        let relative = path.strip_prefix(src()).unwrap();
        let top = relative.components().next().unwrap().as_os_str().to_str().unwrap();
        let Some(own) = floor(top.trim_end_matches(".rs")) else {
            assert_eq!(top, "lib.rs", "a module that is no floor: {}", relative.display());
            continue;
        };
        let text = code(&fs::read_to_string(&path).unwrap());
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            let names = if rest.starts_with('{') { group(rest) } else { vec![ident(rest).to_owned()] };
            for name in names {
                let first = ident(&name);
                let Some(target) = floor(first).or_else(|| root.get(first).copied()) else { continue };
                checked += 1;
                if target > own {
                    wrong.push(format!("{} uses crate::{first} ({})", relative.display(), FLOORS[target]));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} paths read");
    assert!(wrong.is_empty(), "imports from a floor above:\n{}", wrong.join("\n"));
}
