//! The techniques that combine several cells or digits: XY-wing and XYZ-wing, the unique
//! rectangle (type 1), simple coloring, and forcing chains, the last resort before guessing.
//! "Sees" means may not hold the same digit: a unit, a forbidden move or a cage joins them.

use super::board::{Board, PLACES_STRIDE, digit_of, positions};
use crate::model::cells::CellSet;

impl<S: CellSet, const SIDE: usize> Board<'_, S, SIDE> {
    /// The empty cells with exactly `n` candidates.
    fn cells_with_candidates(&self, n: u32) -> impl Iterator<Item = usize> + '_ {
        (0..self.cand.len()).filter(move |&c| self.value[c] == 0 && self.cand[c].count_ones() == n)
    }

    /// A pivot with candidates {x, y} seeing two pincers {x, z} and {y, z}: whichever the pivot
    /// holds, one pincer holds z, so z leaves every cell that sees both pincers.
    pub(super) fn xy_wing(&mut self) -> bool {
        let shape = self.shape;
        for pivot in self.cells_with_candidates(2).collect::<Vec<_>>() {
            let xy = self.cand[pivot];
            let peers = shape.peers(pivot);
            for a in peers {
                let xz = self.cand[a];
                if xz.count_ones() != 2 || (xz & xy).count_ones() != 1 {
                    continue;
                }
                let z = xz & !xy;
                let yz = (xy & !xz) | z;
                for b in peers {
                    if b == a || self.cand[b] != yz {
                        continue;
                    }
                    let targets = (shape.peers(a) & shape.peers(b)) - S::cell(pivot);
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
        let shape = self.shape;
        for pivot in self.cells_with_candidates(3).collect::<Vec<_>>() {
            let xyz = self.cand[pivot];
            let peers = shape.peers(pivot);
            for a in peers {
                let xz = self.cand[a];
                if xz.count_ones() != 2 || xz & !xyz != 0 {
                    continue;
                }
                for b in peers.into_iter().filter(|&b| b > a) {
                    let yz = self.cand[b];
                    if yz.count_ones() != 2 || yz & !xyz != 0 || xz | yz != xyz {
                        continue;
                    }
                    let z = xz & yz;
                    let targets = shape.peers(pivot) & shape.peers(a) & shape.peers(b);
                    if self.eliminate_from(targets, digit_of(z)) {
                        self.mark([pivot, a, b], xyz);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Four empty cells at the corners of a rectangle over two rows, two columns and two regions
    /// (boxes or jigsaw regions), three of them with the same two candidates {a, b}: if the fourth
    /// held a or b too, the two digits could be swapped around the rectangle and the puzzle would
    /// have two solutions. So for a puzzle with one solution the fourth holds neither. Only
    /// rectangles that every unit and every cage meets in zero or two corners qualify (a diagonal
    /// through one corner would forbid the swap; a cage with two corners keeps its sum), and none
    /// under forbidden moves (anti-king, anti-knight).
    pub(super) fn unique_rectangle(&mut self) -> bool {
        let shape = self.shape;
        if shape.has_moves() {
            // A swap around the rectangle could put a digit a forbidden move from its twin.
            return false;
        }
        let side = self.side();
        for r1 in 0..side {
            for r2 in r1 + 1..side {
                for c1 in 0..side {
                    for c2 in c1 + 1..side {
                        let corners = [side * r1 + c1, side * r1 + c2, side * r2 + c1, side * r2 + c2];
                        if corners.iter().any(|&c| self.value[c] != 0) {
                            continue;
                        }
                        let region = |c: usize| shape.region(c);
                        let spans_two_regions = (region(corners[0]) == region(corners[1]))
                            != (region(corners[0]) == region(corners[2]));
                        if !spans_two_regions {
                            continue;
                        }
                        // The corner that would be cleared, if any: the other three hold the
                        // same two candidates, which it holds too.
                        let pattern = |cand: &[u32], odd: usize| {
                            let pair = cand[corners[(odd + 1) % 4]];
                            pair.count_ones() == 2
                                && (1..4).all(|k| cand[corners[(odd + k) % 4]] == pair)
                                && cand[corners[odd]] & pair == pair
                        };
                        if !(0..4).any(|odd| pattern(&self.cand, odd)) {
                            continue;
                        }
                        let set = S::of(&corners);
                        let meets_badly = |cells: &[usize]| {
                            let n = cells.iter().filter(|&&c| set.contains(c)).count();
                            n != 0 && n != 2
                        };
                        if self.units().any(meets_badly)
                            || shape.cages().iter().any(|(cage, _)| meets_badly(cage))
                        {
                            continue;
                        }
                        for odd in 0..4 {
                            if !pattern(&self.cand, odd) {
                                continue;
                            }
                            let pair = self.cand[corners[(odd + 1) % 4]];
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
        let shape = self.shape;
        self.fill_places();
        for digit in self.digits() {
            let cells = self.cells_with(digit);
            // The conjugate pairs: units where the digit has two places.
            let mut links: Vec<(usize, usize)> = Vec::new();
            for (u, unit) in self.units().enumerate() {
                let places = self.places[u * PLACES_STRIDE + usize::from(digit)];
                if places.count_ones() == 2 {
                    let mut at = positions(places).map(|k| unit[k]);
                    let (a, b) = (at.next().expect("two places"), at.next().expect("two places"));
                    links.push((a, b));
                }
            }
            let mut seen = S::default();
            for &(start, _) in &links {
                if seen.contains(start) {
                    continue;
                }
                // Two colors, grown from `start` along the links.
                let mut colors = [S::cell(start), S::default()];
                let mut grown = true;
                while grown {
                    grown = false;
                    for &(a, b) in &links {
                        for (x, y) in [(a, b), (b, a)] {
                            for k in 0..2 {
                                if colors[k].contains(x) && !colors[1 - k].contains(y) {
                                    colors[1 - k] |= S::cell(y);
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
                    let wrapped = color.into_iter().any(|c| shape.peers(c).meets(color));
                    if wrapped && self.eliminate_from(color, digit) {
                        self.mark(chain, 1 << digit);
                        return true;
                    }
                }
                let mut trapped = S::default();
                for c in cells - chain {
                    if shape.peers(c).meets(colors[0]) && shape.peers(c).meets(colors[1]) {
                        trapped.insert(c);
                    }
                }
                if self.eliminate_from(trapped, digit) {
                    self.mark(chain, 1 << digit);
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
        let all = self.all_digits();
        let mut possible = vec![0u32; self.cand.len()];
        let mut branch = self.clone();
        branch.logging = false;
        for n in 2..=3 {
            for cell in self.cells_with_candidates(n).collect::<Vec<_>>() {
                possible.fill(0);
                let candidates = self.cand[cell];
                for digit in self.digits().filter(|d| candidates & (1 << d) != 0) {
                    branch.clone_from(self);
                    branch.logging = false;
                    branch.place(cell, digit);
                    if !branch.follow_singles() {
                        self.eliminate(cell, 1 << digit);
                        self.mark([cell], 1 << digit);
                        return true;
                    }
                    for (c, p) in possible.iter_mut().enumerate() {
                        *p |= match branch.value[c] {
                            0 => branch.cand[c],
                            d => 1 << d,
                        };
                    }
                }
                let mut progress = false;
                for (c, &p) in possible.iter().enumerate() {
                    if self.value[c] == 0 {
                        progress |= self.eliminate(c, all & !p);
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

    /// Places singles until none is left; `false` when the grid turns out impossible. Being
    /// stuck (see [`is_stuck`](Board::is_stuck)) lasts: a cell without candidates never gets
    /// one, and a digit with no place in a unit never gets one there, so one look at the end
    /// answers as a look after each single would.
    fn follow_singles(&mut self) -> bool {
        while self.empty > 0 && (self.naked_single() || self.hidden_single()) {}
        !self.is_stuck()
    }
}
