//! Algorithm X on bit sets of the sudoku matrix: the search that answers a puzzle without cages,
//! with forced items and one reduction applied in bulk.
//!
//! # The matrix as bit sets
//!
//! The encoder's matrix (see `encode`) has an option per cell and digit, and an item per cell and
//! per unit and digit (secondary items keep equal digits a forbidden move apart). Here the open
//! options of a cell are the bits of one word, `cand[c]` (bit `d` for digit `d + 1`): the cell's
//! item has as many options as the word has bits; the item of unit `u` and digit `d` has the cells
//! of `u` whose words hold bit `d`. A frame of the search is these words, one per cell, with a
//! flag bit for the cells placed, and the number of cells left. On a 9x9 grid (which, but for the
//! windows, takes a layout of the last section), with r1c1 = 5:
//!
//! ```text
//!   cand[r1c1] = 5 (placed)                cand[r1c2] = 1 2 3 4 . 6 7 8 9
//!   cand[r2c2] = 1 2 3 4 . 6 7 8 9         cand[r4c4] = 1 2 3 4 5 6 7 8 9   (no peer of r1c1)
//! ```
//!
//! Placing digit `d` in cell `c` (choosing an option) leaves one bit in `c`'s word and clears bit
//! `d` from the words of `c`'s peers (the cells of its units, and those a forbidden move away): the
//! options that share an item with the one chosen, gone with one `and` each, where the links
//! remove them one by one.
//!
//! The first frame places the givens. On grids of up to 128 cells (9x9 and smaller) it is built a
//! digit at a time instead, from each cell's peers as one 128-bit set: the union of the peers of
//! the givens of digit `d` is the set of cells that lose it, and the cells left one digit or none
//! are found from the digits' sets (a cell in one of them, in none), not by reading each cell.
//! Given by given, a puzzle of 40 givens would clear a thousand peers' bits one by one.
//!
//! # Forced items, in bulk
//!
//! An item with one option left is forced, as Algorithm X's choice of the shortest item would take
//! it first. A peer left with one bit is a cell with one option (a naked single), queued and placed
//! in turn; a peer left with none ends the branch. A unit's items are read all at once, from two
//! running unions of its cells' words: the digits seen once and not yet placed are the unit's items
//! with one option (hidden singles), a digit never seen an item with none. Only the units whose
//! cells lost options since they were last read are read again. Each placement is counted as a
//! node, as the engine counts the forced ones, so that `--stats` means what it means there.
//!
//! Units of 16 cells and more (larger grids, and 16x16 ones with more rules than parity marks) are
//! not read again: there the frame keeps each unit's items' lengths, as Algorithm X does, one byte
//! per unit and digit. A cell that loses a digit takes one off the counts of its units for that
//! digit; a count that falls to one puts the digit in the one cell left, one that falls to none
//! ends the branch; a digit placed in a unit sets the unit's count past any number of cells. On
//! 9x9 grids reading nine cells again costs less than keeping the counts (`benches/RESULTS.md`).
//!
//! # The reduction
//!
//! When every option of one item also has another (every cell of unit `u` that may take `d` lies
//! in unit `v`), the other item's remaining options without the first go (the cells of `v` outside
//! `u` lose `d`): Knuth's DLX-PRE does it once before a search, here it runs at every node, for
//! every pair of units sharing two cells or more, both ways at once (a box and a line: locked
//! candidates). The digits of the shared cells that the rest of `u` lacks leave the rest of `v`,
//! and the other way round. It runs when no single is left, for the pairs of units whose cells lost
//! options since it last ran. It removes options and keeps every solution, so the counts are the
//! engine's; only the tree is usually smaller.
//!
//! # The branching
//!
//! When nothing is forced, the search branches on an item with the fewest options, as Algorithm X
//! does: the first cell with two candidates, else the first unit's digit with two cells, else the
//! shortest item, cells first. Each frame is copied down a level before a choice, so going back is
//! taking the frame above.
//!
//! # Limits
//!
//! Killer cages are the engine's: their sums are options of digit sets, not of cells. So are rule
//! sets of more than 128 units (none up to 25x25 has). Iterating over every solution, a rating's
//! search effort and the long counts spread over threads are the engine's too.
//!
//! # The 9x9 and 16x16 grids
//!
//! The 9x9 grid with 3x3 boxes has its own layout, `bands`: one word per digit and band of three
//! rows, where a unit's options are read whole and one more reduction (triads) and a coarser
//! branching item pay. [`Bits::search`] hands it the classic rules, parity marks, the diagonals
//! and the forbidden moves (`bands::Extra` holds what they add); the windows stay here, where
//! they run faster (`benches/RESULTS.md` has the figures). The 16x16 grid with 4x4 boxes and no
//! rule but parity marks has one too, `sixteen`: one 64-bit word per digit and band of four rows,
//! the same passes a digit at a time, the branching of this module. The answers are the same: the
//! tests compare every layout with the engine.

mod bands;
mod sixteen;

use std::ops::ControlFlow;

