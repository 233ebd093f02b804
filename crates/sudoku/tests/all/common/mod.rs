//! An independent solution counter for the tests: plain backtracking over cells, most constrained
//! cell first, knowing nothing of the engine (the units come from the library's list; the
//! forbidden moves of anti-king are written out here).
#![allow(dead_code, unreachable_pub)]

use dlx_sudoku::{Parity, Puzzle, Variant};

/// Counts the solutions of a 9x9 `puzzle` under `variant`'s units (and its cells marked even),
/// up to `limit`.
pub fn count(puzzle: &Puzzle, variant: Variant, limit: u64) -> u64 {
    let mut grid: [u8; 81] = puzzle.cells().try_into().expect("a 9x9 puzzle");
    let even: [bool; 81] = std::array::from_fn(|c| puzzle.rules().parity(c) == Parity::Even);
    let peers: Vec<Vec<usize>> = (0..81)
        .map(|cell| {
            let mut p: Vec<usize> = variant
                .units()
                .iter()
                .filter_map(|u| u.nine_cells())
                .filter(|cells| cells.contains(&cell))
                .flatten()
                .filter(|&c| c != cell)
                .collect();
            // The king's diagonal steps, written out here rather than taken from the library.
            let moves: &[(i32, i32)] = match variant.name() {
                "anti-king" => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
                _ => &[],
            };
            let cell32 = i32::try_from(cell).unwrap();
            let (r, c) = (cell32 / 9, cell32 % 9);
            for (dr, dc) in moves {
                let (r2, c2) = (r + dr, c + dc);
                if (0..9).contains(&r2) && (0..9).contains(&c2) {
                    p.push(usize::try_from(r2 * 9 + c2).unwrap());
                }
            }
            p.sort_unstable();
            p.dedup();
            p
        })
        .collect();
    if (0..81).any(|c| grid[c] != 0 && peers[c].iter().any(|&p| grid[p] == grid[c])) {
        return 0;
    }
    backtrack(&mut grid, &even, &peers, limit)
}

fn candidates(grid: &[u8; 81], even: &[bool; 81], peers: &[Vec<usize>], cell: usize) -> u16 {
    let mut mask: u16 = if even[cell] { 0b01_0101_0100 } else { 0b11_1111_1110 };
    for &p in &peers[cell] {
        mask &= !(1 << grid[p]);
    }
    mask
}

fn backtrack(grid: &mut [u8; 81], even: &[bool; 81], peers: &[Vec<usize>], limit: u64) -> u64 {
    let mut best: Option<(usize, u16)> = None;
    for cell in (0..81).filter(|&c| grid[c] == 0) {
        let mask = candidates(grid, even, peers, cell);
        if best.is_none_or(|(_, m)| mask.count_ones() < m.count_ones()) {
            best = Some((cell, mask));
        }
    }
    let Some((cell, mask)) = best else { return 1 };
    let mut total = 0;
    for digit in (1..=9u8).filter(|d| mask & (1 << d) != 0) {
        grid[cell] = digit;
        total += backtrack(grid, even, peers, limit - total);
        grid[cell] = 0;
        if total >= limit {
            break;
        }
    }
    total
}
