//! The 9x9 grid's search (3x3 boxes): the same Algorithm X as the cells' words (see the parent
//! module), on the matrix held by digit and band, where one word answers for a whole unit.
//!
//! # The layout
//!
//! The options of digit `d` in band `b` (rows `3b + 1` to `3b + 3`) are the 27 low bits of one
//! word, `cand[3d + b]`: bit `9r + c` for the cell of row `r` of the band and column `c` (both
//! from 0). A frame is these 27 words and, per band, the cells not yet placed (`open`): 120 bytes,
//! copied down a level before a choice. With r1c1 = 5 placed, the word of digit 5 in the first band
//! keeps r1c1 and loses the rest of row 1 and of box 1; its words in the other bands lose column 1:
//!
//! ```text
//!   digit 5, band 1:  1 . . . . . . . .     digit 5, band 2:  . 1 1 1 1 1 1 1 1
//!                     . . . 1 1 1 1 1 1                       . 1 1 1 1 1 1 1 1
//!                     . . . 1 1 1 1 1 1                       . 1 1 1 1 1 1 1 1
//! ```
//!
//! A row's item (row and digit) is nine bits of a word, a box's item three runs of three bits, a
//! column's item three bits in each of its digit's three words, a cell's item one bit in each of
//! the nine words of its band.
//!
//! # Forced items and reductions, a digit at a time
//!
//! A digit takes one cell in each of a band's three rows and one in each of its three boxes; rows
//! and boxes meet in nine runs of three cells (a row's cells in one box), so the digit's runs in a
//! band are a one-to-one match of rows to boxes, one of six. The runs still open say which matches
//! remain, and a table indexed by the runs' presence keeps the runs some match uses: locked
//! candidates inside a band, both ways, and the singles of rows and boxes. A stack (three columns
//! of boxes) is the same with bands for rows and columns for boxes, read off the columns each word
//! keeps: a box left with one column takes it from the other two bands, and a column left in one
//! band takes the other columns of its box there. A digit's pass runs both to a fixpoint on its
//! three words; a row left with one cell places the digit there, and the cell leaves the other
//! digits' words. A cell left in one word is a naked single: it clears its row and box there.
//!
//! Across the digits, a run's three cells take three digits (tdoku's "triads", counted here on
//! bit-sliced counters): when only three digits may go in a run, those must; when three must, the
//! others leave it; fewer than three that may, or more than three that must, is a dead end. The
//! same for a column's three cells in a band. The triads run once the digits' passes and the naked
//! singles have nothing left to do. Every removal is of an option in no solution, so the counts
//! are the engine's; each cell placed beyond the givens is a node, as there.
//!
//! # Rules beyond the classic grid
//!
//! Parity marks clear digits from the first frame. The diagonals and the forbidden moves are
//! [`Extra`]: once the rest of a digit's pass is settled, a cell where the digit is placed clears
//! the cells a forbidden move away and the rest of its diagonals, and a diagonal left with one
//! cell places the digit there (the pass goes on if they changed anything); once nothing else is
//! left to do, locked candidates between a diagonal and the boxes it crosses. Each is three masks,
//! one per band. The classic grid's passes skip the test for them, as the engine specialises its
//! search (a const parameter).
//!
//! # The branching
//!
//! When nothing is forced the search branches on a digit's matches in a band or a stack (the
//! one, of the six, whose digits keep the fewest matches in all, on its digit with the fewest
//! matches, two nearly always), one branch per match, each a guess: a coarser item than a cell's,
//! each branch settling which box holds the digit in each of three rows (or which column in each
//! of three boxes), as tdoku branches; on the hardest puzzles it makes fewer guesses than branching
//! on the cells with two candidates (`benches/RESULTS.md`).
//!
//! The branchless forms below (a mask from a comparison rather than an `if`) are measured: which
//! rows hold one cell, or which words a reduction changes, is as good as random to a predictor.

use std::ops::ControlFlow;

use dlx_engine::StopReason;

use super::{Outcome, Refused, Stops, Tally};
use crate::model::puzzle::Puzzle;
use crate::model::rules::{Constraint, Rules};
use crate::model::size::Size;
use crate::shape::{AnyShape, with_shape};

