//! `dlx xc --count --checkpoint FILE`: the pieces of a count done so far, kept in a file so that
//! a run stopped by Ctrl-C, a kill or a restart resumes where it was.
//!
//! The count is cut into pieces the same way on every run of the same problem, shard and
//! tie-break rule (`ParallelSolver::resumable_cut`), and a piece is recorded only once it is
//! counted whole: a resumed run counts the others, so that no piece is counted twice or missed.
//! The file is JSON, written under a temporary name in its folder and then renamed over the old
//! one, so that a kill at any moment leaves the old file or the new one, never half of one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use dlx_engine::{Branching, Count, Shard, Stats, TieBreak};
use serde_json::{Value, json};

use crate::report::Usage;

/// What a checkpoint file records.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Checkpoint {
    /// The problem's fingerprint (see `merge::fingerprint`).
    pub(crate) fingerprint: String,
    pub(crate) shard: Shard,
    pub(crate) tie_break: TieBreak,
    /// The branching rule (`mrv` in a file that does not say: the only one before).
    pub(crate) branch: Branching,
    /// How many pieces the count is cut into.
    pub(crate) pieces: usize,
    /// A fingerprint of the pieces' paths ([`dlx_engine::Split::fingerprint`]): a cut that
    /// changed (another version of the engine) into as many pieces is refused too. Empty in a
    /// file without one.
    pub(crate) cut: String,
    /// The pieces counted whole, by position, with their figures.
    pub(crate) done: BTreeMap<usize, Stats>,
}

