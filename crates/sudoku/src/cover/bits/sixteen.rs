//! The 16x16 grid's search (4x4 boxes): the same Algorithm X as the cells' words (see the parent
//! module), on the matrix held by digit and band of four rows, as `bands` holds the 9x9 grid.
//!
//! # The layout
//!
//! The options of digit `d` in band `b` (rows `4b + 1` to `4b + 4`) are one 64-bit word,
//! `cand[4d + b]`: bit `16r + c` for the cell of row `r` of the band and column `c` (both from 0).
//! A row's item (row and digit) is a 16-bit lane of a word, a box's item a 4-bit run in each of the
//! four lanes, a column's item one bit in each lane of the digit's four words, a cell's item one
//! bit in each of the sixteen words of its band. A frame is the 64 words and, per band, the cells
//! not yet placed (`open`): 544 bytes, copied down a level before a choice. A placed cell keeps
//! its digit's bit. With r1c1 = 5 placed, the word of digit 5 in the first band keeps r1c1 and
//! loses the rest of row 1 and of box 1; its words in the other bands lose column 1:
//!
//! ```text
//!   digit 5, band 1:  1 . . . . . . . . . . . . . . .    band 2:  . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
//!                     . . . . 1 1 1 1 1 1 1 1 1 1 1 1             . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
//!                     . . . . 1 1 1 1 1 1 1 1 1 1 1 1             (and so on, four rows a band)
//!                     . . . . 1 1 1 1 1 1 1 1 1 1 1 1
//! ```
//!
//! # Forced items and reductions, a digit at a time
//!
//! A digit takes one cell in each of a band's four rows and one in each of its four boxes; rows
//! and boxes meet in sixteen runs of four cells (a row's cells in one box), so the digit's runs in
//! a band are a one-to-one match of rows to boxes, one of 24. The runs still open say which
//! matches remain, and a table indexed by the runs' presence (16 bits) keeps the runs some match
//! uses: locked candidates inside a band both ways, and more (runs no match can use), with the
//! singles of rows and boxes. A stack (four columns of boxes) is the same, bands for rows and
//! columns for boxes, read off the columns each word keeps. A digit's pass runs both to a fixpoint
//! on its four words; a row left with one cell places the digit there, and the cell leaves the
//! other digits' words. A cell left in one word is a naked single: it clears its row and box
//! there (the digit's next pass clears its column). A pass reads again only the bands whose words
//! changed since the digit's last pass (a cell placed in a band changes that band's words alone),
//! then the stacks. Every removal is of an option in no solution, so the counts are the engine's;
//! each cell placed beyond the givens is a node, as there.
//!
//! # The branching
//!
//! When nothing is forced the search branches as the cells' words do: on an item with two options
//! (a cell's two digits, or a row's, column's or box's digit in two cells), the one that most
//! recently ended a branch if one of those has two, else the first cell with two, else the first
//! unit's digit with two, else the cell with the fewest digits; each branch a guess. Branching on
//! a digit's matches in a band or a stack, as the 9x9 layout does, made a third more guesses
//! here (`benches/RESULTS.md`).

use std::ops::ControlFlow;
use std::sync::LazyLock;

use dlx_engine::StopReason;

use super::{Outcome, RECENT, Recent, Refused, Stops, Tally};
use crate::model::puzzle::Puzzle;
use crate::model::rules::{Constraint, Rules};
use crate::model::size::Size;

/// The low bit of each row (lane) of a band.
const LANES: u64 = 0x0001_0001_0001_0001;

/// The cells of a band's first box.
const BOX: u64 = 0xF * LANES;

/// The tables of the passes. Sixteen runs' presence is sixteen bits, bit `4r + s` for row `r` and
/// box `s` of a band (or band `r` and column `s` of a stack); a match's runs traded the other way
/// (bit `4s + r`) are a match too, so the table reads either way.
struct Tables {
    /// The runs' presence to the runs some match uses; 0 when none is left.
    kept: Vec<u16>,
    /// Each cell's row and box in its band, but the cell.
    peers: [u64; 64],
}

