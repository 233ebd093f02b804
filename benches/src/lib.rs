//! Shared helpers for the benches: the engine's example models, and the conversion of a
//! [`Problem`] into the plain item lists that the baseline crates take.

use dlx_engine::Problem;

/// N-queens, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/queens.rs"]
pub mod queens;

/// Langford pairs, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/langford.rs"]
pub mod langford;

/// Pentomino packing, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/pentominoes.rs"]
pub mod pentominoes;

/// Word squares (colors), built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/word_squares.rs"]
pub mod word_squares;

/// 0-1 matrices with given line sums (multiplicities), built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/line_sums.rs"]
pub mod line_sums;

/// Domino tilings of a board, built by the engine's example.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../crates/dlx/examples/dominoes.rs"]
pub mod dominoes;

/// A problem as plain lists: primary items are `0..primary`, secondary items follow; each option
/// lists its items (0-based, in the engine's layout order) in ascending order.
#[derive(Debug, Clone)]
pub struct PlainProblem {
    /// Number of primary items.
    pub primary: usize,
    /// Number of secondary items.
    pub secondary: usize,
    /// The options.
    pub options: Vec<Vec<usize>>,
    /// The color of each item of each option, as `options` lists them: 0 for none, else a number
    /// per color name from 1.
    pub colors: Vec<Vec<u32>>,
    /// Each primary item's bounds on its number of covers, `(1, 1)` without multiplicities.
    pub bounds: Vec<(u32, u32)>,
}

impl PlainProblem {
    /// The same matrix as `problem`, items numbered as in its layout (primaries first).
    pub fn from_problem(problem: &Problem) -> PlainProblem {
        let mut position = vec![0; problem.item_count()];
        let (mut p, mut s) = (0, problem.primary_count());
        for item in problem.items() {
            let slot = if problem.is_primary(item) { &mut p } else { &mut s };
            position[item.index()] = *slot;
            *slot += 1;
        }
        let mut color_ids = std::collections::HashMap::new();
        let (mut options, mut colors) = (Vec::new(), Vec::new());
        for o in problem.options() {
            let mut items: Vec<(usize, u32)> = problem
                .option_items(o)
                .zip(problem.option_colors(o))
                .map(|(i, c)| {
                    let next = u32::try_from(color_ids.len() + 1).expect("few colors");
                    (position[i.index()], c.map_or(0, |c| *color_ids.entry(c.to_owned()).or_insert(next)))
                })
                .collect();
            items.sort_unstable();
            options.push(items.iter().map(|&(i, _)| i).collect());
            colors.push(items.iter().map(|&(_, c)| c).collect());
        }
        let bounds = problem
            .items()
            .filter(|&i| problem.is_primary(i))
            .map(|i| {
                let b = problem.item_bounds(i);
                (*b.start(), *b.end())
            })
            .collect();
        PlainProblem {
            bounds,
            primary: problem.primary_count(),
            secondary: problem.secondary_count(),
            options,
            colors,
        }
    }
}