/// The 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The six one-to-one matches of three rows to three boxes: row `r` to box `MATCHES[m][r]`.
const MATCHES: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// What 9x9 rules add to rows, columns and boxes (the diagonals, the forbidden moves), as cells
/// of the three bands; empty for the classic grid.
#[derive(Debug, Clone, Default)]
pub(super) struct Extra {
    /// The units beyond rows, columns and boxes.
    units: Vec<[u32; 3]>,
    /// Each of them with a row, a column or a box it shares two cells or more with.
    locks: Vec<(usize, [u32; 3])>,
    /// Each cell's cells a forbidden move away; empty when no move is forbidden.
    moves: Vec<[u32; 3]>,
}

impl Extra {
    /// What `rules` add, or `None` when this search does not answer them: another size, jigsaw
    /// regions, killer cages; and the windows, whose forty pairs of locked candidates with rows,
    /// columns and boxes cost more here than the cells' words take (`benches/RESULTS.md`).
    pub(super) fn of(rules: &Rules) -> Option<Extra> {
        if rules.size() != Size::CLASSIC
            || rules.is_jigsaw()
            || !rules.cages().is_empty()
            || rules.has(Constraint::Windows)
        {
            return None;
        }
        let shape = AnyShape::of(rules);
        let (units, locks) = with_shape!(&shape, shape => {
            // The shape's units: rows, columns and boxes (27), then the extra ones.
            let bands = |u: usize| {
                shape.unit(u).iter().fold([0; 3], |mut m, &c| {
                    m[c / 27] |= 1 << (c % 27);
                    m
                })
            };
            let units: Vec<[u32; 3]> = (27..shape.unit_count()).map(bands).collect();
            // Its pairs of units sharing two cells or more (each both ways): an extra unit's.
            let locks = shape.pairs().iter().filter(|&&(u, v, ..)| u >= 27 && v < 27);
            (units, locks.map(|&(u, v, ..)| (u - 27, bands(v))).collect())
        });
        let pairs = rules.move_pairs();
        let mut moves = Vec::new();
        if !pairs.is_empty() {
            moves = vec![[0; 3]; 81];
            for (a, b, _) in pairs {
                moves[a][b / 27] |= 1 << (b % 27);
                moves[b][a / 27] |= 1 << (a % 27);
            }
        }
        Some(Extra { units, locks, moves })
    }

    /// Whether the rules add nothing.
    fn is_empty(&self) -> bool {
        self.units.is_empty() && self.moves.is_empty()
    }