impl Tables {
    /// The tables, made once, when a 16x16 grid is first searched.
    fn new() -> Tables {
        // The 24 matches of four rows to four boxes, each as its runs.
        let mut matches = Vec::with_capacity(24);
        for m in 0..256usize {
            let boxes: [usize; 4] = std::array::from_fn(|r| m >> (2 * r) & 3);
            if (0..4).fold(0, |seen, r| seen | 1 << boxes[r]) == 15 {
                matches.push((0..4).fold(0u16, |runs, r| runs | 1 << (4 * r + boxes[r])));
            }
        }
        let kept = (0..=u16::MAX)
            .map(|x| matches.iter().filter(|&&m| x & m == m).fold(0, |kept, &m| kept | m))
            .collect();
        let peers = std::array::from_fn(|i| {
            let (r, s) = (i / 16, i % 16 / 4);
            (0xFFFF << (16 * r) | BOX << (4 * s)) & !(1 << i)
        });
        Tables { kept, peers }
    }
}

static T: LazyLock<Tables> = LazyLock::new(Tables::new);

/// The sixteen runs' presence in a band's word, at bit `4s + r` for row `r` and box `s` (the
/// tables' index with rows and boxes traded, which keeps the same matches).
#[inline]
fn runs(w: u64) -> usize {
    // Each run's presence at its first bit, `16r + 4s`; then row `r`'s moved down by `15r`.
    let x = (w | w >> 1 | w >> 2 | w >> 3) & 0x1111_1111_1111_1111;
    usize::from(u16::try_from((x | x >> 15 | x >> 30 | x >> 45) & 0xFFFF).expect("sixteen bits"))
}

/// The cells of sixteen runs' bits as [`runs`] gives them (bit `4s + r`: row `r`, box `s`).
#[inline]
fn cells(runs: u16) -> u64 {
    let x = u64::from(runs);
    // Each run's bit to the first cell of the run, `16r + 4s`, then to its four cells.
    (x & 0x1111 | (x & 0x2222) << 15 | (x & 0x4444) << 30 | (x & 0x8888) << 45) * 0xF
}

/// The 4x4 nibbles of a word transposed: nibble `4r + s` to `4s + r` (bits `16r + 4s` to
/// `16s + 4r`).
#[inline]
fn transpose(x: u64) -> u64 {
    // The two 2x2 blocks off the diagonal traded, then the nibbles off the diagonal of each.
    let t = (x ^ x >> 24) & 0x0000_0000_FF00_FF00;
    let x = x ^ (t | t << 24);
    let t = (x ^ x >> 12) & 0x0000_F0F0_0000_F0F0;
    x ^ (t | t << 12)
}

/// The columns of a word (sixteen bits).
#[inline]
fn columns(w: u64) -> u64 {
    (w | w >> 16 | w >> 32 | w >> 48) & 0xFFFF
}

/// The cells of a word alone in their row, when no row is empty.
#[inline]
fn row_singles(w: u64) -> u64 {
    // With no row empty, subtracting one from each lane borrows within the lane: a row keeps a
    // bit in `more` when it had two or more. Then each lane's top bit says whether `more` has any
    // in the lane, and a row with none keeps its cell.
    let more = w & w.wrapping_sub(LANES);
    let low = 0x7FFF * LANES;
    let any = (((more & low) + low) | more) & (0x8000 * LANES);
    w & ((any >> 15 ^ LANES) * 0xFFFF)
}

/// Whether this search answers `rules`: the 16x16 grid of 4x4 boxes, with parity marks at most.
pub(super) fn takes(rules: &Rules) -> bool {
    rules.size() == Size::new(4, 4).expect("a size")
        && !rules.is_jigsaw()
        && rules.cages().is_empty()
        && Constraint::ALL.iter().all(|&c| !rules.has(c))
}

/// A frame: each digit's options per band, and the cells not yet placed.
#[derive(Debug, Clone, Copy)]
struct Board {
    cand: [u64; 64],
    open: [u64; 4],
}

/// A dead end: the item that lost every option (a cell, or a unit's digit: see [`unit_item`]),
/// or [`NONE`] when no one item did (a band's or a stack's runs of a digit that no match can
/// take though every row and box keeps one, two singles of a digit in one row or box).
struct Dead(u32);

/// No one item.
const NONE: u32 = u32::MAX;