impl Checkpoint {
    /// Reads the checkpoint at `path`: `None` when there is no such file. A file that cannot be
    /// read is an I/O error (exit 1); one that is not a checkpoint, a usage error (exit 2).
    pub(crate) fn read(path: &Path) -> Result<Option<Checkpoint>> {
        // A device or a pipe is no place for a checkpoint, and may never end when read.
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            return Err(Usage(format!(
                "{}: a checkpoint is a regular file, and this is not one (a device, a folder or a pipe)",
                path.display()
            ))
            .into());
        }
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read the checkpoint {}", path.display()));
            }
        };
        let not_one = |why: String| Usage(format!("{}: not a checkpoint of dlx xc: {why}", path.display()));
        let value: Value = serde_json::from_str(&text).map_err(|e| not_one(e.to_string()))?;
        Ok(Some(Checkpoint::from_json(&value).map_err(not_one)?))
    }

    fn from_json(value: &Value) -> Result<Checkpoint, String> {
        let field = |name: &str| value.get(name).ok_or_else(|| format!("no `{name}`"));
        let text = |name: &str| field(name)?.as_str().ok_or_else(|| format!("`{name}` is not a string"));
        let mut done = BTreeMap::new();
        for piece in field("done")?.as_array().ok_or("`done` is not a list")? {
            let numbers: Vec<Count> = piece
                .as_array()
                .map(|a| a.iter().filter_map(crate::part::count_of).collect())
                .filter(|n: &Vec<Count>| n.len() == 6)
                .ok_or("a piece of `done` is not six counts")?;
            let index = numbers[0]
                .to_u64()
                .and_then(|k| usize::try_from(k).ok())
                .ok_or("a piece's position is too large")?;
            // The solutions as they are (past 2^64 with the memo), the figures of the work as u64.
            let figure = |k: usize| numbers[k].to_u64().ok_or("a piece's figure is too large");
            let (solutions, nodes, guesses, updates, cleansings) =
                (numbers[1].clone(), figure(2)?, figure(3)?, figure(4)?, figure(5)?);
            done.insert(index, Stats { nodes, guesses, updates, solutions, cleansings });
        }
        let pieces = field("pieces")?.as_u64().ok_or("`pieces` is not a count")?;
        Ok(Checkpoint {
            fingerprint: text("fingerprint")?.to_owned(),
            shard: text("shard")?.parse().map_err(|e| format!("{e}"))?,
            tie_break: text("tie_break")?.parse().map_err(|e| format!("{e}"))?,
            branch: match value.get("branch") {
                None => Branching::Mrv,
                Some(_) => text("branch")?.parse().map_err(|e| format!("{e}"))?,
            },
            pieces: usize::try_from(pieces).map_err(|_| "`pieces` is too large")?,
            cut: value.get("cut").and_then(Value::as_str).unwrap_or_default().to_owned(),
            done,
        })
    }

    fn to_json(&self) -> Value {
        let done: Vec<Value> = self
            .done
            .iter()
            .map(|(&k, s)| {
                json!([k, crate::part::count_json(&s.solutions), s.nodes, s.guesses, s.updates, s.cleansings])
            })
            .collect();
        json!({
            "fingerprint": self.fingerprint,
            "shard": self.shard.to_string(),
            "tie_break": self.tie_break.name(),
            "branch": self.branch.name(),
            "pieces": self.pieces,
            "cut": self.cut,
            "done": done,
        })
    }

    /// Why this checkpoint cannot be resumed by a run of `other`'s problem, shard, rule and cut,
    /// if it cannot.
    pub(crate) fn mismatch(&self, other: &Checkpoint) -> Option<String> {
        if self.fingerprint != other.fingerprint {
            Some(format!(
                "it is of another problem (fingerprint {}, this one {})",
                self.fingerprint, other.fingerprint
            ))
        } else if self.shard != other.shard {
            Some(format!("it is of shard {}, this run is shard {}", self.shard, other.shard))
        } else if self.tie_break != other.tie_break {
            Some(format!(
                "it was made with --tie-break {}, this run has {}",
                self.tie_break.name(),
                other.tie_break.name()
            ))
        } else if self.branch != other.branch {
            Some(format!(
                "it was made with --branch {}, this run has {}",
                self.branch.name(),
                other.branch.name()
            ))
        } else if self.pieces != other.pieces {
            Some(format!("it cuts the search into {} pieces, this run into {}", self.pieces, other.pieces))
        } else if self.cut != other.cut {
            Some(format!(
                "its pieces were cut otherwise (cut {}, this run's {}): another version of dlx made it",
                if self.cut.is_empty() { "unrecorded" } else { &self.cut },
                other.cut
            ))
        } else if let Some(&k) = self.done.keys().find(|&&k| k >= other.pieces) {
            Some(format!(
                "it records piece {k} as counted, but the search has pieces 0 to {} only: the file is \
                 damaged or was edited",
                other.pieces - 1
            ))
        } else {
            None
        }
    }

    /// Writes the checkpoint to `path` under a temporary name in the same folder, then renames
    /// it over the old file.
    pub(crate) fn write(&self, path: &Path) -> Result<()> {
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut file = tempfile::Builder::new()
            .prefix(".dlx-checkpoint-")
            .suffix(".part")
            .tempfile_in(&folder)
            .with_context(|| format!("cannot write the checkpoint {}", path.display()))?;
        use std::io::Write;
        writeln!(file, "{}", self.to_json())
            .with_context(|| format!("cannot write the checkpoint {}", path.display()))?;
        file.as_file()
            .sync_all()
            .with_context(|| format!("cannot write the checkpoint {}", path.display()))?;
        file.persist(path).with_context(|| format!("cannot write the checkpoint {}", path.display()))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_reads_back() {
        let mut done = BTreeMap::new();
        done.insert(3, Stats { nodes: 5, guesses: 4, updates: 9, solutions: 2u64.into(), cleansings: 1 });
        // A piece past 2^128, with the memo: exact.
        let big = "680564733841876926926749214863536422912".parse().unwrap();
        done.insert(4, Stats { nodes: 5, guesses: 4, updates: 9, solutions: big, cleansings: 1 });
        let checkpoint = Checkpoint {
            fingerprint: "ab".into(),
            shard: Shard::new(1, 4).unwrap(),
            tie_break: TieBreak::LastConflict,
            branch: Branching::Frb,
            pieces: 10,
            cut: "0123456789abcdef".into(),
            done,
        };
        assert_eq!(Checkpoint::from_json(&checkpoint.to_json()), Ok(checkpoint.clone()));
        let other = Checkpoint { branch: Branching::Wdeg, ..checkpoint.clone() };
        assert!(checkpoint.mismatch(&other).unwrap().contains("--branch frb, this run has wdeg"));
        let other = Checkpoint { pieces: 11, ..checkpoint.clone() };
        assert!(checkpoint.mismatch(&other).unwrap().contains("10 pieces"));
        // As many pieces, cut otherwise, or by a version that did not record its cut.
        let other = Checkpoint { cut: "fedcba9876543210".into(), ..checkpoint.clone() };
        assert!(checkpoint.mismatch(&other).unwrap().contains("cut otherwise"));
        let old = Checkpoint { cut: String::new(), ..checkpoint.clone() };
        assert!(old.mismatch(&checkpoint).unwrap().contains("cut unrecorded"));
        let mut beyond = checkpoint.clone();
        beyond.done.insert(10, Stats::default());
        let why = beyond.mismatch(&checkpoint).unwrap();
        assert!(why.contains("piece 10 as counted, but the search has pieces 0 to 9 only"), "{why}");
        assert_eq!(checkpoint.mismatch(&checkpoint), None);
    }
}