use dlx_engine::{CancelFlag, StopReason};

use crate::model::puzzle::Puzzle;
use crate::model::rules::{Parity, Rules};
use crate::shape::{AnyShape, with_shape};

/// The flag of a placed cell's word.
const PLACED: u32 = 1 << 31;

/// The most units a rule set may have for this search (one bit each in a `u128`).
const MOST_UNITS: usize = 128;

/// A count or an index of the tables as a `u32` (cells are at most 625, items 625 * 26).
#[inline]
fn narrow(n: usize) -> u32 {
    u32::try_from(n).expect("the tables are small")
}

/// The digits (bit `d` for digit `d + 1`) that a parity mark rules out on a grid of `side`.
#[inline]
fn barred(parity: Parity, side: usize) -> u32 {
    // Digit `d + 1` is odd when `d` is even.
    let (all, odd) = ((1 << side) - 1, 0x5555_5555);
    match parity {
        Parity::Any => 0,
        Parity::Even => odd & all,
        Parity::Odd => !odd & all,
    }
}

/// A cell as the lists and the queue keep it.
#[inline]
fn cell16(c: usize) -> u16 {
    u16::try_from(c).expect("at most 625 cells")
}

/// What stops a search short: a budget of nodes, a cancel flag.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Stops<'a> {
    /// The most nodes.
    pub(crate) nodes: Option<u64>,
    /// The flag that cancels.
    pub(crate) cancel: Option<&'a CancelFlag>,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Solutions seen (up to the limit).
    pub(crate) solutions: u64,
    /// Nodes: placements beyond the givens, forced or chosen.
    pub(crate) nodes: u64,
    /// The branches taken where two ways or more were left (a cell's digits, a unit's cells, or
    /// in `bands` a digit's matches in a band or a stack).
    pub(crate) guesses: u64,
    /// Why it stopped short, if it did (`Ok(None)` when it did not); [`Refused`] when the
    /// givens cannot stand.
    pub(crate) stopped: Result<Option<StopReason>, Refused>,
}

/// A frame's dead end: `Err` with the item that lost every option (a cell's number, or the cells'
/// count plus `unit * side + digit index` for a unit's digit).
type Dead = Result<(), u32>;

/// How many of a search's latest dead ends its branching remembers.
const RECENT: usize = 16;

/// The givens cannot stand: one breaks a rule (a digit twice in a unit, or against its mark), or
/// together they leave a cell no digit (the caller's check of the rules tells the two apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Refused;

/// A range of [`Cells`]'s lists of cells (or of units).
#[derive(Debug, Clone, Copy)]
struct Span(u32, u32);

/// Two units sharing two cells or more: the shared cells, the rest of each.
#[derive(Debug, Clone, Copy)]
struct Lock {
    shared: Span,
    rest_u: Span,
    rest_v: Span,
    /// The two units, as bits.
    units: u128,
}

/// The search's tables for one rule set: on the 9x9 grid, what its rules add to the classic
/// grid's (`bands`); else one word of candidates per cell.
#[derive(Debug, Clone)]
pub(crate) struct Bits(Layout);

/// The two layouts of the bit sets.
#[derive(Debug, Clone)]
enum Layout {
    /// The 9x9 grid, by digit and band.
    Bands(bands::Extra),
    /// The 16x16 grid, by digit and band.
    Sixteen,
    /// One word per cell.
    Cells(Cells),
}

impl Bits {
    /// The tables of `rules`, or `None` when they have cages (whose sums are the engine's) or
    /// more units than the search tracks.
    pub(crate) fn new(rules: &Rules) -> Option<Bits> {
        if !rules.cages().is_empty() {
            return None;
        }
        match bands::Extra::of(rules) {
            Some(extra) => Some(Bits(Layout::Bands(extra))),
            None if sixteen::takes(rules) => Some(Bits(Layout::Sixteen)),
            None => Cells::new(rules).map(|cells| Bits(Layout::Cells(cells))),
        }
    }

    /// Searches `grid` for up to `limit` solutions (see [`Outcome`]), handing the first two to
    /// `found` when given, on `scratch`'s frames.
    pub(crate) fn search(
        &self,
        grid: &Puzzle,
        limit: u64,
        stops: Stops<'_>,
        scratch: &mut Scratch,
        found: Option<&mut dyn FnMut(Puzzle)>,
    ) -> Outcome {
        match &self.0 {
            Layout::Bands(extra) => bands::search(extra, grid, limit, stops, found),
            Layout::Sixteen => sixteen::search(grid, limit, stops, found),
            Layout::Cells(cells) => cells.search(grid, limit, stops, scratch, found),
        }
    }
}