/// The items: cell `c` is `c`; unit `u` (rows 0 to 15, columns 16 to 31, boxes 32 to 47) and
/// digit `d` is `256 + 16u + d`.
fn unit_item(u: usize, d: usize) -> u32 {
    u32::try_from(256 + 16 * u + d).expect("small")
}

/// The item of a band's word `x` of digit `d` that no match can take: a row or a box left empty.
fn band_dead(band: usize, d: usize, x: u64) -> u32 {
    if let Some(r) = (0..4).find(|r| x >> (16 * r) & 0xFFFF == 0) {
        return unit_item(4 * band + r, d);
    }
    match (0..4).find(|s| x & BOX << (4 * s) == 0) {
        Some(s) => unit_item(32 + 4 * band + s, d),
        None => NONE,
    }
}

/// The item of a stack `s` of digit `d`'s words `w` that no match can take: a column or a box
/// left empty.
fn stack_dead(s: usize, d: usize, w: &[u64; 4]) -> u32 {
    let c = w.iter().fold(0, |m, &x| m | columns(x)) >> (4 * s) & 0xF;
    if c != 0xF {
        return unit_item(16 + 4 * s + (!c & 0xF).trailing_zeros() as usize, d);
    }
    match (0..4).find(|&b| w[b] & BOX << (4 * s) == 0) {
        Some(b) => unit_item(32 + 4 * b + s, d),
        None => NONE,
    }
}

