//! Subtrees: the top of the search walked to a given depth and cut there, and the search of one
//! subtree by another solver, so that one search can be shared among threads or machines.
//!
//! [`Solver::split`] runs the search with a cap: on reaching the capped level it records the path
//! (the option node tried at each level above, or, with multiplicities, an item's header for a
//! null move) instead of going deeper, and backtracks as after a solution. A solution found above
//! the cap is recorded the same way, as a subtree of one leaf. The subtrees come out in the order
//! the search meets them, so that visiting them in that order visits the solutions in the order
//! of one uncut search. In a problem with colors the walk also stops above a level where one or
//! two primary items are left (a *final* subtree, [`Subtree::is_final`]): a count reads those
//! levels off at once, covering nothing (see `search`), so the walk leaves them to the pieces,
//! and a cut count's figures add up to one count's (a visit covers them, and updates more).
//!
//! [`Solver::count_subtree`] and [`Solver::visit_subtree`] *replay* a path: at each level they do
//! exactly what the search did there before trying the path's node (cover the item, or with
//! multiplicities lower its bound and tweak the options before the node), which gives the links
//! the very state the uncut search had; then they search from there, and undo the path. So a
//! subtree's run makes exactly the nodes and updates the uncut search made below the cap, and the
//! walk's own figures plus every subtree's add up to those of one uncut run (with the default
//! tie-break; the last-conflict rule and seeds depend on the history, and change the figures but
//! not the solutions).

use crate::count::Count;
use crate::index::OptionId;
use crate::problem::Problem;

use super::Step;
use super::{Finished, Interrupted, Solver, Stats, Visitor, multi};

/// A subtree of a solver's search tree, as [`Solver::split`] cut it: the path of choices from the
/// root. It belongs to the problem (and the forced and excluded options) it was cut from.
#[derive(Clone, Debug)]
pub struct Subtree {
    path: Box<[u32]>,
    /// Whether the path ends at a solution (a subtree of one leaf, found above the cut).
    leaf: bool,
    /// Whether one primary item is left at the subtree's root, in a problem with colors: its
    /// options are its solutions, which a count takes at once, and a walk cuts it no further.
    last: bool,
    /// Knuth's measure of the subtree: the product over the levels above it of 1/d, where d is
    /// the number of ways the search had to branch at that level.
    weight: f64,
}

/// Subtrees are equal when their paths are (the weight follows from the path).
impl PartialEq for Subtree {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.leaf == other.leaf
    }
}

impl Eq for Subtree {}

impl std::hash::Hash for Subtree {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.path.hash(state);
        self.leaf.hash(state);
    }
}

impl Subtree {
    /// The number of levels above the subtree.
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// Whether the subtree is one solution, found above the cut: it cannot be cut further.
    pub fn is_leaf(&self) -> bool {
        self.leaf
    }

    /// Whether a walk cuts the subtree no further: a leaf, or a subtree of a problem with colors
    /// with one or two primary items left at its root (see the module docs), which is its own
    /// split.
    pub fn is_final(&self) -> bool {
        self.leaf || self.last
    }

    /// The share of the search tree the subtree stands for, by Knuth's measure: the product,
    /// over the levels above it, of 1/d, where the search had d ways to branch at that level.
    /// The weights of a split's subtrees add up to 1 less the share of the dead ends above the
    /// cut; summed over the subtrees done, they estimate the fraction of the search done.
    pub fn weight(&self) -> f64 {
        self.weight
    }
}

/// The top of a search tree, cut at a depth by [`Solver::split`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Split {
    /// The subtrees below the cut, the solutions above it as subtrees of one leaf, and with
    /// colors the final subtrees above it (see [`Subtree::is_final`]), in the order of the
    /// search.
    pub subtrees: Vec<Subtree>,
    /// What the walk above the cut did: nodes, guesses, updates and cleansings above it. Its
    /// `solutions` is 0: every solution is in a subtree.
    pub stats: Stats,
}

