//! Full grids with a symmetry of their own, for rules whose grids a random search finds only
//! after millions of nodes (anti-knight with a diagonal, anti-king with anti-knight on grids of
//! 10 to 16): the grid is asked to be invariant under a shift `g` that moves every cell by whole
//! boxes (`(r, c)` to `(r + a * rows, c + b * cols)`, around the edges) and renames its digits by
//! a permutation `σ` whose cycles all have `g`'s order. Such a grid is an exact cover of the orbit
//! options: each orbit `{(g^k x, σ^k d)}` of a placement is one option, the union of its
//! placements' items (an orbit that would cover an item twice is left out). The orbit problem
//! has as many options as the grid has cells, divided by `g`'s order, so a search of it takes a
//! few hundred nodes where the grid's own takes millions; its solutions are grids of the rules,
//! exactly, since every item is still covered once (or, secondary, at most once).
//!
//! Not every shift has such grids (a diagonal does not go onto itself under most), and the
//! grids found are a small family: the random search stays first, and this is its fallback.
//! The random digit cycles and shifts, and a random order of the search, keep runs apart.

use std::sync::Arc;

use dlx_engine::{Budget, CancelFlag, Interrupted, OptionId, ProblemBuilder, Solver, StopReason};
use rand::Rng;
use rand::seq::SliceRandom;

use crate::cover::Matrix;
use crate::model::{Parity, Puzzle, Rules, Size};

/// Nodes one search of an orbit problem may take: most that find a grid take a few hundred, a
/// few tens of thousands, and those that take more seldom find one (`benches/RESULTS.md`).
const ORBIT_NODES: u64 = 20_000;

/// A full grid of `rules` (the rules of `matrix`, without cages) invariant under one of the box
/// shifts, tried in a random order, each with a random renaming of the digits; `None` when no
/// shift gives one within [`ORBIT_NODES`] nodes. An error when `cancel` stops a search.
pub(crate) fn symmetric_grid(
    matrix: &Matrix,
    rules: &Arc<Rules>,
    rng: &mut impl Rng,
    cancel: Option<&CancelFlag>,
) -> Result<Option<Puzzle>, Interrupted> {
    let mut shifts = box_shifts(rules.size());
    shifts.shuffle(rng);
    symmetric_grid_under(matrix, rules, &shifts, rng, cancel)
}

/// The shifts of the grid by whole boxes, `(down, right)` in cells, but the one by none.
pub(crate) fn box_shifts(size: Size) -> Vec<(usize, usize)> {
    let (side, rows, cols) = (size.side(), size.box_rows(), size.box_cols());
    let mut shifts: Vec<(usize, usize)> =
        (0..side / rows).flat_map(|a| (0..side / cols).map(move |b| (a * rows, b * cols))).collect();
    shifts.retain(|&shift| shift != (0, 0));
    shifts
}

/// [`symmetric_grid`] under the given shifts only, in their order (a jigsaw map that one of them
/// keeps: see `generate::random_regions`).
pub(crate) fn symmetric_grid_under(
    matrix: &Matrix,
    rules: &Arc<Rules>,
    shifts: &[(usize, usize)],
    rng: &mut impl Rng,
    cancel: Option<&CancelFlag>,
) -> Result<Option<Puzzle>, Interrupted> {
    let side = rules.size().side();
    if !rules.cages().is_empty() {
        return Ok(None);
    }
    let shifts = shifts.iter().copied();
    for (down, right) in shifts {
        let order = lcm(side / gcd(down, side), side / gcd(right, side));
        // Digit cycles of any length that divides the shift's order (and the side): the longest
        // first, which keeps equal digits out of the cells a few shifts apart.
        for cycle in (1..=order).rev().filter(|&l| order.is_multiple_of(l) && side.is_multiple_of(l)) {
            if let Some(grid) = search_shift(matrix, rules, (down, right), (order, cycle), rng, cancel)? {
                return Ok(Some(grid));
            }
        }
    }
    Ok(None)
}