impl Board {
    /// The first frame: each cell takes the digits its mark allows, then the givens are placed,
    /// clearing their rows, columns and boxes; `None` when a given is not open or leaves a cell no
    /// digit.
    fn load(grid: &Puzzle, t: &Tables) -> Option<Board> {
        let mut board = Board { cand: [u64::MAX; 64], open: [u64::MAX; 4] };
        for (c, &parity) in grid.rules().parities().iter().enumerate() {
            // Digit `d + 1` has the words of `d`.
            let (band, bit) = (c / 64, 1 << (c % 64));
            let mut digits = super::barred(parity, 16);
            while digits != 0 {
                board.cand[4 * digits.trailing_zeros() as usize + band] &= !bit;
                digits &= digits - 1;
            }
        }
        for (c, &digit) in grid.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let (band, i, d) = (c / 64, c % 64, usize::from(digit - 1));
            let bit = 1 << i;
            if board.cand[4 * d + band] & bit == 0 {
                return None;
            }
            for e in 0..16 {
                board.cand[4 * e + band] &= !bit;
            }
            for other in 0..4 {
                board.cand[4 * d + other] &= !(LANES << (i % 16));
            }
            board.cand[4 * d + band] = board.cand[4 * d + band] & !t.peers[i] | bit;
            board.open[band] &= !bit;
        }
        let every_cell_open =
            (0..4).all(|band| (0..16).fold(0, |m, d| m | board.cand[4 * d + band]) == u64::MAX);
        every_cell_open.then_some(board)
    }

    /// A digit's four words, of which `bands` changed: its pass (see the module docs), marking
    /// in `dirty` the other digits' words that lose the cells it places.
    #[inline]
    fn digit(
        &mut self,
        d: usize,
        bands: u32,
        t: &Tables,
        nodes: &mut u64,
        dirty: &mut u64,
    ) -> Result<(), Dead> {
        let at = 4 * d;
        let mut w = [self.cand[at], self.cand[at + 1], self.cand[at + 2], self.cand[at + 3]];
        // The bands whose runs may have changed; the stacks are read after each step on the bands
        // that changed something (the first always: the columns may have).
        let (mut bands, mut moved, mut touched) = (bands, true, bands);
        loop {
            while bands != 0 {
                let band = bands.trailing_zeros() as usize;
                bands &= bands - 1;
                let x = w[band];
                let present = runs(x);
                let kept = t.kept[present];
                if usize::from(kept) != present {
                    if kept == 0 {
                        return Err(Dead(band_dead(band, d, x)));
                    }
                    w[band] = x & cells(kept);
                    moved = true;
                }
            }
            if !moved {
                break;
            }
            // The stacks' runs (band `b`'s columns of stack `s` at bits `16s + 4b`), then the
            // columns each band keeps (at bits `16b`).
            let by_band = w.iter().enumerate().fold(0, |m, (b, &x)| m | columns(x) << (16 * b));
            let by_stack = transpose(by_band);
            let mut kept = 0;
            for s in 0..4 {
                let x = by_stack >> (16 * s) & 0xFFFF;
                let k = u64::from(t.kept[x as usize]);
                if k == 0 {
                    return Err(Dead(stack_dead(s, d, &w)));
                }
                kept |= k << (16 * s);
            }
            if kept != by_stack {
                let keep = transpose(kept);
                for (b, x) in w.iter_mut().enumerate() {
                    let y = *x & ((keep >> (16 * b) & 0xFFFF) * LANES);
                    bands |= u32::from(y != *x) << b;
                    touched |= u32::from(y != *x) << b;
                    *x = y;
                }
            }
            if bands == 0 {
                break;
            }
            moved = false;
        }
        while touched != 0 {
            let band = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let w = w[band];
            self.cand[at + band] = w;
            let placed = row_singles(w) & self.open[band];
            if placed == 0 {
                continue;
            }
            self.open[band] &= !placed;
            *nodes += u64::from(placed.count_ones());
            for e in 0..16 {
                let x = self.cand[4 * e + band];
                *dirty |= u64::from(x & placed != 0) << (4 * e + band);
                self.cand[4 * e + band] = x & !placed;
            }
            self.cand[at + band] = w;
            *dirty &= !(1 << (at + band));
        }
        Ok(())
    }

    /// The open cells left with one digit: each clears its row and box in its digit's word (the
    /// digit's pass clears its column), marking the digit's word in `dirty`.
    #[inline]
    fn naked_singles(&mut self, t: &Tables, nodes: &mut u64, dirty: &mut u64) -> Result<(), Dead> {
        for band in 0..4 {
            let (mut once, mut twice) = (0, 0);
            for d in 0..16 {
                let w = self.cand[4 * d + band];
                twice |= once & w;
                once |= w;
            }
            if once != u64::MAX {
                let i = (!once).trailing_zeros() as usize;
                return Err(Dead(u32::try_from(64 * band + i).expect("small")));
            }
            let singles = self.open[band] & !twice;
            if singles == 0 {
                continue;
            }
            self.open[band] &= !singles;
            *nodes += u64::from(singles.count_ones());
            for d in 0..16 {
                let w = self.cand[4 * d + band];
                let mut cells = w & singles;
                let mut peers = 0;
                while cells != 0 {
                    peers |= t.peers[cells.trailing_zeros() as usize];
                    cells &= cells - 1;
                }
                // Two singles of one digit in a row or a box.
                if peers & w & singles != 0 {
                    return Err(Dead(NONE));
                }
                *dirty |= u64::from(w & peers != 0) << (4 * d + band);
                self.cand[4 * d + band] = w & !peers;
            }
        }
        Ok(())
    }

    /// Passes the digits whose words changed (`dirty`: bit `4d + b` for digit `d`'s word of band
    /// `b`), then places the naked singles, to a fixpoint.
    fn propagate(&mut self, mut dirty: u64, t: &Tables, nodes: &mut u64) -> Result<(), Dead> {
        loop {
            while dirty != 0 {
                let d = dirty.trailing_zeros() as usize / 4;
                let bands = (dirty >> (4 * d) & 0xF) as u32;
                dirty &= !(0xF << (4 * d));
                self.digit(d, bands, t, nodes, &mut dirty)?;
            }
            self.naked_singles(t, nodes, &mut dirty)?;
            if dirty == 0 {
                return Ok(());
            }
        }
    }

    /// The digits (bit `d` for digit `d + 1`) of cell `i` of a band.
    #[inline]
    fn digits(&self, band: usize, i: usize) -> u32 {
        (0..16).fold(0, |m, d| m | u32::from(self.cand[4 * d + band] >> i & 1 != 0) << d)
    }

    /// The open cells of unit `u` (rows, columns, boxes) that may take digit `d`, per band.
    #[inline]
    fn unit_cells(&self, u: usize, d: usize) -> [u64; 4] {
        let w = &self.cand[4 * d..4 * d + 4];
        let mut cells = [0; 4];
        match u {
            0..16 => cells[u / 4] = w[u / 4] & 0xFFFF << (16 * (u % 4)),
            16..32 => {
                for b in 0..4 {
                    cells[b] = w[b] & LANES << (u - 16);
                }
            }
            _ => {
                let (b, s) = ((u - 32) / 4, (u - 32) % 4);
                cells[b] = w[b] & BOX << (4 * s);
            }
        }
        for (x, open) in cells.iter_mut().zip(self.open) {
            *x &= open;
        }
        cells
    }

    /// An item's options, or `None` when it is covered (a placed cell, a unit that holds the
    /// digit).
    fn length(&self, item: u32) -> Option<u32> {
        let item = item as usize;
        if item < 256 {
            let (band, i) = (item / 64, item % 64);
            return (self.open[band] >> i & 1 != 0).then(|| self.digits(band, i).count_ones());
        }
        let (u, d) = ((item - 256) / 16, (item - 256) % 16);
        let n: u32 = self.unit_cells(u, d).iter().map(|x| x.count_ones()).sum();
        (n > 0).then_some(n)
    }

    /// The item to branch on (nothing is forced): among the items with two options, the one that
    /// most recently ended a branch, as the cells' words choose; else the first cell with two
    /// digits, else the first row's, column's or box's digit with two cells, else the cell with
    /// the fewest digits.
    fn choose(&self, recent: &Recent) -> u32 {
        if let Some(item) = recent.newest_first().find(|&item| self.length(item) == Some(2)) {
            return item;
        }
        let mut best = (u32::MAX, 0);
        for band in 0..4 {
            let (mut once, mut twice, mut thrice) = (0, 0, 0);
            for d in 0..16 {
                let w = self.cand[4 * d + band];
                thrice |= twice & w;
                twice |= once & w;
                once |= w;
            }
            let pairs = twice & !thrice & self.open[band];
            if pairs != 0 {
                return u32::try_from(64 * band).expect("small") + pairs.trailing_zeros();
            }
        }
        for u in 0..48 {
            for d in 0..16 {
                let n: u32 = self.unit_cells(u, d).iter().map(|x| x.count_ones()).sum();
                if n == 2 {
                    return unit_item(u, d);
                }
            }
        }
        for band in 0..4 {
            let mut open = self.open[band];
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                let n = self.digits(band, i).count_ones();
                if n < best.0 {
                    best = (n, u32::try_from(64 * band + i).expect("small"));
                }
            }
        }
        best.1
    }
}