impl Split {
    /// A split of these subtrees, whose walk did `stats`.
    pub(crate) fn new(subtrees: Vec<Subtree>, stats: Stats) -> Split {
        Split { subtrees, stats }
    }

    /// A fingerprint of the cut, for `problem` (the one it was cut from): FNV-1a over each
    /// subtree, in order, of whether it is a leaf, the number of its options and the options
    /// (their positions in the problem; the null moves of multiplicities left out). The same
    /// wherever and whenever the problem is cut into the same subtrees; a cut made another way
    /// (by another version, or other rules) almost surely has another. Records of a count made
    /// piece by piece keep it, so that pieces of two different cuts are never added up.
    pub fn fingerprint(&self, problem: &Problem) -> u64 {
        fingerprint(problem, &self.subtrees)
    }
}

/// See [`Split::fingerprint`].
pub(crate) fn fingerprint(problem: &Problem, subtrees: &[Subtree]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let n_items = problem.item_count() as u64;
    for subtree in subtrees {
        eat(u64::from(subtree.leaf));
        let options = subtree.path.iter().filter(|&&x| u64::from(x) > n_items);
        eat(options.clone().count() as u64);
        options.for_each(|&x| eat(u64::from(problem.option_of_node(x).as_u32())));
    }
    hash
}

/// The path [`Solver::split_each`] keeps covered between one subtree and the next.
struct Mount {
    /// The level the paths start from.
    base: usize,
    /// The path covered.
    path: Vec<u32>,
    /// The length of the record of emptied items before each of its levels was covered.
    emptied: Vec<usize>,
}

