//! The memo's side of a solver: whether a count takes it (`Memo::Auto`'s probes), its settings,
//! its table (its own, or one shared with other threads), the memoized count and the ZDD (see
//! `bitsets` for the memo itself).

use super::{Interrupted, Memo, MemoStats, Solver, Stats, StopReason};
use crate::bitsets;
use crate::count::Count;
use crate::index::OptionId;

/// The nodes [`Memo::Auto`] counts without the memo, and then with it, before it chooses.
pub const MEMO_PROBE_NODES: u64 = 1 << 12;

/// How many times the nodes it takes the memo must save for [`Memo::Auto`] to keep it: a node
/// with the memo costs several times one without it (the signature's hash and the table's
/// lookup, on bit sets); where the memo pays, it has saved more than ten times its nodes by the
/// end of the probe, and the ratio grows fast; where it does not, the ratio stays near one
/// (`benches/RESULTS.md`).
pub const MEMO_GAIN: u64 = 8;

/// The nodes of [`Memo::Auto`]'s second probe with the memo, from a new table, made when the
/// first saved at least 1.5 times its nodes but less than [`MEMO_GAIN`] times: packings with
/// multiplicities, whose subproblems meet again less often at first than tilings' (their ratio
/// grows from about 2 after the first probe to 6 or more by the end of this one), against about
/// 1.1 to 1.2 for the problems where the memo does not pay (`benches/RESULTS.md`).
pub const MEMO_SECOND_PROBE_NODES: u64 = 1 << 16;

/// How many times its nodes the second probe must save for [`Memo::Auto`] to keep the memo.
pub const MEMO_SECOND_GAIN: u64 = 3;

/// The most bytes a memo's table takes unless [`Solver::set_memo_memory`] says otherwise: 4 GiB.
pub const DEFAULT_MEMO_MEMORY: usize = 4 << 30;

