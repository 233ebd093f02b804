//! How far a parallel run has come, for whoever shows it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::count::Count;

/// How far a parallel run has come, shared with whoever shows it (another thread, say): see
/// [`ParallelSolver::set_progress`](super::ParallelSolver::set_progress). Updated as each subtree
/// is done.
#[derive(Debug, Default)]
pub struct Progress {
    /// The fraction of the tree done, as the bits of an `f64`.
    done: AtomicU64,
    solutions: Mutex<Count>,
    nodes: AtomicU64,
}

impl Progress {
    /// A progress at 0, to share.
    pub fn new() -> Arc<Progress> {
        Arc::new(Progress::default())
    }

    /// The estimated fraction of the search done, from 0 to 1: the sum of Knuth's measures of the
    /// subtrees done (see [`Subtree::weight`](crate::Subtree::weight)). It moves in steps, one per
    /// subtree (all at once when the first, sequential attempt searches the whole tree).
    pub fn fraction(&self) -> f64 {
        f64::from_bits(self.done.load(Ordering::Relaxed)).clamp(0.0, 1.0)
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> Count {
        self.solutions.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Counts a subtree as done: its weight, its solutions and its nodes. The runs call it; a
    /// caller may too, for subtrees counted elsewhere (by an earlier run that a checkpoint
    /// recorded, say).
    pub fn add_done(&self, weight: f64, solutions: &Count, nodes: u64) {
        let mut old = self.done.load(Ordering::Relaxed);
        loop {
            let new = (f64::from_bits(old) + weight).to_bits();
            match self.done.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => old = now,
            }
        }
        *self.solutions.lock().unwrap_or_else(PoisonError::into_inner) += solutions;
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }
}