impl Solver<'_> {
    /// Walks the search down to `depth` levels below the forced options and cuts it there: the
    /// subtrees below, each to be searched with [`count_subtree`](Self::count_subtree) or
    /// [`visit_subtree`](Self::visit_subtree) by this solver or another one of the same problem
    /// and restrictions (on another thread, say). The solutions of the subtrees, in order, are
    /// the solutions of the whole search, in its order; the walk's figures and those of the
    /// subtrees' runs add up to the figures of one whole run (see the module docs for the
    /// exceptions). A seed is ignored by the walk: the cut is the same on every solver.
    ///
    /// ```
    /// use dlx_engine::{Problem, Solver};
    /// let problem: Problem = "A B C\nA\nB\nC\nA B\nB C\n".parse().unwrap();
    /// let mut solver = Solver::new(&problem);
    /// let split = solver.split(1).unwrap();
    /// let mut sum = 0;
    /// for subtree in &split.subtrees {
    ///     sum += solver.count_subtree(subtree).unwrap();
    /// }
    /// assert_eq!(sum, solver.count().unwrap());
    /// ```
    pub fn split(&mut self, depth: usize) -> Result<Split, Interrupted> {
        self.start_run();
        self.cap = self.base.saturating_add(depth);
        let mut subtrees = Vec::new();
        let mut resume = false;
        let result = loop {
            match self.step(resume) {
                step @ (Step::Solution | Step::Frontier) => {
                    let path = self.chosen[self.base..self.level].into();
                    let weight = self.path_weight(self.base..self.level);
                    let leaf = matches!(step, Step::Solution);
                    let last = !leaf && self.links.is_colored() && self.links.active() <= 2;
                    subtrees.push(Subtree { path, leaf, last, weight });
                    resume = true;
                }
                Step::Exhausted => break Ok(()),
                Step::Interrupted(reason) => {
                    self.pending = true;
                    break Err(Interrupted { reason, solutions: Count::ZERO });
                }
            }
        };
        self.cap = usize::MAX;
        result?;
        // The solutions above the cut are counted by their subtrees' runs.
        let stats = Stats { solutions: Count::ZERO, ..self.stats.clone() };
        self.stats = stats.clone();
        Ok(Split { subtrees, stats })
    }

    /// Cuts a subtree further: [`split`](Self::split) run from the subtree's root, `depth` levels
    /// down. The subtrees returned have the whole path from the root of the search, and are to
    /// be searched as any other; the figures are those of the walk inside the subtree. Panics as
    /// [`count_subtree`](Self::count_subtree) does.
    pub fn split_subtree(&mut self, subtree: &Subtree, depth: usize) -> Result<Split, Interrupted> {
        let mut split = self.in_subtree(subtree, |s| s.split(depth))?;
        for below in &mut split.subtrees {
            below.path = subtree.path.iter().chain(below.path.iter()).copied().collect();
            below.weight *= subtree.weight;
        }
        Ok(split)
    }

    /// Cuts each of `subtrees` one level further, as [`split_subtree`](Self::split_subtree)
    /// does, and where that level is forced (one subtree below, not final) goes on down, up to
    /// `forced` more levels, until the search branches or ends; a final subtree stays as it is.
    /// One split per subtree, in order, each with the figures of its walks. The subtrees are
    /// replayed one after the other from the path the previous one left covered: only the levels
    /// below the paths' common start are undone and covered, so a run of neighbours costs about
    /// one walk of their tree, not a replay from the root each (with multiplicities, whose
    /// replays tweak the levels, each subtree is replayed from the root).
    pub(crate) fn split_each(
        &mut self,
        subtrees: &[Subtree],
        forced: usize,
    ) -> Result<Vec<Split>, Interrupted> {
        let mut splits = Vec::with_capacity(subtrees.len());
        self.settle();
        let mut mount =
            self.multi.is_none().then(|| Mount { base: self.base, path: Vec::new(), emptied: Vec::new() });
        let result = subtrees.iter().try_for_each(|subtree| {
            if subtree.is_final() {
                splits.push(Split { subtrees: vec![subtree.clone()], stats: Stats::default() });
                return Ok(());
            }
            let mut split = self.split_from(mount.as_mut(), subtree)?;
            for _ in 0..forced {
                let [only] = split.subtrees.as_slice() else { break };
                if only.is_final() {
                    break;
                }
                let below = self.split_from(mount.as_mut(), &only.clone())?;
                let mut stats = split.stats;
                stats.add(&below.stats);
                split = Split { subtrees: below.subtrees, stats };
            }
            splits.push(split);
            Ok(())
        });
        if let Some(mount) = &mut mount {
            self.settle();
            self.mount(mount, &[]);
        }
        result.map(|()| splits)
    }

    /// [`split_subtree`](Self::split_subtree) of `subtree`, from the path `mount` holds covered
    /// when there is one (see [`split_each`](Self::split_each)).
    fn split_from(&mut self, mount: Option<&mut Mount>, subtree: &Subtree) -> Result<Split, Interrupted> {
        let Some(mount) = mount else { return self.split_subtree(subtree, 1) };
        self.mount(mount, &subtree.path);
        let mut split = self.split(1)?;
        for below in &mut split.subtrees {
            below.path = subtree.path.iter().chain(below.path.iter()).copied().collect();
            below.weight *= subtree.weight;
        }
        Ok(split)
    }

    /// Moves the links from the root of the path `mount` holds covered to the root of `path`
    /// (both from `mount.base`): the levels below their common start are undone, deepest first,
    /// each with the record of emptied items truncated as the search's backtracking does, and
    /// `path`'s levels below it covered as [`in_subtree`](Self::in_subtree) covers them. An empty
    /// `path` puts the links back as they were before the first move. Nothing may be pending.
    fn mount(&mut self, mount: &mut Mount, path: &[u32]) {
        let common = mount.path.iter().zip(path).take_while(|(a, b)| a == b).count();
        while mount.path.len() > common {
            let (x, emptied) = (mount.path.pop(), mount.emptied.pop());
            if let (Some(x), Some(emptied)) = (x, emptied) {
                self.links.with(|d| d.uncover_choice(x));
                self.links.truncate_emptied(emptied);
            }
        }
        assert!(
            mount.base + path.len() < self.chosen.len(),
            "the subtree is deeper than this problem's search"
        );
        let n_items = self.links.item_count();
        for &x in &path[common..] {
            assert!(
                (x as usize) < self.problem.node_count() && x > n_items,
                "the subtree is not of this problem"
            );
            self.chosen[mount.base + mount.path.len()] = x;
            mount.emptied.push(self.links.emptied_len());
            self.links.with(|d| d.cover_choice(x));
            mount.path.push(x);
        }
        self.base = mount.base + path.len();
        self.level = self.base;
    }

    /// The number of solutions in a subtree of this solver's search, which [`split`](Self::split)
    /// cut; [`stats`](Self::stats) then tells what the run below the cut did. Panics if the
    /// subtree was cut from a solver of another problem, or with other restrictions.
    pub fn count_subtree(&mut self, subtree: &Subtree) -> Result<u64, Interrupted> {
        self.in_subtree(subtree, |s| s.count())
    }

    /// [`count_subtree`](Self::count_subtree), however large the count: with the memo where
    /// it is set or chosen, as [`count_exact`](Self::count_exact) counts.
    pub fn count_subtree_exact(&mut self, subtree: &Subtree) -> Result<Count, Interrupted> {
        self.in_subtree(subtree, |s| s.count_exact())
    }

    /// [`count_subtree`](Self::count_subtree), counting no further than `limit` (at least 1):
    /// `Ok(limit)` means "at least `limit`". Panics as `count_subtree` does.
    pub fn count_subtree_up_to(&mut self, subtree: &Subtree, limit: u64) -> Result<u64, Interrupted> {
        self.in_subtree(subtree, |s| s.count_up_to(limit.max(1)))
    }

    /// Shows each solution of a subtree to `visitor`, in the order of the search, as
    /// [`visit`](Self::visit) does for the whole tree. Panics as
    /// [`count_subtree`](Self::count_subtree) does.
    pub fn visit_subtree<V: Visitor + ?Sized>(
        &mut self,
        subtree: &Subtree,
        visitor: &mut V,
    ) -> Result<Finished, Interrupted> {
        self.in_subtree(subtree, |s| s.visit(visitor))
    }

    /// The options of the path to a subtree (null moves left out), as the search chose them.
    pub fn subtree_options(&self, subtree: &Subtree) -> Vec<OptionId> {
        let n_items = self.links.item_count();
        subtree.path.iter().filter(|&&x| x > n_items).map(|&x| self.problem.option_of_node(x)).collect()
    }

    /// Knuth's estimate of the share of the search tree done by a run that its budget stopped
    /// (pending): the sum over the levels it stands on of the share of the options tried before
    /// the current one, each weighted by the levels above ([`path_weight`](Self::path_weight)).
    /// `None` with multiplicities, whose levels also try null moves and tweaks.
    pub(crate) fn fraction_done(&self) -> Option<f64> {
        if self.multi.is_some() || !self.pending {
            return None;
        }
        let uds = self.links.uds();
        let (mut done, mut weight) = (0.0, 1.0);
        for l in self.base..self.level {
            let x = self.chosen[l];
            let item = self.problem.tops[x as usize];
            let ways = f64::from(self.links.len_of(item).max(1));
            let mut before = 0u32;
            let mut q = uds[x as usize].up;
            while q != item {
                before += 1;
                q = uds[q as usize].up;
            }
            done += weight * f64::from(before) / ways;
            weight /= ways;
        }
        Some(done)
    }

    /// Knuth's measure of the levels `levels` as they stand: the product of 1/d, d being the
    /// ways to branch at each level (its item's options, or with multiplicities Knuth's count).
    fn path_weight(&self, levels: std::ops::Range<usize>) -> f64 {
        let n_items = self.links.item_count();
        levels
            .map(|l| {
                let ways = match &self.multi {
                    Some(m) => m.ways(l),
                    None => {
                        let x = self.chosen[l];
                        let item = if x <= n_items { x } else { self.problem.tops[x as usize] };
                        self.links.len_of(item)
                    }
                };
                1.0 / f64::from(ways.max(1))
            })
            .product()
    }

    /// Runs `run` with the links in the state of `subtree`'s root, the path's levels frozen below
    /// the search; then undoes the path. Leaves nothing pending.
    fn in_subtree<R>(&mut self, subtree: &Subtree, run: impl FnOnce(&mut Self) -> R) -> R {
        self.settle();
        let (base, emptied) = (self.base, self.links.emptied_len());
        let path = &subtree.path;
        assert!(base + path.len() < self.chosen.len(), "the subtree is deeper than this problem's search");
        let n_items = self.links.item_count();
        for (k, &x) in path.iter().enumerate() {
            assert!(
                (x as usize) < self.problem.node_count() && (x > n_items || self.multi.is_some()),
                "the subtree is not of this problem"
            );
            self.chosen[base + k] = x;
            match &mut self.multi {
                None => self.links.with(|d| d.cover_choice(x)),
                Some(m) => multi::replay(&mut self.links, m, base + k, x, emptied),
            }
        }
        self.base = base + path.len();
        self.level = self.base;
        let result = run(self);
        self.settle();
        match &mut self.multi {
            None => {
                for &x in path.iter().rev() {
                    self.links.with(|d| d.uncover_choice(x));
                }
            }
            Some(m) => {
                // The path's levels were replayed in list order, not shuffled.
                m.set_shuffled(false);
                let (mut pool, mut pool_pos) = (Vec::new(), Vec::new());
                let chosen = &self.chosen;
                multi::unwind(&mut self.links, m, chosen, &mut pool, &mut pool_pos, base, self.base, emptied);
            }
        }
        self.links.truncate_emptied(emptied);
        self.base = base;
        self.level = base;
        result
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Split, Subtree};
    use crate::Solver;
    use crate::testing::problem;

    /// A subtree as a split says it: its path, leaf and final flags, and weight.
    type Said = (Vec<u32>, bool, bool, f64);

    /// What a split says: each subtree, and the figures.
    fn said(split: &Split) -> (Vec<Said>, crate::Stats) {
        let subtrees = split.subtrees.iter().map(|t| (t.path.to_vec(), t.leaf, t.last, t.weight)).collect();
        (subtrees, split.stats.clone())
    }

    /// [`Solver::split_each`] as a replay from the root for each subtree would make it.
    fn one_by_one(solver: &mut Solver<'_>, subtrees: &[Subtree], forced: usize) -> Vec<Split> {
        let mut splits = Vec::new();
        for subtree in subtrees {
            if subtree.is_final() {
                splits.push(Split::new(vec![subtree.clone()], crate::Stats::default()));
                continue;
            }
            let mut split = solver.split_subtree(subtree, 1).unwrap();
            for _ in 0..forced {
                match split.subtrees.as_slice() {
                    [only] if !only.is_final() => {
                        let below = solver.split_subtree(&only.clone(), 1).unwrap();
                        let mut stats = split.stats;
                        stats.add(&below.stats);
                        split = Split::new(below.subtrees, stats);
                    }
                    _ => break,
                }
            }
            splits.push(split);
        }
        splits
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Subtrees cut from the path the previous one left covered are cut as from the root,
        /// subtree for subtree and figure for figure, through forced levels; the links are as
        /// before afterwards (the same cut again, the same count).
        #[test]
        fn neighbours_cut_as_from_the_root(problem in problem(), depth in 1usize..4, forced in 0usize..3) {
            let mut solver = Solver::new(&problem);
            let count = solver.count().unwrap();
            let subtrees = solver.split(depth).unwrap().subtrees;
            let expected: Vec<_> = one_by_one(&mut solver, &subtrees, forced).iter().map(said).collect();
            for _ in 0..2 {
                let got: Vec<_> = solver.split_each(&subtrees, forced).unwrap().iter().map(said).collect();
                prop_assert_eq!(&got, &expected);
            }
            prop_assert_eq!(solver.count().unwrap(), count);
        }
    }
}
