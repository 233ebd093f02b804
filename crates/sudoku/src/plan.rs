//! Where the generator splits the pieces it thins out, learned from the puzzles it made before.
//!
//! The generator tests pieces (clue groups, even markers) in a random order, each with every later
//! piece applied, by splitting ranges of pieces: the second part is applied while the first is
//! tested (see `generate::thin_out`). A split of the range
//! `lo..hi` at `mid` costs an application (and an undo) of each piece of `mid..hi`, and an undo (and
//! a new application) of each piece of `lo..mid` that is kept. Early pieces are almost always
//! removed (the puzzle still has most of its clues), late ones mostly kept: measured over 2,000
//! rotational classic puzzles, the first 12 of 41 clue groups were kept less than 3% of the time,
//! the last 8 more than 79%. So splits that leave the early pieces together in first parts, and
//! cut the late ones in halves, cost less than halving everywhere.
//!
//! A [`Profile`] counts, for one number of pieces, how often the piece at each position was kept,
//! and from time to time plans the splits that minimize the expected cost above, by dynamic
//! programming over ranges. Splits change only how much work the generator does, never which
//! pieces it keeps: a generator's puzzles do not depend on what it made before. Measured against
//! halves (`cargo bench --bench generate`): rotational puzzles 12% faster for classic, 7% for
//! diagonal, 5% for even-cell.

/// After this many runs, a profile stops planning again: its estimates are settled.
const LAST_PLAN: u32 = 4096;

/// How often the piece at each position was kept, over the runs of one number of pieces, and the
/// splits planned from that.
#[derive(Clone, Debug)]
pub(crate) struct Profile {
    /// The number of pieces.
    n: usize,
    /// `kept[k]`: the runs that kept the piece at position `k`.
    kept: Vec<u32>,
    runs: u32,
    /// `mid[lo * (n + 1) + hi]`: where to split the range `lo..hi`; empty until planned.
    mid: Vec<u8>,
}

impl Profile {
    /// A profile for `n` pieces (at most 255), without runs: it halves every range.
    fn new(n: usize) -> Profile {
        assert!(n < 256, "splits are stored as bytes");
        Profile { n, kept: vec![0; n], runs: 0, mid: Vec::new() }
    }

    /// Where to split `range` (of at least two pieces): the first position of its second part.
    pub(crate) fn split(&self, range: std::ops::Range<usize>) -> usize {
        debug_assert!(range.len() >= 2 && range.end <= self.n);
        if self.mid.is_empty() {
            range.start + range.len() / 2
        } else {
            usize::from(self.mid[range.start * (self.n + 1) + range.end])
        }
    }

    /// Counts a run that kept the pieces at the positions `kept`; plans again after 4, 16, 64, ...
    /// runs, up to [`LAST_PLAN`].
    pub(crate) fn record(&mut self, kept: &[usize]) {
        for &k in kept {
            self.kept[k] = self.kept[k].saturating_add(1);
        }
        self.runs = self.runs.saturating_add(1);
        if self.runs >= 4
            && self.runs <= LAST_PLAN
            && self.runs.is_power_of_two()
            && self.runs.trailing_zeros().is_multiple_of(2)
        {
            self.plan();
        }
    }

    /// The splits of least expected cost (see the module docs), for the estimated chance
    /// `(kept + 1) / (runs + 2)` that each piece is kept.
    fn plan(&mut self) {
        let n = self.n;
        let at = |lo: usize, hi: usize| lo * (n + 1) + hi;
        // `expected[k]`: the expected number of kept pieces among the first `k`.
        let mut expected = vec![0.0; n + 1];
        for k in 0..n {
            expected[k + 1] = expected[k] + f64::from(self.kept[k] + 1) / f64::from(self.runs + 2);
        }
        let mut cost = vec![0.0f64; (n + 1) * (n + 1)];
        let mut mid = vec![0u8; (n + 1) * (n + 1)];
        for len in 2..=n {
            for lo in 0..=n - len {
                let hi = lo + len;
                let (mut best, mut best_mid) = (f64::INFINITY, lo + len / 2);
                for m in lo + 1..hi {
                    let c = pieces(hi - m) + (expected[m] - expected[lo]) + cost[at(lo, m)] + cost[at(m, hi)];
                    if c < best {
                        (best, best_mid) = (c, m);
                    }
                }
                cost[at(lo, hi)] = best;
                mid[at(lo, hi)] = u8::try_from(best_mid).expect("fewer than 256 pieces");
            }
        }
        self.mid = mid;
    }
}