impl Solver<'_> {
    /// Whether counts to the end of this problem from the solver's state take the memo:
    /// under [`Memo::Always`], when the problem allows it (see [`Solver::set_memo`]); under
    /// [`Memo::Auto`], when a count of the first [`MEMO_PROBE_NODES`] nodes without it does not
    /// end there, and a count of as many with it saves [`MEMO_GAIN`] times its nodes, or saves
    /// 1.5 times and a second of [`MEMO_SECOND_PROBE_NODES`] saves [`MEMO_SECOND_GAIN`] times
    /// (the table of the last probe is kept for the count that follows, under [`Memo::Always`]
    /// then: the probes are not made twice); never otherwise.
    pub fn choose_memo(&mut self) -> bool {
        match self.memo {
            Memo::Always => self.memo_may_run(),
            Memo::Auto if self.memo_may_run() && self.budget.updates.is_none() => {
                self.probe_plain().is_none() && self.memo_pays()
            }
            _ => false,
        }
    }

    /// Whether the memo may count this problem from the solver's state (on bit sets, branching by
    /// minimum remaining values).
    pub(super) fn memo_may_run(&self) -> bool {
        self.bitsets.memo_fits() && self.bitsets_may_run() && self.chooser.is_mrv()
    }

    /// A count without the memo for at most [`MEMO_PROBE_NODES`] nodes: its answer (or its
    /// error) when it ends there, `None` when it runs out of them.
    pub(crate) fn probe_plain(&mut self) -> Option<Result<u64, Interrupted>> {
        let budget = self.budget;
        if budget.nodes.is_some_and(|n| n <= MEMO_PROBE_NODES) {
            return Some(self.count_to(u64::MAX));
        }
        self.budget.nodes = Some(MEMO_PROBE_NODES);
        let counted = self.count_to(u64::MAX);
        self.budget = budget;
        match counted {
            Err(Interrupted { reason: StopReason::Budget, .. }) => None,
            done => Some(done),
        }
    }

    /// [`Memo::Auto`]'s probe with the memo (see [`Solver::choose_memo`]): whether the memo
    /// pays; its table is dropped when not. Its figures are not kept.
    pub(crate) fn memo_pays(&mut self) -> bool {
        let budget = self.budget;
        let mut pays = false;
        for (nodes, gain) in [(MEMO_PROBE_NODES, MEMO_GAIN), (MEMO_SECOND_PROBE_NODES, MEMO_SECOND_GAIN)] {
            if budget.nodes.is_some_and(|n| n <= nodes) {
                break;
            }
            self.budget.nodes = Some(nodes);
            match self.count_memo().map_err(|e| e.reason) {
                // Counted within the first probe: the count again, from a new table (as quick),
                // so that its figures are those of a whole count.
                Ok(_) if nodes == MEMO_PROBE_NODES => {
                    self.bitsets.drop_memo();
                    pays = true;
                }
                // Within the second: as quick again only if the memo paid there.
                Ok(_) => {
                    let saved = self.memo_stats().unwrap_or_default().plain_nodes;
                    pays = saved / gain >= self.stats.nodes.max(1);
                    self.bitsets.drop_memo();
                }
                Err(StopReason::Budget) => {
                    let saved = self.memo_stats().unwrap_or_default().plain_nodes;
                    let taken = self.stats.nodes.max(1);
                    pays = saved / gain >= taken;
                    // Hope for the second probe: the first saved 1.5 times its nodes.
                    if !pays
                        && nodes == MEMO_PROBE_NODES
                        && saved.saturating_mul(2) >= taken.saturating_mul(3)
                    {
                        self.bitsets.drop_memo();
                        continue;
                    }
                }
                // Cancelled: the count that follows stops too.
                Err(_) => {}
            }
            break;
        }
        self.budget = budget;
        self.settle();
        if !pays {
            self.bitsets.drop_memo();
        }
        pays
    }

    /// Sets whether following counts remember the counts of subproblems (the default is
    /// [`Memo::Auto`]). The memo runs on bit sets, so for the problems they take (see
    /// [`Counting::BitSets`](super::Counting::BitSets)), and for those with multiplicities of the
    /// same sizes (whose signatures hold the bounds still open), counted to the end
    /// ([`count`](Self::count), [`count_exact`](Self::count_exact); not
    /// [`count_up_to`](Self::count_up_to)), and its table is kept from one count to the next (each
    /// entry names a whole subproblem, whatever is forced or excluded). Under [`Memo::Auto`], a
    /// count chooses by probing (see [`Solver::choose_memo`]).
    ///
    /// ```
    /// use dlx_engine::{Memo, ProblemBuilder, Solver};
    /// // Dominoes on a board of 2 rows and 12 columns: 233 tilings (a Fibonacci number).
    /// let mut b = ProblemBuilder::new();
    /// let cells: Vec<_> = (0..24).map(|c| b.primary(format!("c{c}")).unwrap()).collect();
    /// for c in 0..24 {
    ///     if c % 12 < 11 {
    ///         b.option([cells[c], cells[c + 1]]).unwrap();
    ///     }
    ///     if c < 12 {
    ///         b.option([cells[c], cells[c + 12]]).unwrap();
    ///     }
    /// }
    /// let problem = b.build();
    /// let mut solver = Solver::new(&problem);
    /// solver.set_memo(Memo::Always);
    /// assert_eq!(solver.count_exact()?, 233);
    /// let memo = solver.memo_stats().unwrap();
    /// assert!(memo.hits > 0 && memo.plain_nodes > solver.stats().nodes);
    /// # Ok::<(), dlx_engine::Interrupted>(())
    /// ```
    pub fn set_memo(&mut self, memo: Memo) {
        self.memo = memo;
    }

    /// Sets the most bytes the memo's table may take (the default is
    /// [`DEFAULT_MEMO_MEMORY`]). A table at its budget stores no more subproblems and the count
    /// goes on without them. Takes effect for a table not made yet.
    pub fn set_memo_memory(&mut self, bytes: usize) {
        self.memo_memory = bytes;
    }

    /// The ZDD of every solution below the restrictions (see [`zdd`](crate::zdd)), made by a
    /// count with the memo on a table made afresh (kept for later counts, as a memoized count's
    /// is); its figures are the count's ([`stats`](Self::stats),
    /// [`memo_stats`](Self::memo_stats)). The memo's budget of bytes
    /// ([`set_memo_memory`](Self::set_memo_memory)) bounds the diagram's nodes as much again: a
    /// larger one stops the count with [`StopReason::Memory`].
    pub fn zdd(&mut self) -> Result<crate::Zdd, crate::ZddError> {
        if !self.memo_may_run() || self.multi.is_some() {
            return Err(crate::ZddError::NotOnBitSets);
        }
        self.start_run();
        let limits = bitsets::Limits::new(u64::MAX, self.budget, self.cancel.as_ref());
        let memory = self.memo_memory;
        let made =
            self.bitsets.count_memo(self.problem, &self.links, None, &limits, memory, &mut self.stats, true);
        let solutions = self.stats.solutions.clone();
        made.map_err(|reason| Interrupted { reason, solutions })?;
        let (nodes, root) = self.bitsets.take_zdd();
        let nodes = nodes
            .into_iter()
            .map(|[option, lo, hi]| crate::ZddNode { option: OptionId::from_u32(option), lo, hi })
            .collect();
        Ok(crate::Zdd::new(nodes, root, self.forced().collect()))
    }

    /// The memo's figures, when a count has used a table of this solver's own.
    pub fn memo_stats(&self) -> Option<MemoStats> {
        self.bitsets.memo_stats()
    }

    /// Makes memoized counts look subproblems up in `shared`, a table shared with other threads'
    /// solvers of this problem, made for [`memo_key_words`](Self::memo_key_words) (`None`: in
    /// a table of this solver's own).
    pub(crate) fn share_memo(&mut self, shared: Option<std::sync::Arc<bitsets::Shared>>) {
        self.bitsets.share_memo(shared);
    }

    /// The memo's table of this solver's own, taken out (as a table shared by threads holding
    /// the same entries, of `budget` bytes), or an empty shared table if there is none.
    pub(crate) fn share_own_memo(&mut self, budget: usize) -> std::sync::Arc<bitsets::Shared> {
        let shared = match self.bitsets.take_memo() {
            Some(table) => bitsets::Shared::from_table(&table, budget),
            None => bitsets::Shared::new(self.memo_key_words(), budget),
        };
        std::sync::Arc::new(shared)
    }

    /// The words of the memo's keys for this problem.
    pub(crate) fn memo_key_words(&mut self) -> usize {
        self.bitsets.key_words(self.problem)
    }

    /// Makes memoized counts try each level's options last first: for threads that share a
    /// table (the count is the same either way).
    pub(crate) fn set_memo_backwards(&mut self, backwards: bool) {
        self.bitsets.set_backwards(backwards);
    }

    /// The nodes the last memoized count would have taken without the memo (saturating).
    pub(crate) fn memo_plain_nodes(&self) -> u64 {
        self.bitsets.plain_nodes()
    }

    /// The upper thread's part of a count in two bands (see `bitsets::band`): the ZDD of the
    /// levels above `band`'s, made on a table made afresh, its nodes and root, with the figures of
    /// its search ([`stats`](Self::stats)).
    pub(crate) fn count_upper(&mut self, band: &bitsets::Band) -> Result<(Vec<[u32; 3]>, u32), Interrupted> {
        self.start_run();
        let mut limits = bitsets::Limits::new(u64::MAX, self.budget, self.cancel.as_ref());
        limits.band = Some(band);
        let memory = self.memo_memory;
        let made =
            self.bitsets.count_memo(self.problem, &self.links, None, &limits, memory, &mut self.stats, true);
        let solutions = self.stats.solutions.clone();
        made.map_err(|reason| Interrupted { reason, solutions })?;
        Ok(self.bitsets.take_zdd())
    }

    /// The lower thread's part of a count in two bands: the count of each subproblem `band` hands
    /// over, in turn, until the upper thread is done, and the nodes each would have taken without
    /// the memo, with the figures of all its searches added up.
    pub(crate) fn count_lower(
        &mut self,
        band: &bitsets::Band,
    ) -> Result<(Vec<Count>, Vec<u64>, Stats), Interrupted> {
        let cancel = self.cancel.clone();
        let limits = bitsets::Limits::new(u64::MAX, self.budget, cancel.as_ref());
        let memory = self.memo_memory;
        let words = band.words();
        let (mut counts, mut plain, mut keys, mut sum) =
            (Vec::new(), Vec::new(), Vec::new(), Stats::default());
        self.start_run();
        loop {
            keys.clear();
            band.take(counts.len(), &mut keys);
            if keys.is_empty() {
                return Ok((counts, plain, sum));
            }
            for key in keys.chunks_exact(words) {
                let counted =
                    self.bitsets.count_key(self.problem, &self.links, key, &limits, memory, &mut self.stats);
                sum.add(&self.stats);
                match counted {
                    Ok(count) => counts.push(count),
                    Err(reason) => return Err(Interrupted { reason, solutions: sum.solutions }),
                }
                plain.push(self.bitsets.plain_nodes());
            }
        }
    }

    /// The level at which a count in two bands hands its subproblems over (see `bitsets::band`).
    pub(crate) fn memo_band_level(&mut self) -> usize {
        self.bitsets.band_level(self.problem)
    }

    /// Moves this solver's own memo table into `other`'s, a solver of the same problem.
    pub(crate) fn move_memo_to(&mut self, other: &mut Solver<'_>) {
        self.bitsets.move_memo_to(&mut other.bitsets);
    }

    /// Whether a count in two bands may take this problem: on bit sets with the memo, without
    /// colors nor multiplicities.
    pub(crate) fn memo_in_bands(&mut self) -> bool {
        self.memo_may_run() && self.multi.is_none() && !self.bitsets.colored(self.problem)
    }

    /// A count with the memo, on bit sets.
    pub(super) fn count_memo(&mut self) -> Result<Count, Interrupted> {
        self.start_run();
        let limits = bitsets::Limits::new(u64::MAX, self.budget, self.cancel.as_ref());
        let memory = self.memo_memory;
        let bound = self.multi.as_ref().map(|m| m.bound.as_slice());
        let result = self.bitsets.count_memo(
            self.problem,
            &self.links,
            bound,
            &limits,
            memory,
            &mut self.stats,
            false,
        );
        let solutions = self.stats.solutions.clone();
        result.map_err(|reason| Interrupted { reason, solutions })
    }
}
