//! Shards: one of `N` disjoint parts of a search, for `N` runs on as many machines (see
//! [`ParallelSolver::set_shard`](super::ParallelSolver::set_shard)).

/// The largest number of shards.
pub const MAX_SHARDS: u32 = 1 << 20;

/// One of `count` disjoint parts of a search, numbered from 0: see
/// [`ParallelSolver::set_shard`](super::ParallelSolver::set_shard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A shard that does not exist: its index is not below the count, or the count is 0 or above
/// [`MAX_SHARDS`], or the text is not `K/N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard `{0}`: shards are K/N with N from 1 to {MAX_SHARDS} and K from 0 to N-1")]
pub struct InvalidShard(pub String);

impl Shard {
    /// The whole search, as shard 0 of 1.
    pub(super) const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, InvalidShard> {
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(InvalidShard(format!("{index}/{count}")));
        }
        Ok(Shard { index, count })
    }

    /// The shard's number, from 0.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of shards.
    pub fn count(self) -> u32 {
        self.count
    }
}

/// `K/N`, as [`Shard`]'s `Display` writes it.
impl std::str::FromStr for Shard {
    type Err = InvalidShard;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = || InvalidShard(s.to_owned());
        let (k, n) = s.split_once('/').ok_or_else(invalid)?;
        Shard::new(k.trim().parse().map_err(|_| invalid())?, n.trim().parse().map_err(|_| invalid())?)
            .map_err(|_| invalid())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