/// Searches a 16x16 grid (see [`takes`]) for up to `limit` solutions, as
/// [`Bits::search`](super::Bits::search) does.
pub(super) fn search(
    grid: &Puzzle,
    limit: u64,
    stops: Stops<'_>,
    found: Option<&mut dyn FnMut(Puzzle)>,
) -> Outcome {
    let t = &*T;
    let tally = Tally { grid, limit, stops, found, solutions: 0, nodes: 0, guesses: 0 };
    let mut run = Run { t, tally, recent: Recent { ring: [0; RECENT], count: 0 } };
    let flow = match Board::load(grid, t) {
        None => Err(Refused),
        Some(_) if limit == 0 => Ok(ControlFlow::Continue(())),
        Some(board) => Ok(run.search(board, u64::MAX)),
    };
    run.tally.outcome(flow)
}

/// One search.
struct Run<'a, 'f> {
    t: &'a Tables,
    tally: Tally<'a, 'f>,
    recent: Recent,
}

impl Run<'_, '_> {
    /// Searches from `board` whose words of `dirty` changed (see [`Board::propagate`]):
    /// `Break(None)` at the limit, `Break(Some(why))` when stopped short.
    fn search(&mut self, mut board: Board, dirty: u64) -> ControlFlow<Option<StopReason>> {
        let t = self.t;
        if let Err(Dead(item)) = board.propagate(dirty, t, &mut self.tally.nodes) {
            if item != NONE {
                self.recent.note(item);
            }
            return ControlFlow::Continue(());
        }
        if self.tally.spent() {
            return ControlFlow::Break(Some(StopReason::Budget));
        }
        if board.open == [0; 4] {
            return self.tally.solution(|c| board.digits(c / 64, c % 64).trailing_zeros() + 1);
        }
        if self.tally.cancelled() {
            return ControlFlow::Break(Some(StopReason::Cancelled));
        }
        let item = board.choose(&self.recent);
        if item < 256 {
            let (band, i) = (item as usize / 64, item as usize % 64);
            let digits = board.digits(band, i);
            let mut left = digits;
            while left != 0 {
                let d = left.trailing_zeros();
                left &= left - 1;
                self.branch(&board, band, i, digits & !(1 << d))?;
            }
        } else {
            let (u, d) = ((item as usize - 256) / 16, (item as usize - 256) % 16);
            let mut cells = board.unit_cells(u, d);
            for (band, x) in cells.iter_mut().enumerate() {
                while *x != 0 {
                    let i = x.trailing_zeros() as usize;
                    *x &= *x - 1;
                    let digits = board.digits(band, i);
                    self.branch(&board, band, i, digits & !(1 << d))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Tries `board` with cell `i` of `band` rid of the digits of `others` (all its digits but
    /// one), a level below.
    fn branch(
        &mut self,
        board: &Board,
        band: usize,
        i: usize,
        others: u32,
    ) -> ControlFlow<Option<StopReason>> {
        let mut child = *board;
        let (mut left, mut dirty) = (others, 0);
        while left != 0 {
            let e = left.trailing_zeros() as usize;
            left &= left - 1;
            child.cand[4 * e + band] &= !(1 << i);
            dirty |= 1 << (4 * e + band);
        }
        self.tally.guesses += 1;
        self.search(child, dirty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words from a seed, each bit open with probability one half or one eighth.
    fn words() -> impl Iterator<Item = u64> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        (0..20_000).map(move |k| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let w = state;
            let sparse = w & w.rotate_left(21) & w.rotate_left(43);
            if k % 2 == 0 { w } else { sparse }
        })
    }

    #[test]
    fn runs_cells_columns_and_row_singles_read_the_cells() {
        for w in words() {
            let open = |r: usize, c: usize| w >> (16 * r + c) & 1 != 0;
            // Bit `4s + r` for row `r` and box `s`.
            let runs_naive =
                (0..16).filter(|k| (0..4).any(|j| open(k % 4, k / 4 * 4 + j))).fold(0, |m, k| m | 1 << k);
            assert_eq!(runs(w), runs_naive, "{w:064b}");
            let x = u16::try_from(runs_naive).unwrap();
            let cells_naive =
                (0..64).filter(|i| x >> (i % 16 / 4 * 4 + i / 16) & 1 != 0).fold(0, |m, i| m | 1 << i);
            assert_eq!(cells(x), cells_naive, "{x:016b}");
            let columns_naive = (0..16).filter(|&c| (0..4).any(|r| open(r, c))).fold(0, |m, c| m | 1 << c);
            assert_eq!(columns(w), columns_naive, "{w:064b}");
            let nibble = |x: u64, k: usize| x >> (4 * k) & 0xF;
            let moved = transpose(w);
            assert!((0..16).all(|k| nibble(moved, k % 4 * 4 + k / 4) == nibble(w, k)), "{w:064b}");
            if (0..4).all(|r| w >> (16 * r) & 0xFFFF != 0) {
                let singles = (0..4)
                    .filter(|&r| (0..16).filter(|&c| open(r, c)).count() == 1)
                    .fold(0, |m, r| m | w & 0xFFFF << (16 * r));
                assert_eq!(row_singles(w), singles, "{w:064b}");
            }
        }
    }

    #[test]
    fn the_table_keeps_what_some_match_uses() {
        // Every permutation of four rows to four boxes, by brute force over the four choices.
        for x in (0..=u16::MAX).step_by(7) {
            let mut kept = 0;
            for a in 0..4 {
                for b in (0..4).filter(|&b| b != a) {
                    for c in (0..4).filter(|&c| c != a && c != b) {
                        let d = 6 - a - b - c;
                        let m = 1 << a | 1 << (4 + b) | 1 << (8 + c) | 1 << (12 + d);
                        if x & m == m {
                            kept |= m;
                        }
                    }
                }
            }
            assert_eq!(T.kept[usize::from(x)], kept, "{x:016b}");
        }
    }
}