/// The search for a grid invariant under the shift by `(down, right)`, of order `order`, with a
/// random renaming of the digits in cycles of length `cycle` (which divides `order`).
fn search_shift(
    matrix: &Matrix,
    rules: &Arc<Rules>,
    (down, right): (usize, usize),
    (order, cycle): (usize, usize),
    rng: &mut impl Rng,
    cancel: Option<&CancelFlag>,
) -> Result<Option<Puzzle>, Interrupted> {
    let side = rules.size().side();
    let cells = side * side;
    let shift = |cell: usize| ((cell / side + down) % side) * side + (cell % side + right) % side;
    // The renaming: the digits in a random order, cut into cycles of `cycle` digits.
    let mut digits: Vec<usize> = (1..=side).collect();
    digits.shuffle(rng);
    let mut rename = vec![0; side + 1];
    for chunk in digits.chunks(cycle) {
        for (k, &d) in chunk.iter().enumerate() {
            rename[d] = chunk[(k + 1) % cycle];
        }
    }
    let fits = |cell: usize, digit: usize| match rules.parity(cell) {
        Parity::Any => true,
        Parity::Even => digit.is_multiple_of(2),
        Parity::Odd => digit % 2 == 1,
    };
    let problem = matrix.problem();
    let mut builder = ProblemBuilder::new();
    for item in problem.items() {
        if problem.is_primary(item) {
            builder.anonymous_primary().expect("as many items as the matrix");
        } else {
            builder.anonymous_secondary().expect("as many items as the matrix");
        }
    }
    // Each orbit once, from its first placement met; an orbit's options are its placements.
    let mut seen = vec![false; cells * (side + 1)];
    let mut orbits: Vec<Vec<(usize, u8)>> = Vec::new();
    let mut items = Vec::new();
    let mut used = vec![false; problem.item_count()];
    for cell in 0..cells {
        for digit in 1..=side {
            if seen[cell * (side + 1) + digit] {
                continue;
            }
            let (mut x, mut d) = (cell, digit);
            let mut orbit = Vec::with_capacity(order);
            let mut valid = true;
            for _ in 0..order {
                seen[x * (side + 1) + d] = true;
                valid &= fits(x, d);
                orbit.push((x, u8::try_from(d).expect("a digit of at most 25")));
                (x, d) = (shift(x), rename[d]);
            }
            debug_assert_eq!((x, d), (cell, digit), "the orbit closes after `order` steps");
            items.clear();
            for &(x, d) in &orbit {
                items.extend(problem.option_items(matrix.option(x, d)));
            }
            valid &= items.iter().all(|&item| !std::mem::replace(&mut used[item.index()], true));
            for &item in &items {
                used[item.index()] = false;
            }
            if valid {
                builder.option(items.iter().copied()).expect("items of the matrix, each once");
                orbits.push(orbit);
            }
        }
    }
    let orbit_problem = builder.build();
    let mut solver = Solver::new(&orbit_problem);
    solver.set_seed(Some(rng.random()));
    solver.set_budget(Budget { nodes: Some(ORBIT_NODES), updates: None });
    solver.set_cancel_flag(cancel.cloned());
    let found = match solver.first() {
        Ok(found) => found,
        Err(e) if e.reason == StopReason::Budget => None,
        Err(e) => return Err(e),
    };
    Ok(found.map(|options: Vec<OptionId>| {
        let mut grid = Puzzle::new(Arc::clone(rules));
        for option in options {
            for &(cell, digit) in &orbits[option.index()] {
                grid.set(cell, digit);
            }
        }
        grid
    }))
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::model::Constraint;

    /// The grids found are grids of the rules, every one of them (a grid that broke one would
    /// count 0 as a puzzle), for rules whose random searches take millions of nodes.
    #[test]
    fn symmetric_grids_obey_the_rules() {
        let cases: [(&str, &[Constraint]); 4] = [
            ("3x4", &[Constraint::Diagonals, Constraint::AntiKnight]),
            ("3x4", &[Constraint::AntiKing, Constraint::AntiKnight]),
            ("2x7", &[Constraint::AntiKnight]),
            ("3x3", &[Constraint::AntiKnight]),
        ];
        for (size, constraints) in cases {
            let mut rules = Rules::new(size.parse::<Size>().unwrap());
            for &c in constraints {
                rules.add(c);
            }
            let rules = Arc::new(rules);
            let matrix = Matrix::new(&rules);
            let mut found = 0;
            for seed in 0..4 {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let Some(grid) = symmetric_grid(&matrix, &rules, &mut rng, None).unwrap() else { continue };
                found += 1;
                assert_eq!(grid.givens(), rules.size().cells(), "a full grid");
                let count = matrix.solver().count(&grid, Some(2)).unwrap();
                assert_eq!(count, 1, "{} breaks its rules {}", grid.to_text(), rules.describe());
            }
            assert!(found > 0, "no symmetric grid of {}", rules.describe());
        }
    }
}
