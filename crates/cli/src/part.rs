//! The record of a count that `dlx xc --format json` writes and `dlx merge` reads (a shard's,
//! or the whole's), its problem's fingerprint, and counts in JSON: the one module both commands
//! import, so that neither imports the other.

use dlx_engine::{Branching, Count, Problem, Shard, Stats, TieBreak};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// How `xc --count` and `merge` write a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CountFormat {
    /// The count alone (`N+` when --limit stopped it).
    Line,
    /// One JSON object: the count (`solutions`) with the problem's fingerprint, the shard or
    /// shards, the statistics and the time, as `dlx merge` reads and writes them.
    Json,
}

/// The count of one shard, as `dlx xc --format json` writes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Part {
    /// The problem's fingerprint (see [`fingerprint`]).
    pub(crate) fingerprint: String,
    pub(crate) shard: Shard,
    /// The rules that chose the items, which shape the parts of the tree: shards cut by other
    /// rules are other parts (`earliest` and `mrv` in a record that does not say: the only ones
    /// before).
    pub(crate) tie_break: TieBreak,
    pub(crate) branch: Branching,
    /// The fingerprint of the cut for shards the shard was taken from
    /// ([`dlx_engine::Split::fingerprint`], 16 hex digits), when it was one of several: shards of
    /// two cuts (two versions of dlx that cut differently) are other parts. `None` for a whole
    /// count, and in records from before it was kept.
    pub(crate) cut: Option<String>,
    pub(crate) solutions: Count,
    /// Whether every solution of the shard was counted (not cut by --limit).
    pub(crate) complete: bool,
    pub(crate) stats: Stats,
    /// Seconds.
    pub(crate) time: f64,
}

/// A fingerprint of a problem as parsed: the first 16 bytes of the SHA-256 of its `.dlx` text as
/// the engine writes it, in hex. Two files that differ only in comments, spacing or line ends
/// have the same one.
pub(crate) fn fingerprint(problem: &Problem) -> String {
    let digest = Sha256::digest(problem.to_dlx().as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

impl Part {
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "fingerprint": self.fingerprint,
            "shard": self.shard.to_string(),
            "tie_break": self.tie_break.name(),
            "branch": self.branch.name(),
            "cut": self.cut,
            "solutions": count_json(&self.solutions),
            "complete": self.complete,
            "nodes": self.stats.nodes,
            "guesses": self.stats.guesses,
            "updates": self.stats.updates,
            "cleansings": self.stats.cleansings,
            "time": self.time,
        })
    }

    /// Reads a part back from its JSON object, or says which field is missing or wrong.
    pub(crate) fn from_json(value: &Value) -> Result<Part, String> {
        let field = |name: &str| value.get(name).ok_or_else(|| format!("no `{name}`"));
        let number = |name: &str| field(name)?.as_u64().ok_or_else(|| format!("`{name}` is not a count"));
        let fingerprint = field("fingerprint")?.as_str().ok_or("`fingerprint` is not a string")?.to_owned();
        let shard = field("shard")?.as_str().ok_or("`shard` is not K/N")?;
        let shard = shard.parse().map_err(|e| format!("{e}"))?;
        let solutions = count_of(field("solutions")?).ok_or("`solutions` is not a count")?;
        let named = |name: &str| match value.get(name) {
            None => Ok(None),
            Some(v) => v.as_str().map(Some).ok_or_else(|| format!("`{name}` is not a rule's name")),
        };
        let tie_break = match named("tie_break")? {
            None => TieBreak::Earliest,
            Some(name) => name.parse().map_err(|e| format!("{e}"))?,
        };
        let branch = match named("branch")? {
            None => Branching::Mrv,
            Some(name) => name.parse().map_err(|e| format!("{e}"))?,
        };
        let cut = match value.get("cut") {
            None | Some(Value::Null) => None,
            Some(Value::String(hex)) if hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Some(hex.clone())
            }
            Some(_) => return Err("`cut` is not a cut's fingerprint (16 hex digits)".to_owned()),
        };
        Ok(Part {
            fingerprint,
            shard,
            tie_break,
            branch,
            cut,
            solutions: solutions.clone(),
            complete: field("complete")?.as_bool().ok_or("`complete` is not true or false")?,
            stats: Stats {
                nodes: number("nodes")?,
                guesses: number("guesses")?,
                updates: number("updates")?,
                solutions,
                cleansings: number("cleansings")?,
            },
            time: field("time")?.as_f64().ok_or("`time` is not a number")?,
        })
    }
}

/// A count in JSON: a whole number of any length (counts pass 2^64 with the memo), read exactly.
pub(crate) fn count_of(value: &Value) -> Option<Count> {
    value.as_number().and_then(|n| n.to_string().parse().ok())
}

/// A count as a JSON number, exactly, however long (JSON's numbers have no limit; the CLI's
/// `serde_json` keeps their digits).
pub(crate) fn count_json(count: &Count) -> Value {
    let number = count.to_string().parse().expect("decimal digits are a JSON number");
    Value::Number(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_read_back() {
        let part = Part {
            fingerprint: "ab".into(),
            shard: Shard::new(3, 8).unwrap(),
            tie_break: TieBreak::LastConflict,
            branch: Branching::Wdeg,
            cut: Some("0123456789abcdef".into()),
            solutions: "340282366920938463463374607431768211461".parse().unwrap(),
            complete: true,
            stats: Stats {
                nodes: 1,
                guesses: 2,
                updates: 3,
                solutions: "340282366920938463463374607431768211461".parse().unwrap(),
                cleansings: 4,
            },
            time: 0.5,
        };
        assert_eq!(Part::from_json(&part.to_json()), Ok(part.clone()));
        assert!(Part::from_json(&json!({"shard": "1/2"})).unwrap_err().contains("fingerprint"));
        // A record from before the rules were recorded was made by the default rules.
        let mut old = part.to_json();
        old.as_object_mut().unwrap().retain(|k, _| k != "tie_break" && k != "branch");
        let read = Part::from_json(&old).unwrap();
        assert_eq!((read.tie_break, read.branch), (TieBreak::Earliest, Branching::Mrv));
        old["branch"] = json!("dom");
        assert!(Part::from_json(&old).unwrap_err().contains("unknown branching rule `dom`"));
        // A whole count's record, or one from before the cut was kept, has none.
        let mut whole = part.to_json();
        whole["cut"] = Value::Null;
        assert_eq!(Part::from_json(&whole).unwrap().cut, None);
        whole.as_object_mut().unwrap().remove("cut");
        assert_eq!(Part::from_json(&whole).unwrap().cut, None);
        whole["cut"] = json!("xyz");
        assert!(Part::from_json(&whole).unwrap_err().contains("`cut`"));
    }
}