/// The tables of one rule set for one word per cell: each cell's peers and units, the units'
/// cells, the pairs of units that lock. Every list of cells is a [`Span`] of one array.
#[derive(Debug, Clone)]
struct Cells {
    side: usize,
    cells: usize,
    /// All digits of a cell.
    all: u32,
    /// The lists of cells, `u16` each.
    lists: Vec<u16>,
    peers: Vec<Span>,
    /// Each cell's units, as bits.
    units_of: Vec<u128>,
    /// Each cell's units, as a list (a span of `lists`).
    homes: Vec<Span>,
    /// Whether the units' digits are counted (units of [`COUNTED`] cells or more), rather than
    /// each unit read again whole when its cells lose options.
    counted: bool,
    /// Every unit, as bits.
    every_unit: u128,
    units: Vec<Span>,
    locks: Vec<Lock>,
    /// Each cell's peers as bits, on grids of at most 128 cells (empty on others): the first
    /// frame is built from them a digit at a time.
    peer_bits: Vec<u128>,
}

/// The frames of a solver's searches and its queue of singles, kept from one puzzle to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    stack: Vec<u32>,
    /// The frames' counts of options per unit and digit, `units * side` each.
    counts: Vec<u8>,
    queue: Vec<u16>,
    /// The units' digits whose count fell to one or none, as `unit * side + digit`.
    checks: Vec<u16>,
}

impl Scratch {
    /// Room for `levels` frames of `width` words and `tally_width` counts.
    fn room(&mut self, levels: usize, width: usize, tally_width: usize) {
        if self.stack.len() < levels * width {
            self.stack.resize(levels * width, 0);
        }
        if self.counts.len() < levels * tally_width {
            self.counts.resize(levels * tally_width, 0);
        }
    }
}

/// A count of [`Scratch::counts`] whose unit has its digit placed: past any count of cells, so
/// that taking cells off it never reads as one option or none.
const COVERED: u8 = 0x80;

/// The shortest units whose digits are counted (see the module docs): counting costs more than
/// it saves on shorter ones (`benches/RESULTS.md`).
const COUNTED: usize = 16;

impl Cells {
    /// The tables of `rules` (without cages), or `None` when they have more units than the search
    /// tracks.
    fn new(rules: &Rules) -> Option<Cells> {
        let shape = AnyShape::of(rules);
        with_shape!(&shape, shape => {
            let (side, cells) = (shape.side(), shape.cells());
            let count = shape.unit_count();
            if count > MOST_UNITS {
                return None;
            }
            let mut lists = Vec::new();
            let mut span = |cells: &mut dyn Iterator<Item = usize>| {
                let start = lists.len();
                lists.extend(cells.map(cell16));
                Span(narrow(start), narrow(lists.len()))
            };
            let peers = (0..cells).map(|c| span(&mut shape.peers(c).into_iter())).collect();
            let units = (0..count).map(|u| span(&mut shape.unit(u).iter().copied())).collect();
            // The shape's pairs of units sharing two cells or more, each once (both ways at once),
            // but for a unit that is another's cells (a jigsaw region along a row).
            let mut locks = Vec::new();
            for &(u, v, shared, rest_v) in shape.pairs() {
                if u > v || rest_v == 0 {
                    continue;
                }
                let (a, b) = (shape.unit(u), shape.unit(v));
                let at = |cells: &[usize], positions: u32| {
                    let chosen = cells.iter().enumerate().filter(move |&(k, _)| positions & 1 << k != 0);
                    chosen.map(|(_, &c)| c).collect::<Vec<_>>()
                };
                locks.push(Lock {
                    shared: span(&mut at(a, shared).into_iter()),
                    rest_u: span(&mut at(a, !shared).into_iter()),
                    rest_v: span(&mut at(b, rest_v).into_iter()),
                    units: 1 << u | 1 << v,
                });
            }
            let mut units_of = vec![0u128; cells];
            for u in 0..count {
                for &c in shape.unit(u) {
                    units_of[c] |= 1 << u;
                }
            }
            let homes = units_of
                .iter()
                .map(|&bits| {
                    span(&mut (0..count).filter(|&u| bits >> u & 1 != 0))
                })
                .collect();
            let all = (1u32 << side) - 1;
            let every_unit = if count == MOST_UNITS { !0 } else { (1 << count) - 1 };
            let counted = side >= COUNTED;
            let peer_bits = if cells <= 128 {
                (0..cells).map(|c| shape.peers(c).into_iter().fold(0u128, |m, p| m | 1 << p)).collect()
            } else {
                Vec::new()
            };
            Some(Cells {
                side,
                cells,
                all,
                lists,
                peers,
                units_of,
                homes,
                counted,
                every_unit,
                units,
                locks,
                peer_bits,
            })
        })
    }

    /// The cells of a span.
    #[inline]
    fn list(&self, span: Span) -> &[u16] {
        &self.lists[span.0 as usize..span.1 as usize]
    }

