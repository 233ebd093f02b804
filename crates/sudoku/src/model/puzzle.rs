//! A puzzle of any size: its rules and its givens, and the check that the givens obey them.

use std::fmt;
use std::sync::Arc;

use super::rules::{At, Parity, Rules};
use super::size::{Size, Symbols};
use crate::model::variant::{Unit, Variant};

/// A puzzle of any size and rules: the [`Rules`] and the given digits (0 for an empty cell),
/// with the [`Symbols`] it is written in.
///
/// The rules are shared, not copied: cloning a grid, or reading a batch of puzzles of the same
/// rules ([`Records`](crate::Records) hands each record the previous one's rules when they are
/// equal), copies a pointer to them. [`Puzzle::rules_mut`] copies them first when another grid
/// shares them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    rules: Arc<Rules>,
    cells: Vec<u8>,
    symbols: Symbols,
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({} {})", self.rules.describe(), self.to_line())
    }
}

/// Givens that break their rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleError {
    /// A digit twice in a unit.
    #[error("digit {digit} appears twice in {unit} ({first}, {second})")]
    Repeated {
        /// The digit (written as the puzzle writes it).
        digit: char,
        /// The unit.
        unit: Unit,
        /// The first cell holding it.
        first: At,
        /// The second.
        second: At,
    },
    /// A digit against the cell's parity mark.
    #[error("{which} digit {digit} given in {parity} cell {cell}")]
    Parity {
        /// The digit.
        digit: char,
        /// `odd` or `even`: the digit's.
        which: &'static str,
        /// `even` or `odd`: the cell's.
        parity: &'static str,
        /// The cell.
        cell: At,
    },
    /// Equal digits a forbidden move apart.
    #[error("digit {digit} given at {first} and {second}, {what} apart")]
    ForbiddenMove {
        /// The digit.
        digit: char,
        /// The first cell.
        first: At,
        /// The second.
        second: At,
        /// The move, "a knight's move".
        what: &'static str,
    },
    /// A digit twice in a cage.
    #[error("digit {digit} appears twice in cage {cage} ({first}, {second})")]
    CageRepeated {
        /// The digit.
        digit: char,
        /// The cage, from 1.
        cage: usize,
        /// The first cell.
        first: At,
        /// The second.
        second: At,
    },
    /// Givens of a cage that add up to more than its sum, or fill it with another sum.
    #[error("the givens of cage {cage} add up to {given}, its sum is {sum}")]
    CageSum {
        /// The cage, from 1.
        cage: usize,
        /// Its givens' sum.
        given: u32,
        /// Its sum.
        sum: u32,
    },
    /// A digit above the side.
    #[error("digit {digit} at {cell} is beyond the side {side}")]
    Digit {
        /// The digit.
        digit: u8,
        /// Where.
        cell: At,
        /// The side.
        side: usize,
    },
    /// Cells that are not one per cell of the grid.
    #[error("{found} cells given; a {size} grid has {}", size.cells())]
    Length {
        /// Cells given.
        found: usize,
        /// The grid.
        size: Size,
    },
}

impl Puzzle {
    /// The empty grid of these rules.
    pub fn new(rules: impl Into<Arc<Rules>>) -> Puzzle {
        let rules = rules.into();
        let cells = vec![0; rules.size().cells()];
        Puzzle { rules, cells, symbols: Symbols::OneBased }
    }

    /// A puzzle from its cells, row-major (0 empty, 1 to the side given). The givens are not
    /// checked against the rules (see [`Puzzle::check`]).
    pub fn with_cells(rules: impl Into<Arc<Rules>>, cells: Vec<u8>) -> Result<Puzzle, RuleError> {
        let rules = rules.into();
        let size = rules.size();
        if cells.len() != size.cells() {
            return Err(RuleError::Length { found: cells.len(), size });
        }
        if let Some(cell) = cells.iter().position(|&d| usize::from(d) > size.side()) {
            return Err(RuleError::Digit {
                digit: cells[cell],
                cell: At { cell, side: size.side() },
                side: size.side(),
            });
        }
        Ok(Puzzle { rules, cells, symbols: Symbols::OneBased })
    }