    /// A digit's extra rules on its words `w`, once: a cell it is placed in (alone in its row)
    /// clears the cells a forbidden move away and the rest of its extra units; a unit left with
    /// one cell places it there (clearing the cell's row, box and column).
    fn apply(&self, w: &mut [u32; 3]) -> Result<(), Dead> {
        let placed = w.map(row_singles);
        if !self.moves.is_empty() {
            let mut away = [0; 3];
            for (band, &cells) in placed.iter().enumerate() {
                let mut cells = cells;
                while cells != 0 {
                    let m = &self.moves[27 * band + cells.trailing_zeros() as usize];
                    cells &= cells - 1;
                    for k in 0..3 {
                        away[k] |= m[k];
                    }
                }
            }
            for k in 0..3 {
                if away[k] & placed[k] != 0 {
                    return Err(Dead);
                }
                w[k] &= !away[k];
            }
        }
        for u in &self.units {
            let open = [w[0] & u[0], w[1] & u[1], w[2] & u[2]];
            let n: u32 = open.iter().map(|x| x.count_ones()).sum();
            let here = [open[0] & placed[0], open[1] & placed[1], open[2] & placed[2]];
            match (n, here.iter().map(|x| x.count_ones()).sum::<u32>()) {
                (0, _) | (_, 2..) => return Err(Dead),
                (_, 1) => {
                    for k in 0..3 {
                        w[k] &= !u[k] | here[k];
                    }
                }
                (1, 0) => {
                    let band = open.iter().position(|&x| x != 0).expect("one cell");
                    let i = open[band].trailing_zeros() as usize;
                    for x in w.iter_mut() {
                        *x &= !spread(1 << (i % 9));
                    }
                    w[band] = w[band] & !T.peers[i] | open[band];
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Locked candidates between an extra unit and a row, column or box, on a digit's words:
    /// when the digit's cells of one lie in the other, the other's cells outside the first lose
    /// it.
    fn lock(&self, w: &mut [u32; 3]) {
        for &(k, v) in &self.locks {
            let u = self.units[k];
            let u_in_v = (0..3).all(|b| w[b] & u[b] & !v[b] == 0);
            let v_in_u = (0..3).all(|b| w[b] & v[b] & !u[b] == 0);
            for b in 0..3 {
                if u_in_v {
                    w[b] &= !(v[b] & !u[b]);
                }
                if v_in_u {
                    w[b] &= !(u[b] & !v[b]);
                }
            }
        }
    }
}

/// The tables of the passes, made at compile time. Nine runs' presence is nine bits, bit `3r + s`
/// for row `r` and box `s` of a band (or band `r` and column `s` of a stack).
struct Tables {
    /// The runs' presence to the cells of the runs some match uses; 0 when none is left.
    matched: [u32; 512],
    /// The runs' presence to the runs some match uses.
    kept: [u16; 512],
    /// The runs' presence to the runs every match uses.
    forced: [u16; 512],
    /// The runs' presence to the matches left (bit `m` for `MATCHES[m]`).
    matches: [u8; 512],
    /// Runs to their cells.
    cells: [u32; 512],
    /// Runs to the other cells of their rows and boxes.
    beside: [u32; 512],
    /// Runs to the other runs of their rows and boxes (of a stack: bands and columns).
    near: [u16; 512],
    /// A band's columns (nine bits) to those alone in their box's three.
    alone: [u32; 512],
    /// The columns of a band found in no other band to the cells the band keeps: in each box, the
    /// one such column, else all three (and none when two or more are).
    confined: [u32; 512],
    /// Each cell's row and box in its band, but the cell.
    peers: [u32; 27],
}

/// The cells of nine columns' bits in each row of a band.
#[inline]
const fn spread(columns: u32) -> u32 {
    columns | columns << 9 | columns << 18
}

impl Tables {
    // The casts are of nine bits.
    #[allow(clippy::cast_possible_truncation)]
    const fn new() -> Tables {
        let mut t = Tables {
            matched: [0; 512],
            kept: [0; 512],
            forced: [0; 512],
            matches: [0; 512],
            cells: [0; 512],
            beside: [0; 512],
            near: [0; 512],
            alone: [0; 512],
            confined: [0; 512],
            peers: [0; 27],
        };
        let mut x = 0;
        while x < 512 {
            let mut s = 0;
            while s < 3 {
                let part = (x >> (3 * s) & 7) as u32;
                if part.count_ones() == 1 {
                    t.alone[x] |= part << (3 * s);
                    t.confined[x] |= spread(part << (3 * s));
                } else if part == 0 {
                    t.confined[x] |= spread(7 << (3 * s));
                }
                s += 1;
            }
            let mut k = 0;
            while k < 9 {
                if x >> k & 1 != 0 {
                    let (r, s) = (k / 3, k % 3);
                    let run = 7 << (9 * r + 3 * s);
                    t.cells[x] |= run;
                    t.beside[x] |= (511 << (9 * r) | spread(7 << (3 * s))) & !run;
                    t.near[x] |= (7 << (3 * r) | 0x49 << s) & !(1 << k);
                }
                k += 1;
            }
            let mut m = 0;
            let mut forced = 511;
            while m < 6 {
                let (mut r, mut runs, mut cells) = (0, 0, 0);
                while r < 3 {
                    runs |= 1 << (3 * r + MATCHES[m][r]);
                    cells |= 7 << (9 * r + 3 * MATCHES[m][r]);
                    r += 1;
                }
                if x & runs == runs {
                    t.matched[x] |= cells;
                    t.kept[x] |= runs as u16;
                    t.matches[x] |= 1 << m;
                    forced &= runs;
                }
                m += 1;
            }
            if t.matches[x] != 0 {
                t.forced[x] = forced as u16;
            }
            x += 1;
        }
        let mut i = 0;
        while i < 27 {
            t.peers[i] = (511 << (9 * (i / 9)) | spread(7 << (i % 9 / 3 * 3))) & !(1 << i);
            i += 1;
        }
        t
    }
}

static T: Tables = Tables::new();

/// The nine runs' presence in a word.
#[inline]
fn runs(w: u32) -> u32 {
    // Each run's presence at its first bit, then each row's three at its first three bits, then
    // the rows side by side.
    let x = (w | w >> 1 | w >> 2) & 0x124_9249;
    let y = (x | x >> 2 | x >> 4) & 0x1C_0E07;
    (y | y >> 6 | y >> 12) & 511
}

/// The columns of a word (nine bits).
#[inline]
fn columns(w: u32) -> usize {
    ((w | w >> 9 | w >> 18) & 511) as usize
}

/// The runs' presence of stack `s` in a digit's three words: band `b`'s columns `3s` to `3s + 2`
/// at bits `3b` to `3b + 2`.
#[inline]
fn stack(words: [u32; 3], s: usize) -> usize {
    let [a, b, c] = words.map(|w| columns(w) >> (3 * s) & 7);
    a | b << 3 | c << 6
}

/// The cells of a word alone in their row.
#[inline]
fn row_singles(w: u32) -> u32 {
    let mut singles = 0;
    for r in 0..3 {
        let row = w >> (9 * r) & 511;
        let one = u32::from(row & row.wrapping_sub(1) == 0);
        singles |= (row & 0u32.wrapping_sub(one)) << (9 * r);
    }
    singles
}

/// Nine-bit counters of how many of a band's (or stack's) digits may take each run, and how many
/// must: the runs that three digits may take (so they must), the runs three must take (so the rest
/// may not); `Err` when some run has fewer than three that may or more than three that must.
#[inline]
fn triads(may: &[u32; 9], must: &[u32; 9]) -> Result<(u32, u32), Dead> {
    /// Adds nine bits to a counter of four bit planes (at most 9 fits).
    #[inline]
    fn add(planes: &mut [u32; 4], x: u32) {
        let c0 = planes[0] & x;
        planes[0] ^= x;
        let c1 = planes[1] & c0;
        planes[1] ^= c0;
        let c2 = planes[2] & c1;
        planes[2] ^= c1;
        planes[3] |= c2;
    }
    let (mut p, mut q) = ([0; 4], [0; 4]);
    for d in 0..9 {
        add(&mut p, may[d]);
        add(&mut q, must[d]);
    }
    let few = !p[2] & !p[3] & !(p[0] & p[1]) & 511;
    let many = q[2] & (q[0] | q[1]) | q[3];
    if few | many != 0 {
        return Err(Dead);
    }
    Ok((p[0] & p[1] & !p[2] & !p[3], q[0] & q[1] & !q[2] & !q[3]))
}

/// A frame: each digit's options per band, and the cells not yet placed.
#[derive(Debug, Clone, Copy)]
struct Board {
    cand: [u32; 27],
    open: [u32; 3],
}

/// A dead end: some item lost every option.
struct Dead;

/// An item to branch on.
#[derive(Debug, Clone, Copy)]
enum Choice {
    /// A digit's matches in a band: digit, band, the matches (bit `m` for `MATCHES[m]`).
    Band(usize, usize, u8),
    /// A digit's matches in a stack: digit, stack, the matches (band `b` to column `MATCHES[m][b]`
    /// of the stack).
    Stack(usize, usize, u8),
    /// An open cell's digits: band, place, digits (never met after the passes, which leave no
    /// open cell once every band and stack is settled; kept so that no frame goes unanswered).
    Cell(usize, usize, u32),
}

impl Board {
    /// The first frame: each cell takes the digits its mark allows, then the givens are placed,
    /// clearing their rows, columns and boxes; `None` when a given is not open or leaves a cell no
    /// digit.
    fn load(grid: &Puzzle, extra: &Extra) -> Option<Board> {
        let mut board = Board { cand: [BAND; 27], open: [BAND; 3] };
        for (c, &parity) in grid.rules().parities().iter().enumerate() {
            // Digit `d + 1` has the words of `d`.
            let (band, bit) = (c / 27, 1 << (c % 27));
            let mut digits = super::barred(parity, 9);
            while digits != 0 {
                board.cand[3 * digits.trailing_zeros() as usize + band] &= !bit;
                digits &= digits - 1;
            }
        }
        for (c, &digit) in grid.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let (band, i, d) = (c / 27, c % 27, usize::from(digit - 1));
            let bit = 1 << i;
            if board.cand[3 * d + band] & bit == 0 {
                return None;
            }
            for e in 0..9 {
                board.cand[3 * e + band] &= !bit;
            }
            for other in 0..3 {
                board.cand[3 * d + other] &= !spread(1 << (i % 9));
            }
            // The rest of its extra units and the cells a forbidden move away, then its row and
            // box: a later given there is not open.
            let mut away = extra.moves.get(c).copied().unwrap_or_default();
            for u in extra.units.iter().filter(|u| u[band] & bit != 0) {
                for (a, x) in away.iter_mut().zip(u) {
                    *a |= x;
                }
            }
            for (k, a) in away.into_iter().enumerate() {
                board.cand[3 * d + k] &= !a;
            }
            board.cand[3 * d + band] = board.cand[3 * d + band] & !T.peers[i] | bit;
            board.open[band] &= !bit;
        }
        let every_cell_open = (0..3).all(|band| (0..9).fold(0, |m, d| m | board.cand[3 * d + band]) == BAND);
        every_cell_open.then_some(board)
    }

    /// A digit's three words: its pass (see the module docs), marking in `dirty` the other digits
    /// whose words lose the cells it places.
    #[inline]
    fn digit<const EXTRA: bool>(
        &mut self,
        d: usize,
        extra: &Extra,
        nodes: &mut u64,
        dirty: &mut u32,
    ) -> Result<(), Dead> {
        let at = 3 * d;
        let [mut a, mut b, mut c] = [self.cand[at], self.cand[at + 1], self.cand[at + 2]];
        loop {
            let before = [a, b, c];
            a &= T.matched[runs(a) as usize];
            b &= T.matched[runs(b) as usize];
            c &= T.matched[runs(c) as usize];
            let (pa, pb, pc) = (columns(a), columns(b), columns(c));
            // A band with no match left has no run either, so its columns are none.
            if pa | pb | pc != 511 || a == 0 || b == 0 || c == 0 {
                return Err(Dead);
            }
            let (sa, sb, sc) = (T.alone[pa], T.alone[pb], T.alone[pc]);
            a &= !spread(sb | sc) & T.confined[pa & !(pb | pc)];
            b &= !spread(sa | sc) & T.confined[pb & !(pa | pc)];
            c &= !spread(sa | sb) & T.confined[pc & !(pa | pb)];
            if [a, b, c] == before {
                // The extra rules once the rest is settled, and again only if they changed it.
                if !EXTRA {
                    break;
                }
                let mut w = [a, b, c];
                extra.apply(&mut w)?;
                if w == before {
                    break;
                }
                [a, b, c] = w;
            }
        }
        for (band, w) in [a, b, c].into_iter().enumerate() {
            self.cand[at + band] = w;
            let placed = row_singles(w) & self.open[band];
            if placed == 0 {
                continue;
            }
            self.open[band] &= !placed;
            *nodes += u64::from(placed.count_ones());
            for e in 0..9 {
                let x = self.cand[3 * e + band];
                *dirty |= u32::from(x & placed != 0) << e;
                self.cand[3 * e + band] = x & !placed;
            }
            self.cand[at + band] = w;
            *dirty &= !(1 << d);
        }
        Ok(())
    }

    /// The open cells left with one digit: each clears its row and box in its digit's word (the
    /// digit's pass clears its column), marking the digit in `dirty`.
    #[inline]
    fn naked_singles(&mut self, nodes: &mut u64, dirty: &mut u32) -> Result<(), Dead> {
        for band in 0..3 {
            let (mut once, mut twice) = (0, 0);
            for d in 0..9 {
                let w = self.cand[3 * d + band];
                twice |= once & w;
                once |= w;
            }
            if once != BAND {
                return Err(Dead);
            }
            let singles = self.open[band] & !twice;
            if singles == 0 {
                continue;
            }
            self.open[band] &= !singles;
            *nodes += u64::from(singles.count_ones());
            for d in 0..9 {
                let w = self.cand[3 * d + band];
                let mut cells = w & singles;
                let mut peers = 0;
                while cells != 0 {
                    peers |= T.peers[cells.trailing_zeros() as usize];
                    cells &= cells - 1;
                }
                // Two singles of one digit in a row or a box.
                if peers & w & singles != 0 {
                    return Err(Dead);
                }
                *dirty |= u32::from(w & peers != 0) << d;
                self.cand[3 * d + band] = w & !peers;
            }
        }
        Ok(())
    }

    /// The triads of every band and stack (see the module docs), marking in `dirty` the digits
    /// whose words change.
    fn triads(&mut self, dirty: &mut u32) -> Result<(), Dead> {
        let (mut may, mut must) = ([0; 9], [0; 9]);
        for band in 0..3 {
            for d in 0..9 {
                // The digits' passes left each word's runs a union of matches.
                let x = runs(self.cand[3 * d + band]);
                may[d] = x;
                must[d] = u32::from(T.forced[x as usize]);
            }
            let (filled, full) = triads(&may, &must)?;
            if filled | full == 0 {
                continue;
            }
            for d in 0..9 {
                let free = may[d] & !must[d];
                let go = T.beside[(free & filled) as usize] | T.cells[(free & full) as usize];
                let w = self.cand[3 * d + band];
                *dirty |= u32::from(w & go != 0) << d;
                self.cand[3 * d + band] = w & !go;
            }
        }
        for s in 0..3 {
            for d in 0..9 {
                let x = stack([self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]], s);
                may[d] = u32::from(T.kept[x]);
                must[d] = u32::from(T.forced[x]);
            }
            let (filled, full) = triads(&may, &must)?;
            if filled | full == 0 {
                continue;
            }
            for d in 0..9 {
                let free = may[d] & !must[d];
                let go = u32::from(T.near[(free & filled) as usize]) | free & full;
                if go == 0 {
                    continue;
                }
                for band in 0..3 {
                    let cells = spread((go >> (3 * band) & 7) << (3 * s));
                    let w = self.cand[3 * d + band];
                    *dirty |= u32::from(w & cells != 0) << d;
                    self.cand[3 * d + band] = w & !cells;
                }
            }
        }
        Ok(())
    }

    /// Passes the digits of `dirty`, then places the naked singles, then the triads, each when
    /// the ones before have nothing left to do, to a fixpoint.
    fn propagate<const EXTRA: bool>(
        &mut self,
        mut dirty: u32,
        extra: &Extra,
        nodes: &mut u64,
    ) -> Result<(), Dead> {
        loop {
            while dirty != 0 {
                let d = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                self.digit::<EXTRA>(d, extra, nodes, &mut dirty)?;
            }
            self.naked_singles(nodes, &mut dirty)?;
            if EXTRA && dirty == 0 && !extra.locks.is_empty() {
                for d in 0..9 {
                    let mut w = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
                    let before = w;
                    extra.lock(&mut w);
                    if w != before {
                        self.cand[3 * d..3 * d + 3].copy_from_slice(&w);
                        dirty |= 1 << d;
                    }
                }
            }
            if dirty == 0 {
                self.triads(&mut dirty)?;
                if dirty == 0 {
                    return Ok(());
                }
            }
        }
    }

    /// The digits (bit `d` for digit `d + 1`) of cell `i` of a band.
    #[inline]
    fn digits(&self, band: usize, i: usize) -> u32 {
        (0..9).fold(0, |m, d| m | (self.cand[3 * d + band] >> i & 1) << d)
    }

    /// The item to branch on: in the band or stack whose digits keep the fewest matches in all
    /// (more than nine: not settled), the first digit with the fewest, two or more.
    fn choose(&self) -> Choice {
        let words: [[u32; 3]; 9] =
            std::array::from_fn(|d| [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]]);
        let matches: [[u8; 9]; 6] = std::array::from_fn(|k| {
            std::array::from_fn(|d| {
                if k < 3 { T.matches[runs(words[d][k]) as usize] } else { T.matches[stack(words[d], k - 3)] }
            })
        });
        let total = |k: usize| matches[k].iter().map(|m| m.count_ones()).sum::<u32>();
        let Some(k) = (0..6).filter(|&k| total(k) > 9).min_by_key(|&k| total(k)) else {
            let band = (0..3).find(|&band| self.open[band] != 0).expect("an open cell");
            let i = self.open[band].trailing_zeros() as usize;
            return Choice::Cell(band, i, self.digits(band, i));
        };
        let d =
            (0..9).filter(|&d| matches[k][d].count_ones() > 1).min_by_key(|&d| matches[k][d].count_ones());
        let d = d.expect("an unsettled band or stack has a digit with two matches or more");
        if k < 3 { Choice::Band(d, k, matches[k][d]) } else { Choice::Stack(d, k - 3, matches[k][d]) }
    }
}

/// One search.
struct Run<'a, 'f> {
    extra: &'a Extra,
    tally: Tally<'a, 'f>,
}

/// Searches a 9x9 grid whose rules add `extra` (see [`Extra::of`]) for up to `limit` solutions,
/// as [`Bits::search`](super::Bits::search) does.
pub(super) fn search(
    extra: &Extra,
    grid: &Puzzle,
    limit: u64,
    stops: Stops<'_>,
    found: Option<&mut dyn FnMut(Puzzle)>,
) -> Outcome {
    let tally = Tally { grid, limit, stops, found, solutions: 0, nodes: 0, guesses: 0 };
    let mut run = Run { extra, tally };
    let flow = match Board::load(grid, extra) {
        None => Err(Refused),
        Some(_) if limit == 0 => Ok(ControlFlow::Continue(())),
        // The classic grid's passes without the extra rules' test, as the engine specialises.
        Some(board) if extra.is_empty() => Ok(run.search::<false>(board, 0x1FF)),
        Some(board) => Ok(run.search::<true>(board, 0x1FF)),
    };
    run.tally.outcome(flow)
}

impl Run<'_, '_> {
    /// Searches from `board` after marking `dirty`'s digits changed: `Break(None)` at the limit,
    /// `Break(Some(why))` when stopped short.
    fn search<const EXTRA: bool>(&mut self, mut board: Board, dirty: u32) -> ControlFlow<Option<StopReason>> {
        if board.propagate::<EXTRA>(dirty, self.extra, &mut self.tally.nodes).is_err() {
            return ControlFlow::Continue(());
        }
        if self.tally.spent() {
            return ControlFlow::Break(Some(StopReason::Budget));
        }
        if board.open == [0; 3] {
            return self.tally.solution(|c| board.digits(c / 27, c % 27).trailing_zeros() + 1);
        }
        if self.tally.cancelled() {
            return ControlFlow::Break(Some(StopReason::Cancelled));
        }
        let choice = board.choose();
        let (d, mut left) = match choice {
            Choice::Band(d, _, matches) | Choice::Stack(d, _, matches) => (d, u32::from(matches)),
            Choice::Cell(_, _, digits) => (0, digits),
        };
        while left != 0 {
            let m = left.trailing_zeros() as usize;
            left &= left - 1;
            let mut child = board;
            let dirty = match choice {
                Choice::Band(_, band, _) => {
                    let keep = (0..3).fold(0, |cells, r| cells | 7 << (9 * r + 3 * MATCHES[m][r]));
                    child.cand[3 * d + band] &= keep;
                    1 << d
                }
                Choice::Stack(_, s, _) => {
                    for (band, &column) in MATCHES[m].iter().enumerate() {
                        let keep = !spread(7 << (3 * s)) | spread(1 << (3 * s + column));
                        child.cand[3 * d + band] &= keep;
                    }
                    1 << d
                }
                Choice::Cell(band, i, digits) => {
                    let others = digits & !(1 << m);
                    for e in (0..9).filter(|e| others >> e & 1 != 0) {
                        child.cand[3 * e + band] &= !(1 << i);
                    }
                    others
                }
            };
            self.tally.guesses += 1;
            self.search::<EXTRA>(child, dirty)?;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words from a seed, each bit open with probability one half or one eighth.
    fn words() -> impl Iterator<Item = u32> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        (0..20_000).map(move |k| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bits = |shift: u32| u32::try_from(state >> shift & u64::from(BAND)).unwrap();
            let w = bits(0);
            if k % 2 == 0 { w } else { w & bits(27) & bits(13) }
        })
    }