    /// The first frame of grids above 128 cells: every cell takes the digits its mark allows,
    /// then each given's peers lose its digit without a test per peer (which mispredicts); the
    /// cells are read once the givens are all placed. `None` when a given is not open (a mark,
    /// or an earlier given's peers, cleared its digit).
    fn first_frame_by_givens(&self, grid: &Puzzle, frame: &mut [u32]) -> Option<()> {
        frame[..self.cells].fill(self.all);
        frame[self.cells] = narrow(self.cells);
        for (c, &parity) in grid.rules().parities().iter().enumerate() {
            frame[c] &= !barred(parity, self.side);
        }
        for (c, &digit) in grid.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let bit = 1 << (digit - 1);
            if frame[c] & bit == 0 {
                return None;
            }
            frame[c] = bit | PLACED;
            frame[self.cells] -= 1;
            for &p in self.list(self.peers[c]) {
                frame[usize::from(p)] &= !bit;
            }
        }
        Some(())
    }

    /// The first frame of grids of 128 cells or fewer, a digit at a time: the cells that see a
    /// given of it, then its open cells take it (a word each for the candidates left, where the
    /// givens' peers are many more); the open cells left one digit are queued and one left none
    /// ends the search, both found from the digits' cells as bits without reading the cells
    /// again. `None` when a given is not open or a cell has no digit.
    fn first_frame_by_digits(&self, grid: &Puzzle, frame: &mut [u32], queue: &mut Vec<u16>) -> Option<()> {
        let (mut seen, mut given) = ([0u128; 16], [0u128; 16]);
        for (c, &digit) in grid.cells().iter().enumerate() {
            // An empty cell's 0 lands on slot 15, past the digits of these grids (side 11 at
            // most): no branch per cell.
            let d = usize::from(digit.wrapping_sub(1)) & 15;
            seen[d] |= self.peer_bits[c];
            given[d] |= 1 << c;
        }
        let (seen, given) = (&seen[..self.side], &given[..self.side]);
        let givens = given.iter().fold(0, |m, g| m | g);
        let every_cell = u128::MAX >> (128 - self.cells);
        // The cells marked even, and odd: digits of the other parity are not theirs.
        let (mut even, mut odd) = (0u128, 0u128);
        for (c, &parity) in grid.rules().parities().iter().enumerate() {
            match parity {
                Parity::Any => {}
                Parity::Even => even |= 1 << c,
                Parity::Odd => odd |= 1 << c,
            }
        }
        frame[..self.cells].fill(0);
        let (mut once, mut twice) = (0u128, 0u128);
        for (d, (&seen, &given)) in seen.iter().zip(given).enumerate() {
            // Digit `d + 1` is odd when `d` is even.
            let barred = if d % 2 == 0 { even } else { odd };
            // A given that sees another of its digit, or that its mark bars, is not open.
            if given & (seen | barred) != 0 {
                return None;
            }
            let open = every_cell & !(seen | givens | barred);
            (once, twice) = (once | open, twice | once & open);
            let (mut open, mut placed) = (open, given);
            while open != 0 {
                frame[open.trailing_zeros() as usize] |= 1 << d;
                open &= open - 1;
            }
            while placed != 0 {
                frame[placed.trailing_zeros() as usize] = 1 << d | PLACED;
                placed &= placed - 1;
            }
        }
        frame[self.cells] = narrow(self.cells - givens.count_ones() as usize);
        if every_cell & !givens & !once != 0 {
            return None;
        }
        let mut singles = once & !twice;
        while singles != 0 {
            queue.push(cell16(singles.trailing_zeros() as usize));
            singles &= singles - 1;
        }
        Some(())
    }

    /// [`Bits::search`] on one word per cell.
    fn search(
        &self,
        grid: &Puzzle,
        limit: u64,
        stops: Stops<'_>,
        scratch: &mut Scratch,
        found: Option<&mut dyn FnMut(Puzzle)>,
    ) -> Outcome {
        scratch.room(2, self.cells + 1, self.tally_width());
        let recent = Recent { ring: [0; RECENT], count: 0 };
        let tally = Tally { grid, limit, stops, found, solutions: 0, nodes: 0, guesses: 0 };
        let mut run = Run { t: self, scratch, tally, recent };
        let flow = match run.load() {
            None => Err(Refused),
            Some(()) if limit == 0 => Ok(ControlFlow::Continue(())),
            Some(()) => Ok(run.search(0, self.every_unit)),
        };
        run.tally.outcome(flow)
    }

    /// The length of a frame's counts: one per unit and digit when they are counted, else none.
    fn tally_width(&self) -> usize {
        if self.counted { self.units.len() * self.side } else { 0 }
    }

    /// The counts of unit `u`'s digits in a frame's counts.
    #[inline]
    fn tallies<'c>(&self, counts: &'c mut [u8], u: usize) -> &'c mut [u8] {
        &mut counts[u * self.side..(u + 1) * self.side]
    }

    /// Takes the digits of `lost` off the counts of cell `p`'s units, noting the units' digits
    /// left with one option; the item of one left with none, if there is one.
    #[inline]
    fn lose(&self, counts: &mut [u8], p: usize, lost: u32, checks: &mut Vec<u16>) -> Dead {
        let homes = self.list(self.homes[p]);
        let mut digits = lost;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            for &u in homes {
                let item = usize::from(u) * self.side + d;
                let n = counts[item] - 1;
                counts[item] = n;
                if n <= 1 {
                    if n == 0 {
                        return Err(narrow(self.cells + item));
                    }
                    checks.push(cell16(item));
                }
            }
        }
        Ok(())
    }

    /// Clears `bits` from cell `p`'s word, queueing it when one is left and marking its units;
    /// the item that lost every option, if one did.
    #[inline]
    fn strike(&self, frame: &mut [u32], counts: &mut [u8], p: usize, bits: u32, work: &mut Work<'_>) -> Dead {
        let word = frame[p];
        let lost = word & bits & self.all;
        if lost == 0 {
            return Ok(());
        }
        let left = word & !bits;
        if left & self.all == 0 {
            return Err(narrow(p));
        }
        frame[p] = left;
        if left & (left - 1) == 0 {
            work.queue.push(cell16(p));
        }
        self.lost(counts, p, lost, work)
    }

    /// Leaves cell `c` the digit of `bit` alone (a unit's single, or a branch), queued to be
    /// placed; the item that lost every option, if one did.
    fn fix(&self, frame: &mut [u32], counts: &mut [u8], c: usize, bit: u32, work: &mut Work<'_>) -> Dead {
        let others = frame[c] & self.all & !bit;
        frame[c] = bit;
        work.queue.push(cell16(c));
        self.lost(counts, c, others, work)
    }

    /// Cell `c` lost the digits of `lost`: its units are marked for the reduction, and their
    /// counts taken down (or, when not counted, the units marked to be read again).
    #[inline]
    fn lost(&self, counts: &mut [u8], c: usize, lost: u32, work: &mut Work<'_>) -> Dead {
        work.touched |= self.units_of[c];
        if self.counted {
            return self.lose(counts, c, lost, work.checks);
        }
        work.pending |= self.units_of[c];
        Ok(())
    }

    /// The item of unit `u` and the digit of `bit`.
    fn unit_item(&self, u: usize, bit: u32) -> u32 {
        narrow(self.cells + u * self.side) + bit.trailing_zeros()
    }

    /// The options an item has left in a frame, `None` when it is covered (its cell or its
    /// unit's digit placed).
    fn length(&self, frame: &[u32], counts: &[u8], item: u32) -> Option<u32> {
        let item = item as usize;
        if item < self.cells {
            let word = frame[item];
            return (word & PLACED == 0).then(|| word.count_ones());
        }
        if self.counted {
            let n = counts[item - self.cells];
            return (n < COVERED).then_some(u32::from(n));
        }
        let (u, bit) = ((item - self.cells) / self.side, 1 << ((item - self.cells) % self.side));
        let mut n = 0;
        for &c in self.list(self.units[u]) {
            let word = frame[usize::from(c)];
            if word & bit != 0 {
                if word & PLACED != 0 {
                    return None;
                }
                n += 1;
            }
        }
        Some(n)
    }

    /// Places the queued singles, then the units' singles and the reduction, to a fixpoint;
    /// the item that lost every option, if one did.
    fn propagate(&self, frame: &mut [u32], counts: &mut [u8], work: &mut Work<'_>, nodes: &mut u64) -> Dead {
        let cells = self.cells;
        loop {
            while let Some(c) = work.queue.pop() {
                let c = usize::from(c);
                let word = frame[c];
                if word & PLACED != 0 {
                    continue;
                }
                frame[c] = word | PLACED;
                frame[cells] -= 1;
                *nodes += 1;
                if self.counted {
                    let d = word.trailing_zeros() as usize;
                    for &u in self.list(self.homes[c]) {
                        self.tallies(counts, usize::from(u))[d] = COVERED;
                    }
                }
                // The peers that hold the digit, found without a branch per peer (most lack it,
                // and a branch each mispredicts), 64 peers at a time; then each is struck.
                for chunk in self.list(self.peers[c]).chunks(64) {
                    let mut hits = 0u64;
                    for (k, &p) in chunk.iter().enumerate() {
                        hits |= u64::from(frame[usize::from(p)] & word != 0) << k;
                    }
                    while hits != 0 {
                        let p = usize::from(chunk[hits.trailing_zeros() as usize]);
                        hits &= hits - 1;
                        self.strike(frame, counts, p, word, work)?;
                    }
                }
            }
            if frame[cells] == 0 {
                return Ok(());
            }
            if let Some(check) = work.checks.pop() {
                self.single(frame, counts, usize::from(check), work)?;
                continue;
            }
            if work.pending != 0 {
                let mut units = std::mem::take(&mut work.pending);
                while units != 0 {
                    let u = units.trailing_zeros() as usize;
                    units &= units - 1;
                    self.unit_singles(frame, u, work)?;
                }
                if !work.queue.is_empty() {
                    continue;
                }
            }
            let touched = std::mem::take(&mut work.touched);
            for lock in &self.locks {
                if lock.units & touched != 0 {
                    self.lock(frame, counts, lock, work)?;
                }
            }
            if work.queue.is_empty() && work.checks.is_empty() && work.pending == 0 {
                return Ok(());
            }
        }
    }

    /// A unit's digit whose count fell to one or none (`unit * side + digit`): the cell left
    /// takes it; the item when none is left.
    fn single(&self, frame: &mut [u32], counts: &mut [u8], check: usize, work: &mut Work<'_>) -> Dead {
        let (u, bit) = (check / self.side, 1 << (check % self.side));
        match counts[check] {
            0 => return Err(self.unit_item(u, bit)),
            1 => {}
            _ => return Ok(()),
        }
        let cells = self.list(self.units[u]);
        let Some(c) = cells.iter().map(|&c| usize::from(c)).find(|&c| frame[c] & bit != 0) else {
            debug_assert!(false, "a count of one is one cell that holds the digit");
            return Err(self.unit_item(u, bit));
        };
        if frame[c] & !bit & self.all == 0 {
            return Ok(());
        }
        self.fix(frame, counts, c, bit, work)
    }

    /// Reads unit `u` whole (when its digits are not counted): its digits seen in one cell and not
    /// yet placed become singles; the item of a digit with no cell left, if there is one.
    #[inline]
    fn unit_singles(&self, frame: &mut [u32], u: usize, work: &mut Work<'_>) -> Dead {
        let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
        let cells = self.list(self.units[u]);
        for &c in cells {
            let word = frame[usize::from(c)];
            // Without a branch: a placed cell's word goes to `placed`, another's to the unions.
            let is_placed = 0u32.wrapping_sub(word >> 31);
            placed |= word & is_placed;
            let open = word & !is_placed;
            twice |= once & open;
            once |= open;
        }
        let missing = !(once | placed) & self.all;
        if missing != 0 {
            return Err(self.unit_item(u, missing));
        }
        let mut singles = once & !twice & !placed;
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles &= singles - 1;
            // A cell that was the single of an earlier digit has lost this one: no cell is left.
            let Some(&c) = cells.iter().find(|&&c| frame[usize::from(c)] & bit != 0) else {
                return Err(self.unit_item(u, bit));
            };
            let c = usize::from(c);
            if frame[c] == bit {
                continue;
            }
            // Not counted: no counts to take down.
            self.fix(frame, &mut [], c, bit, work)?;
        }
        Ok(())
    }

    /// Applies the reduction to a pair of units; the item of a cell that lost every option, if
    /// one did.
    #[inline]
    fn lock(&self, frame: &mut [u32], counts: &mut [u8], lock: &Lock, work: &mut Work<'_>) -> Dead {
        let or =
            |frame: &[u32], span: Span| self.list(span).iter().fold(0, |m, &c| m | frame[usize::from(c)]);
        let (shared, rest_u, rest_v) =
            (or(frame, lock.shared), or(frame, lock.rest_u), or(frame, lock.rest_v));
        let to_v = shared & !rest_u & self.all;
        if to_v & rest_v != 0 {
            for &p in self.list(lock.rest_v) {
                self.strike(frame, counts, usize::from(p), to_v, work)?;
            }
        }
        let to_u = shared & !rest_v & self.all;
        if to_u & rest_u != 0 {
            for &p in self.list(lock.rest_u) {
                self.strike(frame, counts, usize::from(p), to_u, work)?;
            }
        }
        Ok(())
    }

    /// The item to branch on, in a frame where nothing is forced: the first cell with two
    /// candidates, else the first unit's digit with two cells, else the item with the fewest
    /// options, cells first.
    fn choose(&self, frame: &[u32], counts: &[u8], recent: &Recent) -> Choice {
        let (n, earliest) = self.shortest(frame, counts);
        // Among the shortest items, the one that most recently ended a branch, if one is.
        let again = recent.newest_first().find(|&item| self.length(frame, counts, item) == Some(n));
        match again {
            Some(item) if (item as usize) < self.cells => Choice::Cell(item as usize),
            Some(item) => {
                let item = item as usize - self.cells;
                Choice::Unit(item / self.side, narrow(item % self.side))
            }
            None => earliest,
        }
    }

    /// The earliest shortest item and its length (see [`choose`](Self::choose)).
    fn shortest(&self, frame: &[u32], counts: &[u8]) -> (u32, Choice) {
        let mut best = (u32::MAX, Choice::Cell(usize::MAX));
        for (c, &word) in frame[..self.cells].iter().enumerate() {
            if word & PLACED == 0 {
                let n = word.count_ones();
                if n < best.0 {
                    best = (n, Choice::Cell(c));
                    if n == 2 {
                        return best;
                    }
                }
            }
        }
        if !self.counted {
            return self.shortest_read(frame, best);
        }
        let mut earliest = None;
        for (item, &n) in counts.iter().enumerate() {
            let n = u32::from(n);
            if n < best.0 && earliest.is_none_or(|(m, _)| n < m) {
                earliest = Some((n, item));
                if n == 2 {
                    break;
                }
            }
        }
        match earliest {
            Some((n, item)) => (n, Choice::Unit(item / self.side, narrow(item % self.side))),
            None => best,
        }
    }

    /// The units' part of [`shortest`](Self::shortest) when their digits are not counted: each
    /// unit read whole, after `best`, the shortest cell.
    fn shortest_read(&self, frame: &[u32], mut best: (u32, Choice)) -> (u32, Choice) {
        for (u, &span) in self.units.iter().enumerate() {
            let (mut once, mut twice, mut thrice, mut placed) = (0u32, 0u32, 0u32, 0u32);
            for &c in self.list(span) {
                let word = frame[usize::from(c)];
                if word & PLACED != 0 {
                    placed |= word;
                } else {
                    thrice |= twice & word;
                    twice |= once & word;
                    once |= word;
                }
            }
            let pairs = twice & !thrice & !placed;
            if pairs != 0 {
                return (2, Choice::Unit(u, pairs.trailing_zeros()));
            }
            if best.0 > 3 {
                let mut open = once & !placed;
                while open != 0 {
                    let bit = open & open.wrapping_neg();
                    open &= open - 1;
                    let n =
                        narrow(self.list(span).iter().filter(|&&c| frame[usize::from(c)] & bit != 0).count());
                    if n < best.0 {
                        best = (n, Choice::Unit(u, bit.trailing_zeros()));
                    }
                }
            }
        }
        best
    }
}

