//! The techniques that combine several cells or digits: XY-wing and XYZ-wing, the unique
//! rectangle (type 1), simple coloring, and forcing chains, the last resort before guessing.

use super::board::{ALL_DIGITS, Board, positions};
use crate::geometry::CellSet;

/// The one digit of a mask with one bit set.
fn digit_of(mask: u16) -> u8 {
    u8::try_from(mask.trailing_zeros()).expect("a digit")
}

impl Board {
    /// The empty cells with exactly `n` candidates.
    fn cells_with_candidates(&self, n: u32) -> impl Iterator<Item = usize> + '_ {
        (0..81).filter(move |&c| self.grid.get(c) == 0 && self.cand[c].count_ones() == n)
    }

    /// A pivot with candidates {x, y} seeing two pincers {x, z} and {y, z}: whichever the pivot
    /// holds, one pincer holds z, so z leaves every cell that sees both pincers.
    pub(super) fn xy_wing(&mut self) -> bool {
        let geometry = self.geometry;
        for pivot in self.cells_with_candidates(2).collect::<Vec<_>>() {
            let xy = self.cand[pivot];
            let peers = geometry.peers(pivot);
            for a in peers.iter() {
                let xz = self.cand[a];
                if xz.count_ones() != 2 || (xz & xy).count_ones() != 1 {
                    continue;
                }
                let z = xz & !xy;
                let yz = (xy & !xz) | z;
                for b in peers.iter() {
                    if b == a || self.cand[b] != yz {
                        continue;
                    }
                    let targets = (geometry.peers(a) & geometry.peers(b)) - CellSet::cell(pivot);
                    if self.eliminate_from(targets, digit_of(z)) {
                        self.mark([pivot, a, b], xy | z);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A pivot with candidates {x, y, z} seeing two pincers {x, z} and {y, z}: one of the three
    /// holds z, so z leaves every cell that sees all three.
    pub(super) fn xyz_wing(&mut self) -> bool {
        let geometry = self.geometry;
        for pivot in self.cells_with_candidates(3).collect::<Vec<_>>() {
            let xyz = self.cand[pivot];
            let peers = geometry.peers(pivot);
            for a in peers.iter() {
                let xz = self.cand[a];
                if xz.count_ones() != 2 || xz & !xyz != 0 {
                    continue;
                }
                for b in peers.iter().filter(|&b| b > a) {
                    let yz = self.cand[b];
                    if yz.count_ones() != 2 || yz & !xyz != 0 || xz | yz != xyz {
                        continue;
                    }
                    let z = xz & yz;
                    let targets = geometry.peers(pivot) & geometry.peers(a) & geometry.peers(b);
                    if self.eliminate_from(targets, digit_of(z)) {
                        self.mark([pivot, a, b], xyz);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Four empty cells at the corners of a rectangle over two rows, two columns and two boxes,
    /// three of them with the same two candidates {a, b}: if the fourth held a or b too, the two
    /// digits could be swapped around the rectangle and the puzzle would have two solutions. So
    /// for a puzzle with one solution the fourth holds neither. Only rectangles that every unit
    /// meets in zero or two corners qualify (a diagonal through one corner would forbid the swap),
    /// and none in variants with forbidden moves (anti-king).
    pub(super) fn unique_rectangle(&mut self) -> bool {
        let geometry = self.geometry;
        if geometry.has_moves() {
            // A swap around the rectangle could put a digit a forbidden move from its twin.
            return false;
        }
        for r1 in 0..9 {
            for r2 in r1 + 1..9 {
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        let corners = [9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2];
                        if corners.iter().any(|&c| self.grid.get(c) != 0) {
                            continue;
                        }
                        let boxes = |c: usize| (c / 27, c % 9 / 3);
                        let spans_two_boxes = (boxes(corners[0]) == boxes(corners[1]))
                            != (boxes(corners[0]) == boxes(corners[2]));
                        if !spans_two_boxes {
                            continue;
                        }
                        let set = CellSet::of(&corners);
                        if geometry.all_unit_cells().iter().any(|unit| {
                            let n = unit.iter().filter(|&&c| set.contains(c)).count();
                            n != 0 && n != 2
                        }) {
                            continue;
                        }
                        for odd in 0..4 {
                            let pair = self.cand[corners[(odd + 1) % 4]];
                            let others = (1..4).map(|k| corners[(odd + k) % 4]);
                            if pair.count_ones() != 2
                                || !others.clone().all(|c| self.cand[c] == pair)
                                || self.cand[corners[odd]] & pair != pair
                            {
                                continue;
                            }
                            if self.eliminate(corners[odd], pair) {
                                self.mark(corners, pair);
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// For one digit, the cells joined by units where it has exactly two places, colored
    /// alternately: one color holds the digit. Two cells of one color that see each other make
    /// that color false; a cell that sees both colors cannot hold the digit.
    pub(super) fn simple_coloring(&mut self) -> bool {
        let geometry = self.geometry;
        for digit in 1..=9u8 {
            let cells = self.cells_with(digit);
            // The conjugate pairs: units where the digit has two places.
            let mut links: Vec<(usize, usize)> = Vec::new();
            for (u, unit) in geometry.all_unit_cells().iter().enumerate() {
                let places = self.places(u, digit);
                if places.count_ones() == 2 {
                    let mut at = positions(places).map(|k| unit[k]);
                    let (a, b) = (at.next().expect("two places"), at.next().expect("two places"));
                    links.push((a, b));
                }
            }
            let mut seen = CellSet::EMPTY;
            for &(start, _) in &links {
                if seen.contains(start) {
                    continue;
                }
                // Two colors, grown from `start` along the links.
                let mut colors = [CellSet::cell(start), CellSet::EMPTY];
                let mut grown = true;
                while grown {
                    grown = false;
                    for &(a, b) in &links {
                        for (x, y) in [(a, b), (b, a)] {
                            for k in 0..2 {
                                if colors[k].contains(x) && !colors[1 - k].contains(y) {
                                    colors[1 - k] |= CellSet::cell(y);
                                    grown = true;
                                }
                            }
                        }
                    }
                }
                let chain = colors[0] | colors[1];
                seen |= chain;
                if chain.len() < 4 {
                    // One link: nothing that a single link does not say already.
                    continue;
                }
                for color in colors {
                    let wrapped = color.iter().any(|c| geometry.peers(c).meets(color));
                    if wrapped && self.eliminate_from(color, digit) {
                        self.mark(chain.iter(), 1 << digit);
                        return true;
                    }
                }
                let trapped = (cells - chain)
                    .iter()
                    .filter(|&c| geometry.peers(c).meets(colors[0]) && geometry.peers(c).meets(colors[1]))
                    .fold(CellSet::EMPTY, |set, c| set | CellSet::cell(c));
                if self.eliminate_from(trapped, digit) {
                    self.mark(chain.iter(), 1 << digit);
                    return true;
                }
            }
        }
        false
    }

    /// For a cell with two candidates (then three): each candidate placed in turn on a copy of
    /// the grid, and singles followed from it. A candidate that leads to a contradiction leaves
    /// the cell; a candidate that no branch keeps anywhere leaves that cell.
    pub(super) fn forcing_chain(&mut self) -> bool {
        for n in 2..=3 {
            for cell in self.cells_with_candidates(n).collect::<Vec<_>>() {
                let mut possible = [0u16; 81];
                let candidates = self.cand[cell];
                for digit in (1..=9u8).filter(|d| candidates & (1 << d) != 0) {
                    let mut branch = self.clone();
                    branch.logging = false;
                    branch.place(cell, digit);
                    if !branch.follow_singles() {
                        self.eliminate(cell, 1 << digit);
                        self.mark([cell], 1 << digit);
                        return true;
                    }
                    for (c, p) in possible.iter_mut().enumerate() {
                        *p |= match branch.grid.get(c) {
                            0 => branch.cand[c],
                            d => 1 << d,
                        };
                    }
                }
                let mut progress = false;
                for (c, &p) in possible.iter().enumerate() {
                    if self.grid.get(c) == 0 {
                        progress |= self.eliminate(c, ALL_DIGITS & !p);
                    }
                }
                if progress {
                    let digits = self.cand[cell];
                    self.mark([cell], digits);
                    return true;
                }
            }
        }
        false
    }

    /// Places singles until none is left; `false` when the grid turns out impossible.
    fn follow_singles(&mut self) -> bool {
        while !self.grid.is_full() {
            if self.is_stuck() {
                return false;
            }
            if !self.naked_single() && !self.hidden_single() {
                break;
            }
        }
        !self.is_stuck()
    }
}
