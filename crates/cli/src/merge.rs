//! `dlx merge`: sums the counts of the shards of one search, as `dlx xc --count --shard K/N
//! --format json` wrote them, and refuses to print a total that would be wrong.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use dlx_engine::Stats;
use serde_json::{Value, json};

use crate::input::Source;
use crate::part::{CountFormat, Part, count_json};
use crate::report::{EXIT_FAILURE, EXIT_INVALID, Stopped, Usage, stderr};

/// Sum the shards of one search: the JSON objects that `dlx xc --count --shard K/N --format json`
/// printed, one per line, in any number of files (stdin when none or `-`).
///
/// Prints the total count only when every shard 0 to N-1 is there exactly once, all of the same
/// problem (the same fingerprint), the same N and rules and the same cut of the tree (a version
/// of dlx that cuts otherwise makes other parts), and none was cut short by --limit; otherwise it
/// names the shards missing, repeated or cut short, or the files of other problems, and exits
/// with 2. A file that cannot be read is reported, and exits with 1.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Files of shard results; stdin when none or `-`.
    files: Vec<PathBuf>,
    /// How the total is written.
    #[arg(short, long, value_enum, default_value = "line")]
    format: CountFormat,
}

/// Shard numbers as ranges: `0, 3-5, 9`.
fn ranges(numbers: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < numbers.len() {
        let start = numbers[k];
        let mut end = start;
        while k + 1 < numbers.len() && numbers[k + 1] == end + 1 {
            k += 1;
            end = numbers[k];
        }
        out.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
        k += 1;
    }
    out.join(", ")
}

pub(crate) fn run(args: &MergeArgs) -> Result<ExitCode> {
    let sources: Vec<Source> = if args.files.is_empty() {
        vec![Source::from_arg(None)]
    } else {
        args.files.iter().map(|f| Source::from_arg(Some(f))).collect()
    };
    let mut unreadable = false;
    let mut invalid = false;
    // Each part read, with where it came from.
    let mut parts: Vec<(Part, String)> = Vec::new();
    for source in &sources {
        let bytes = match source.read_bytes() {
            Ok(bytes) => bytes,
            Err(e) if e.downcast_ref::<Stopped>().is_some() => return Err(e),
            Err(e) => {
                stderr!("dlx: {e:#}")?;
                // A line too long is a malformed input (2); a file that cannot be read, 1.
                if e.downcast_ref::<Usage>().is_some() {
                    invalid = true;
                } else {
                    unreadable = true;
                }
                continue;
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        for (k, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", source.name(), k + 1);
            let part = serde_json::from_str::<Value>(line)
                .map_err(|e| e.to_string())
                .and_then(|v| Part::from_json(&v));
            match part {
                Ok(part) => parts.push((part, at)),
                Err(e) => {
                    stderr!("dlx: {at}: not a shard result: {e}")?;
                    invalid = true;
                }
            }
        }
    }
    let Some((first, first_at)) = parts.first().cloned() else {
        stderr!("dlx: no shard results to merge")?;
        return Ok(ExitCode::from(if unreadable { EXIT_FAILURE } else { EXIT_INVALID }));
    };
    let count = first.shard.count();
    for (part, at) in &parts {
        if part.fingerprint != first.fingerprint {
            stderr!(
                "dlx: {at}: another problem (fingerprint {}, not {} as in {first_at})",
                part.fingerprint,
                first.fingerprint
            )?;
            invalid = true;
        } else if part.shard.count() != count {
            stderr!("dlx: {at}: shard {} of another cut than {first_at}'s (N = {count})", part.shard)?;
            invalid = true;
        } else if (part.tie_break, part.branch) != (first.tie_break, first.branch) {
            // Other rules choose other items at the top of the tree: other parts.
            stderr!(
                "dlx: {at}: shard {} made with --tie-break {} --branch {}, not {} and {} as in {first_at}: \
                 the rules cut the tree into other parts",
                part.shard,
                part.tie_break.name(),
                part.branch.name(),
                first.tie_break.name(),
                first.branch.name()
            )?;
            invalid = true;
        } else if part.cut != first.cut {
            // Another version of dlx may cut the tree into other parts.
            let said = |cut: &Option<String>| {
                cut.as_deref().map_or("none recorded".to_owned(), |c| format!("cut {c}"))
            };
            stderr!(
                "dlx: {at}: shard {} of another cut of the tree than {first_at}'s ({}, not {}): made by \
                 another version of dlx; make every shard with one",
                part.shard,
                said(&part.cut),
                said(&first.cut)
            )?;
            invalid = true;
        } else if !part.complete {
            stderr!("dlx: {at}: shard {} was cut short by --limit", part.shard)?;
            invalid = true;
        }
    }
    let mut seen: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
    for (part, at) in &parts {
        if part.fingerprint == first.fingerprint
            && part.shard.count() == count
            && (part.tie_break, part.branch) == (first.tie_break, first.branch)
            && part.cut == first.cut
        {
            seen.entry(part.shard.index()).or_default().push(at);
        }
    }
    let missing: Vec<u32> = (0..count).filter(|k| !seen.contains_key(k)).collect();
    if !missing.is_empty() {
        stderr!("dlx: missing shards {} of {count}", ranges(&missing))?;
        invalid = true;
    }
    for (k, places) in &seen {
        if places.len() > 1 {
            stderr!("dlx: shard {k}/{count} appears {} times ({})", places.len(), places.join(", "))?;
            invalid = true;
        }
    }
    if invalid || unreadable {
        stderr!("dlx: no total printed")?;
        return Ok(ExitCode::from(if unreadable { EXIT_FAILURE } else { EXIT_INVALID }));
    }
    let mut stats = Stats::default();
    let mut time = 0.0;
    for (part, _) in &parts {
        // (The solutions exactly, however many; the figures of the work saturate.)
        stats.add(&part.stats);
        time += part.time;
    }
    let mut out = std::io::stdout().lock();
    use std::io::Write;
    match args.format {
        CountFormat::Line => writeln!(out, "{}", stats.solutions)?,
        CountFormat::Json => {
            let total = json!({
                "fingerprint": first.fingerprint,
                "shards": count,
                "solutions": count_json(&stats.solutions),
                "nodes": stats.nodes,
                "guesses": stats.guesses,
                "updates": stats.updates,
                "cleansings": stats.cleansings,
                "time": time,
            });
            writeln!(out, "{total}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_compress_runs() {
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0-2, 5, 7-8");
        assert_eq!(ranges(&[]), "");
    }
}