/// The queues and marks a frame's propagation shares with its callers.
struct Work<'s> {
    queue: &'s mut Vec<u16>,
    checks: &'s mut Vec<u16>,
    /// The units whose cells lost options since the reduction last ran.
    touched: u128,
    /// The units to read again whole (when their digits are not counted).
    pending: u128,
}

/// An item to branch on.
#[derive(Debug, Clone, Copy)]
enum Choice {
    /// A cell: one branch per candidate.
    Cell(usize),
    /// A unit and a digit's bit: one branch per cell of the unit that may take it.
    Unit(usize, u32),
}

/// What a search keeps whatever its layout: the puzzle, the limit and the stops, where the
/// solutions go, and the counts.
struct Tally<'a, 'f> {
    grid: &'a Puzzle,
    limit: u64,
    stops: Stops<'a>,
    found: Option<&'a mut (dyn FnMut(Puzzle) + 'f)>,
    solutions: u64,
    nodes: u64,
    guesses: u64,
}

impl Tally<'_, '_> {
    /// Whether the nodes went past the budget.
    fn spent(&self) -> bool {
        self.stops.nodes.is_some_and(|most| self.nodes > most)
    }

    /// Whether the search is cancelled.
    fn cancelled(&self) -> bool {
        self.stops.cancel.is_some_and(CancelFlag::is_cancelled)
    }