    /// A puzzle of `rules` with these cells, as they are (their number and digits already
    /// the rules', as the 9x9 form's are).
    pub(crate) fn from_parts(rules: Arc<Rules>, cells: Vec<u8>) -> Puzzle {
        debug_assert_eq!(cells.len(), rules.size().cells());
        Puzzle { rules, cells, symbols: Symbols::OneBased }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules as shared: [`Puzzle::with_cells`] and [`Puzzle::new`] take them so, to make more
    /// puzzles of them without copying them.
    pub fn shared_rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The rules, to add to them (the givens stay); copied first when another grid shares them.
    pub fn rules_mut(&mut self) -> &mut Rules {
        Arc::make_mut(&mut self.rules)
    }

    /// The grid with the constraints of `variant` (a record's, the caller's) added to its rules.
    pub(crate) fn with_variant(mut self, variant: Option<Variant>) -> Puzzle {
        if let Some(variant) = variant {
            let added = Rules::from(variant);
            if added.constraints().any(|c| !self.rules.has(c)) {
                let rules = self.rules_mut();
                for c in added.constraints() {
                    rules.add(c);
                }
            }
        }
        self
    }

    /// Gives the grid these rules, which the caller knows fit it (rules of its own with
    /// constraints added).
    pub(crate) fn set_shared_rules(&mut self, rules: Arc<Rules>) {
        debug_assert_eq!(rules.size(), self.rules.size());
        self.rules = rules;
    }

    /// Shares `rules` when they are the grid's own (equal): the grid then points to them, and
    /// its copy is dropped. Returns whether they were.
    pub fn share_rules(&mut self, rules: &Arc<Rules>) -> bool {
        if Arc::ptr_eq(&self.rules, rules) {
            return true;
        }
        let equal = *self.rules == **rules;
        if equal {
            self.rules = Arc::clone(rules);
        }
        equal
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.rules.size()
    }

    /// The cells, row-major: 0 empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The digit in a cell (0 when empty). Panics outside the grid.
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell: 0 empties it. Panics outside the grid or for a digit above the side.
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(usize::from(digit) <= self.size().side(), "digit {digit} out of range");
        self.cells[cell] = digit;
    }

    /// How the digits are written.
    pub fn symbols(&self) -> Symbols {
        self.symbols
    }

    /// Sets how the digits are written.
    pub fn set_symbols(&mut self, symbols: Symbols) {
        self.symbols = symbols;
    }

    /// Whether `solution` solves this puzzle: it is full, keeps every given, and obeys this
    /// puzzle's rules (whatever rules it carries itself: a solution read beside a puzzle, or
    /// from another source, is checked against the puzzle's).
    pub fn is_solved_by(&self, solution: &Puzzle) -> bool {
        let same_cells = solution.cells.len() == self.cells.len()
            && self.cells.iter().zip(&solution.cells).all(|(&g, &s)| g == 0 || g == s);
        same_cells
            && solution.is_full()
            && Puzzle {
                rules: Arc::clone(&self.rules),
                cells: solution.cells.clone(),
                symbols: solution.symbols,
            }
            .check()
            .is_ok()
    }

    /// The cells where `other` holds another digit than this grid (both of one size): where two
    /// solutions differ, or a wrong solution given beside a puzzle differs from the found one.
    pub fn cells_differing_from(&self, other: &Puzzle) -> Vec<At> {
        let side = self.size().side();
        let differ = |(cell, (a, b)): (usize, (&u8, &u8))| (a != b).then_some(At { cell, side });
        self.cells.iter().zip(&other.cells).enumerate().filter_map(differ).collect()
    }

    /// The number of givens.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// The cell written `r3c7`.
    pub fn at(&self, cell: usize) -> At {
        At { cell, side: self.size().side() }
    }