/// A number of pieces (fewer than 256) as a cost.
fn pieces(n: usize) -> f64 {
    f64::from(u8::try_from(n).expect("fewer than 256 pieces"))
}

/// One [`Profile`] for each number of pieces met.
#[derive(Clone, Debug, Default)]
pub(crate) struct Profiles {
    by_count: Vec<Option<Profile>>,
}

impl Profiles {
    /// The profile for `n` pieces.
    pub(crate) fn get(&mut self, n: usize) -> &mut Profile {
        if self.by_count.len() <= n {
            self.by_count.resize(n + 1, None);
        }
        self.by_count[n].get_or_insert_with(|| Profile::new(n))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The expected cost of `profile`'s splits of `lo..hi`, for pieces kept with chances `p`.
    fn cost(profile: &Profile, p: &[f64], lo: usize, hi: usize) -> f64 {
        if hi - lo < 2 {
            return 0.0;
        }
        let m = profile.split(lo..hi);
        assert!(lo < m && m < hi, "{m} splits {lo}..{hi}");
        (hi - m) as f64 + p[lo..m].iter().sum::<f64>() + cost(profile, p, lo, m) + cost(profile, p, m, hi)
    }

    #[test]
    fn planned_splits_cost_no_more_than_halving_and_less_when_early_pieces_go() {
        let n = 41;
        let mut profile = Profiles::default().get(n).clone();
        // Pieces kept more often the later they come, as in generation.
        let runs: Vec<Vec<usize>> = (0..16)
            .map(|r| (0..n).filter(|&k| (k * 16 + r * 7) % 41 < k.saturating_sub(12)).collect())
            .collect();
        let p: Vec<f64> =
            (0..n).map(|k| runs.iter().filter(|kept| kept.contains(&k)).count() as f64 / 16.0).collect();
        let halving = cost(&profile, &p, 0, n);
        for kept in &runs {
            profile.record(kept);
        }
        assert!(!profile.mid.is_empty(), "planned after 16 runs");
        let planned = cost(&profile, &p, 0, n);
        assert!(planned < 0.9 * halving, "planned {planned}, halving {halving}");
        // When every piece is as likely kept as removed, the plan still costs no more than halving.
        let mut even = Profile::new(n);
        for r in 0..4 {
            even.record(&(0..n).filter(|k| (k + r) % 2 == 0).collect::<Vec<_>>());
        }
        let half = vec![0.5; n];
        let halving = cost(&Profile::new(n), &half, 0, n);
        assert!(cost(&even, &half, 0, n) <= halving + 1e-9);
    }

    /// The least expected cost of any splits of `lo..hi`, by trying them all.
    fn least_cost(p: &[f64], lo: usize, hi: usize) -> f64 {
        (lo + 1..hi)
            .map(|m| {
                (hi - m) as f64 + p[lo..m].iter().sum::<f64>() + least_cost(p, lo, m) + least_cost(p, m, hi)
            })
            .fold(if hi - lo < 2 { 0.0 } else { f64::INFINITY }, f64::min)
    }

    proptest! {
        /// After any runs, every range splits into two non-empty parts, and the planned splits
        /// cost what the best splits cost (found by trying every one, for the chances the profile
        /// estimates).
        #[test]
        fn planned_splits_are_the_cheapest(
            n in 2usize..9,
            runs in prop::collection::vec(prop::collection::vec(any::<bool>(), 8), 4..20),
        ) {
            let mut profile = Profile::new(n);
            for kept in &runs {
                profile.record(&(0..n).filter(|&k| kept[k]).collect::<Vec<_>>());
            }
            prop_assert!(!profile.mid.is_empty());
            // The chances the last plan estimated: after 16 runs, or after 4.
            let planned_at = if runs.len() >= 16 { 16 } else { 4 };
            let p: Vec<f64> = (0..n)
                .map(|k| (runs[..planned_at].iter().filter(|kept| kept[k]).count() as f64 + 1.0) / (planned_at as f64 + 2.0))
                .collect();
            for lo in 0..n {
                for hi in lo + 2..=n {
                    let planned = cost(&profile, &p, lo, hi);
                    let best = least_cost(&p, lo, hi);
                    prop_assert!((planned - best).abs() < 1e-9, "{lo}..{hi}: planned {planned}, best {best}");
                }
            }
        }
    }
}