    /// Counts a solution, handing the first two to `found` (`digit` gives each cell's, from 1):
    /// `Break(None)` at the limit.
    fn solution(&mut self, digit: impl Fn(usize) -> u32) -> ControlFlow<Option<StopReason>> {
        self.solutions += 1;
        if let Some(found) = self.found.as_mut().filter(|_| self.solutions <= 2) {
            let mut full = self.grid.clone();
            for c in 0..full.cells().len() {
                full.set(c, u8::try_from(digit(c)).expect("sides are at most 25"));
            }
            found(full);
        }
        if self.solutions >= self.limit {
            ControlFlow::Break(None)
        } else if self.solutions == u64::MAX {
            ControlFlow::Break(Some(StopReason::Overflow))
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The outcome of a search that ended so (`Err` when the givens were refused).
    fn outcome(&self, flow: Result<ControlFlow<Option<StopReason>>, Refused>) -> Outcome {
        let stopped = flow.map(|flow| match flow {
            ControlFlow::Continue(()) => None,
            ControlFlow::Break(why) => why,
        });
        Outcome { solutions: self.solutions, nodes: self.nodes, guesses: self.guesses, stopped }
    }
}

/// One search.
struct Run<'a, 'f> {
    t: &'a Cells,
    scratch: &'a mut Scratch,
    tally: Tally<'a, 'f>,
    recent: Recent,
}

/// The latest dead ends of a search, for its branching: ties between the shortest items go to
/// the one that most recently lost every option, as the engine's last-conflict rule does.
struct Recent {
    ring: [u32; RECENT],
    count: usize,
}

impl Recent {
    /// Remembers a dead end.
    fn note(&mut self, item: u32) {
        self.ring[self.count % RECENT] = item;
        self.count += 1;
    }

    /// The dead ends remembered, newest first.
    fn newest_first(&self) -> impl Iterator<Item = u32> + '_ {
        (self.count.saturating_sub(RECENT)..self.count).rev().map(|k| self.ring[k % RECENT])
    }
}

impl Run<'_, '_> {
    /// The first frame: the givens placed and their peers' digits cleared (a digit at a time on
    /// grids of 128 cells or fewer), the cells left one digit queued, and the units' digits
    /// counted where they are (each unit's digits left with one cell or none noted); `None` when
    /// a given is not open or leaves a cell no digit.
    fn load(&mut self) -> Option<()> {
        let (t, grid) = (self.t, self.tally.grid);
        let Scratch { stack, counts, queue, checks } = &mut *self.scratch;
        let frame = &mut stack[..=t.cells];
        queue.clear();
        checks.clear();
        if !t.peer_bits.is_empty() {
            debug_assert!(!t.counted, "grids of 128 cells or fewer are not counted");
            return t.first_frame_by_digits(grid, frame, queue);
        }
        t.first_frame_by_givens(grid, frame)?;
        for (c, &word) in frame[..t.cells].iter().enumerate() {
            if word & PLACED == 0 {
                if word == 0 {
                    return None;
                }
                if word & (word - 1) == 0 {
                    queue.push(cell16(c));
                }
            }
        }
        if !t.counted {
            return Some(());
        }
        let counts = &mut counts[..t.tally_width()];
        for (u, &span) in t.units.iter().enumerate() {
            let tallies = t.tallies(counts, u);
            tallies.fill(0);
            let mut placed = 0;
            for &c in t.list(span) {
                let word = frame[usize::from(c)];
                if word & PLACED != 0 {
                    placed |= word;
                    continue;
                }
                let mut digits = word;
                while digits != 0 {
                    tallies[digits.trailing_zeros() as usize] += 1;
                    digits &= digits - 1;
                }
            }
            for (d, n) in tallies.iter_mut().enumerate() {
                if placed >> d & 1 != 0 {
                    *n = COVERED;
                } else if *n <= 1 {
                    checks.push(cell16(u * t.side + d));
                }
            }
        }
        Some(())
    }