    #[test]
    fn runs_columns_and_row_singles_read_the_cells() {
        for w in words() {
            let open = |r: usize, c: usize| w >> (9 * r + c) & 1 != 0;
            let runs_naive =
                (0..9).filter(|k| (0..3).any(|j| open(k / 3, k % 3 * 3 + j))).fold(0, |m, k| m | 1 << k);
            assert_eq!(runs(w), runs_naive, "{w:027b}");
            let columns_naive = (0..9).filter(|&c| (0..3).any(|r| open(r, c))).fold(0, |m, c| m | 1 << c);
            assert_eq!(columns(w), columns_naive, "{w:027b}");
            let singles = (0..3)
                .filter(|&r| (0..9).filter(|&c| open(r, c)).count() == 1)
                .fold(0, |m, r| m | w & 511 << (9 * r));
            assert_eq!(row_singles(w), singles, "{w:027b}");
        }
    }

    #[test]
    fn extra_rules_are_the_units_locks_and_moves_they_add() {
        use crate::model::variant::Variant;
        let diagonal = Extra::of(&Rules::from(Variant::Diagonal)).unwrap();
        assert_eq!(diagonal.units.len(), 2);
        // Each diagonal meets three boxes in three cells, and rows and columns in one.
        assert_eq!(diagonal.locks.len(), 6);
        let main: u32 = diagonal.units[0].iter().map(|m| m.count_ones()).sum();
        assert_eq!(main, 9);
        for &(k, v) in &diagonal.locks {
            let shared: u32 = (0..3).map(|b| (diagonal.units[k][b] & v[b]).count_ones()).sum();
            assert_eq!(shared, 3);
        }
        let king = Extra::of(&Rules::from(Variant::AntiKing)).unwrap();
        assert!(king.units.is_empty() && king.locks.is_empty());
        // A king's moves: r1c2, r2c1, r2c2 from r1c1; eight from r3c3, three of them in band 2.
        assert_eq!(king.moves[0], [1 << 1 | 1 << 9 | 1 << 10, 0, 0]);
        assert_eq!(king.moves[20].map(u32::count_ones), [5, 3, 0]);
        assert!(Extra::of(&Rules::from(Variant::Classic)).unwrap().is_empty());
        assert!(Extra::of(&Rules::from(Variant::Windoku)).is_none());
    }

    #[test]
    fn the_tables_keep_what_some_match_uses() {
        for x in 0..512usize {
            let uses = |m: usize, k: usize| MATCHES[m][k / 3] == k % 3;
            let left: Vec<usize> =
                (0..6).filter(|&m| (0..9).all(|k| !uses(m, k) || x >> k & 1 != 0)).collect();
            let kept = (0..9).filter(|&k| left.iter().any(|&m| uses(m, k))).fold(0, |s, k| s | 1 << k);
            let forced = (0..9)
                .filter(|&k| !left.is_empty() && left.iter().all(|&m| uses(m, k)))
                .fold(0, |s, k| s | 1 << k);
            assert_eq!(usize::from(T.kept[x]), kept, "{x:09b}");
            assert_eq!(usize::from(T.forced[x]), forced, "{x:09b}");
            assert_eq!(T.matches[x].count_ones() as usize, left.len(), "{x:09b}");
            assert_eq!(T.matched[x], T.cells[kept], "{x:09b}");
        }
    }
}
