//! Solutions drawn uniformly at random, from counts.
//!
//! Every solution of an exact cover problem covers each primary item with exactly one option. So
//! the solutions split by the option that covers a given item `i`, and a uniform draw takes each
//! option `x` of `i` with probability `count(x forced) / count`, forces it, and goes on below it
//! with the next item, until one solution is left. Each solution comes out with probability
//! exactly `1 / count`: the product of the ratios telescopes. The counts are the memo's where it
//! pays, whose table, kept from one count to the next, holds most of them after the first draw:
//! a draw then costs about the depth of a solution times the options of an item in lookups.
//! Without the memo, the counts below each path drawn are kept for the draws that follow the same
//! path: the first levels are counted once for all draws.

use std::collections::HashMap;
use std::ops::ControlFlow;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::count::Count;
use crate::index::OptionId;

use super::{Interrupted, Memo, Solution, Solver};

/// Why [`Solver::sample`] gave no solutions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// The problem has multiplicities: an item may take several options, or none, and the draw
    /// by the options of one item does not hold.
    #[error("solutions are drawn at random from problems without multiplicities only")]
    Multiplicities,
    /// A count it needed was cut short (a budget, or the cancel flag).
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

impl Solver<'_> {
    /// `n` solutions drawn uniformly at random (each solution equally likely, exactly, and drawn
    /// independently of the others, so that one may come out more than once), the same for the
    /// same `seed`; none when there is no solution. Each is the options of the solution, the
    /// forced ones first (see the module docs for how). Takes the memo as
    /// [`count_exact`](Self::count_exact) would.
    ///
    /// ```
    /// use dlx_engine::Problem;
    /// // Three items, and two ways to cover them: {A B, C} and {A, B C}.
    /// let problem: Problem = "A B C\nA B\nC\nA\nB C\n".parse().unwrap();
    /// let mut solver = dlx_engine::Solver::new(&problem);
    /// let drawn = solver.sample(100, 7)?;
    /// assert_eq!(drawn.len(), 100);
    /// // {A B, C} is about half of them.
    /// let ab = dlx_engine::OptionId::new(0).unwrap();
    /// let firsts = drawn.iter().filter(|s| s.contains(&ab)).count();
    /// assert!(firsts > 30 && firsts < 70, "{firsts}");
    /// assert_eq!(solver.sample(100, 7)?, drawn);
    /// # Ok::<(), dlx_engine::SampleError>(())
    /// ```
    pub fn sample(&mut self, n: usize, seed: u64) -> Result<Vec<Vec<OptionId>>, SampleError> {
        if self.multi.is_some() {
            return Err(SampleError::Multiplicities);
        }
        let memo = self.memo;
        // The memo, if it is taken, for every count of the draws: not probed again each time.
        if memo == Memo::Auto && self.choose_memo() {
            self.memo = Memo::Always;
        }
        let restrictions = self.restrictions.len();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut drawn = Vec::with_capacity(n.min(1 << 16));
        // The count below each path of options drawn (with the memo, its table keeps them).
        let mut counted = (self.memo != Memo::Always).then(HashMap::new);
        let result = (|| {
            let total = self.count_exact()?;
            if total.is_zero() {
                return Ok(());
            }
            for _ in 0..n {
                drawn.push(self.draw(total.clone(), &mut rng, counted.as_mut())?);
                while self.restrictions.len() > restrictions {
                    self.undo();
                }
            }
            Ok(())
        })();
        while self.restrictions.len() > restrictions {
            self.undo();
        }
        self.memo = memo;
        result.map(|()| drawn)
    }

    /// One solution drawn uniformly from the `total` below the solver's restrictions, forcing
    /// the options drawn on the way (the caller takes them back); the counts below each path,
    /// if `counted` is given, kept there and taken from there.
    fn draw(
        &mut self,
        mut total: Count,
        rng: &mut Xoshiro256PlusPlus,
        mut counted: Option<&mut HashMap<Vec<OptionId>, Count>>,
    ) -> Result<Vec<OptionId>, Interrupted> {
        let mut options = Vec::new();
        let mut path = Vec::new();
        while total > 1 {
            let item = self.narrowest_item().expect("a count above 1 leaves a primary item to cover");
            // The options of the item still possible.
            options.clear();
            let uds = self.links.uds();
            let mut p = uds[item as usize].down;
            while p != item {
                options.push(self.problem.option_of_node(p));
                p = uds[p as usize].down;
            }
            let mut r = total.random_below(rng);
            let mut next = None;
            for &x in &options {
                if self.force(x).is_err() {
                    continue;
                }
                path.push(x);
                let count = match counted.as_mut().and_then(|c| c.get(&path)) {
                    Some(count) => count.clone(),
                    None => {
                        let count = self.count_exact()?;
                        if let Some(counted) = counted.as_mut() {
                            counted.insert(path.clone(), count.clone());
                        }
                        count
                    }
                };
                if r < count {
                    next = Some(count);
                    break;
                }
                r = r.checked_sub(&count).expect("the draw is below the options' counts");
                path.pop();
                self.unforce();
            }
            total = next.expect("the options of an item share its count out");
        }
        // One solution left: the search finds it.
        let mut found = None;
        self.visit(&mut |s: &Solution<'_>| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        })?;
        Ok(found.expect("a count of 1 has a solution"))
    }

    /// The uncovered primary item with the fewest options left (the earliest of them), if any.
    fn narrowest_item(&self) -> Option<u32> {
        let primaries = u32::try_from(self.problem.primary_count()).ok()?;
        (1..=primaries).filter(|&i| !self.links.is_covered(i)).min_by_key(|&i| self.links.len_of(i))
    }
}