    /// Searches from the frame at `depth`, whose `touched` units lost options since the
    /// reduction last ran: `Break(None)` at the limit, `Break(Some(why))` when
    /// stopped short.
    fn search(&mut self, depth: usize, touched: u128) -> ControlFlow<Option<StopReason>> {
        let t = self.t;
        let (width, tally_width) = (t.cells + 1, t.tally_width());
        let (at, at_counts) = (depth * width, depth * tally_width);
        let Scratch { stack, counts, queue, checks } = &mut *self.scratch;
        let pending = if t.counted { 0 } else { touched };
        let mut work = Work { queue, checks, touched, pending };
        let frame = &mut stack[at..at + width];
        let tallies = &mut counts[at_counts..at_counts + tally_width];
        if let Err(dead) = t.propagate(frame, tallies, &mut work, &mut self.tally.nodes) {
            return self.dead_end(dead);
        }
        if self.tally.spent() {
            return ControlFlow::Break(Some(StopReason::Budget));
        }
        if stack[at + t.cells] == 0 {
            let frame = &stack[at..at + t.cells];
            return self.tally.solution(|c| (frame[c] & t.all).trailing_zeros() + 1);
        }
        if self.tally.cancelled() {
            return ControlFlow::Break(Some(StopReason::Cancelled));
        }
        self.scratch.room(depth + 2, width, tally_width);
        let Scratch { stack, counts, .. } = &*self.scratch;
        match t.choose(&stack[at..at + width], &counts[at_counts..at_counts + tally_width], &self.recent) {
            Choice::Cell(c) => {
                let mut digits = stack[at + c] & t.all;
                while digits != 0 {
                    let bit = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    self.branch(depth, c, bit)?;
                }
            }
            Choice::Unit(u, d) => {
                let bit = 1 << d;
                for &c in t.list(t.units[u]) {
                    if self.scratch.stack[at + usize::from(c)] & bit != 0 {
                        self.branch(depth, usize::from(c), bit)?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// A branch that ended with `dead` out of options: what was queued for it goes, and the
    /// item is remembered for the branching.
    fn dead_end(&mut self, dead: u32) -> ControlFlow<Option<StopReason>> {
        self.scratch.queue.clear();
        self.scratch.checks.clear();
        self.recent.note(dead);
        ControlFlow::Continue(())
    }

    /// Tries the digit of `bit` in cell `c`, a level below `depth`.
    fn branch(&mut self, depth: usize, c: usize, bit: u32) -> ControlFlow<Option<StopReason>> {
        let t = self.t;
        let (width, tally_width) = (t.cells + 1, t.tally_width());
        let (at, at_counts) = (depth * width, depth * tally_width);
        let Scratch { stack, counts, queue, checks } = &mut *self.scratch;
        stack.copy_within(at..at + width, at + width);
        counts.copy_within(at_counts..at_counts + tally_width, at_counts + tally_width);
        // A node, counted when the queue places it.
        self.tally.guesses += 1;
        let mut work = Work { queue, checks, touched: 0, pending: 0 };
        let frame = &mut stack[at + width..at + 2 * width];
        let tallies = &mut counts[at_counts + tally_width..at_counts + 2 * tally_width];
        if let Err(dead) = t.fix(frame, tallies, c, bit, &mut work) {
            return self.dead_end(dead);
        }
        let touched = work.touched;
        self.search(depth + 1, touched)
    }
}