    /// Checks the givens against the rules: no digit twice in a unit or a cage, none against
    /// a parity mark or a forbidden move, no cage over its sum (or filled to another).
    pub fn check(&self) -> Result<(), RuleError> {
        let symbol = |d: u8| self.symbols.symbol(d);
        for (cell, &digit) in self.cells.iter().enumerate() {
            let parity = self.rules.parity(cell);
            if digit != 0 && !parity.allows(digit) {
                let (which, parity) = if parity == Parity::Even { ("odd", "even") } else { ("even", "odd") };
                return Err(RuleError::Parity { digit: symbol(digit), which, parity, cell: self.at(cell) });
            }
        }
        for (unit, cells) in self.rules.units() {
            if let Some((first, second)) = repeat(&self.cells, &cells) {
                let digit = symbol(self.cells[first]);
                return Err(RuleError::Repeated {
                    digit,
                    unit,
                    first: self.at(first),
                    second: self.at(second),
                });
            }
        }
        for (a, b, what) in self.rules.move_pairs() {
            if self.cells[a] != 0 && self.cells[a] == self.cells[b] {
                let digit = symbol(self.cells[a]);
                return Err(RuleError::ForbiddenMove { digit, first: self.at(a), second: self.at(b), what });
            }
        }
        for (k, cage) in self.rules.cages().iter().enumerate() {
            if let Some((first, second)) = repeat(&self.cells, &cage.cells) {
                let digit = symbol(self.cells[first]);
                return Err(RuleError::CageRepeated {
                    digit,
                    cage: k + 1,
                    first: self.at(first),
                    second: self.at(second),
                });
            }
            let given: u32 = cage.cells.iter().map(|&c| u32::from(self.cells[c])).sum();
            let full = cage.cells.iter().all(|&c| self.cells[c] != 0);
            if given > cage.sum || (full && given != cage.sum) {
                return Err(RuleError::CageSum { cage: k + 1, given, sum: cage.sum });
            }
        }
        Ok(())
    }

    /// The digits as one line of side x side symbols, `.` for empty cells.
    pub fn to_line(&self) -> String {
        let bytes = self.cells.iter().map(|&d| self.symbols.byte(d)).collect();
        String::from_utf8(bytes).expect("every symbol is one ASCII byte")
    }

    /// The grid as rows of symbols separated by spaces, with `|` between boxes and a rule line
    /// between bands of boxes (a jigsaw grid has no box lines), each row ending a line.
    pub fn to_block(&self) -> String {
        let size = self.size();
        let side = size.side();
        let boxes = !self.rules.is_jigsaw();
        let mut out = String::new();
        for r in 0..side {
            if boxes && r > 0 && r % size.box_rows() == 0 {
                let width = side * 2 + (side / size.box_cols() - 1) * 2 - 1;
                let mut rule = String::new();
                for c in 0..side {
                    if c > 0 && c % size.box_cols() == 0 {
                        rule.push_str("+-");
                    }
                    rule.push_str(if c + 1 == side { "-" } else { "--" });
                }
                debug_assert_eq!(rule.len(), width);
                out.push_str(&rule);
                out.push('\n');
            }
            for c in 0..side {
                if c > 0 {
                    out.push(' ');
                    if boxes && c % size.box_cols() == 0 {
                        out.push_str("| ");
                    }
                }
                out.push(self.symbols.symbol(self.cells[r * side + c]));
            }
            out.push('\n');
        }
        out
    }
}

/// The first two cells of `cells` holding the same non-zero digit.
fn repeat(grid: &[u8], cells: &[usize]) -> Option<(usize, usize)> {
    let mut seen = [usize::MAX; 64];
    for &cell in cells {
        let d = usize::from(grid[cell]);
        if d == 0 {
            continue;
        }
        if seen[d] != usize::MAX {
            return Some((seen[d], cell));
        }
        seen[d] = cell;
    }
    None
}
