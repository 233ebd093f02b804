//! The 9x9 form of a puzzle, inside the crate: its 81 givens and even-cell markers as bytes, and
//! the check that its givens obey a 9x9 variant's rules, on the variant's [`Shape`]. The parser of
//! 81-character lines reads into it, and the 9x9 logical solver and generator work on it; a user
//! meets only [`crate::Puzzle`], which it converts to and from.

use std::fmt;

use crate::model::cells::Small;
use std::sync::Arc;

use crate::model::variant::{Unit, Variant};
use crate::model::{At, Parity, Rules};
use crate::shape::Shape;

/// A 9x9 puzzle: the given digits (0 for an empty cell) and the cells marked even.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Puzzle {
    cells: [u8; 81],
    /// Bit `k` set: cell `k` must hold an even digit.
    even: u128,
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({})", self.to_line())
    }
}

impl Default for Puzzle {
    fn default() -> Self {
        Puzzle::empty()
    }
}

/// Givens that break the rules of their variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum RuleError {
    /// A digit given twice in one unit.
    #[error("digit {digit} appears twice in {unit} ({first}, {second})")]
    Repeated {
        /// The digit.
        digit: u8,
        /// The unit.
        unit: Unit,
        /// The first cell holding it.
        first: At,
        /// The second cell holding it.
        second: At,
    },
    /// An odd digit given in a cell marked even.
    #[error("odd digit {digit} given in even cell {cell}")]
    OddInEvenCell {
        /// The digit.
        digit: u8,
        /// The cell.
        cell: At,
    },
    /// A digit given twice a forbidden move apart (anti-king).
    #[error("digit {digit} given at {first} and {second}, {what} apart")]
    ForbiddenMove {
        /// The digit.
        digit: u8,
        /// The first cell holding it.
        first: At,
        /// The second cell holding it.
        second: At,
        /// The move: "a king's move".
        what: &'static str,
    },
    /// Even-cell markers in a puzzle of a variant without them.
    #[error("even-cell markers (at {cell}) in a {variant} puzzle")]
    MarkersNotAllowed {
        /// The first marked cell.
        cell: At,
        /// The variant asked for.
        variant: Variant,
    },
}

impl Puzzle {
    /// The empty grid.
    pub(crate) const fn empty() -> Puzzle {
        Puzzle { cells: [0; 81], even: 0 }
    }

    /// A puzzle from 81 cells, row-major, 0 for empty, 1-9 given. `None` if a value is above 9.
    pub(crate) fn from_cells(cells: [u8; 81]) -> Option<Puzzle> {
        cells.iter().all(|&d| d <= 9).then_some(Puzzle { cells, even: 0 })
    }

    /// The cells, row-major: 0 empty, 1-9 given.
    pub(crate) fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The digit in a cell (0 when empty). Panics if `cell >= 81`.
    pub(crate) fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell: 0 empties it. Panics if `cell >= 81` or `digit > 9`.
    pub(crate) fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9, "digit {digit} out of range");
        self.cells[cell] = digit;
    }

    /// Whether a cell is marked even.
    pub(crate) fn is_even_cell(&self, cell: usize) -> bool {
        cell < 81 && self.even & (1 << cell) != 0
    }

    /// Marks the cells of a set even (bit k for cell k), and no others. Panics if a bit past
    /// the 81st is set.
    pub(crate) fn set_even_cells(&mut self, cells: u128) {
        assert!(cells >> 81 == 0, "a cell past the 81st");
        self.even = cells;
    }

    /// The cells marked even (bit k for cell k).
    pub(crate) fn even_cells(&self) -> u128 {
        self.even
    }

    /// Marks a cell even (or unmarks it). Panics if `cell >= 81`.
    pub(crate) fn set_even_cell(&mut self, cell: usize, even: bool) {
        assert!(cell < 81, "cell {cell} out of range");
        if even {
            self.even |= 1 << cell;
        } else {
            self.even &= !(1 << cell);
        }
    }

    /// Whether any cell is marked even.
    pub(crate) fn has_even_cells(&self) -> bool {
        self.even != 0
    }

    /// Checks that the givens obey the rules of `variant`: no digit twice in a unit nor a
    /// forbidden move apart, no odd digit in an even cell, no even markers outside the even-cell
    /// variant.
    pub(crate) fn check(&self, variant: Variant) -> Result<(), RuleError> {
        if self.has_even_cells() && !variant.has_even_cells() {
            let cell = At::nine(self.even.trailing_zeros() as usize);
            return Err(RuleError::MarkersNotAllowed { cell, variant });
        }
        let mut marked = self.even;
        while marked != 0 {
            let cell = marked.trailing_zeros() as usize;
            marked &= marked - 1;
            let digit = self.cells[cell];
            if digit % 2 == 1 {
                return Err(RuleError::OddInEvenCell { digit, cell: At::nine(cell) });
            }
        }
        let shape = Shape::of_variant(variant);
        if !self.units_are_consistent(shape) {
            return self.find_repeat(variant, shape);
        }
        if let Some(what) = variant.move_name() {
            for first in (0..81).filter(|&c| self.cells[c] != 0) {
                let digit = self.cells[first];
                let twin = shape.far_peers(first).iter().find(|&c| c > first && self.cells[c] == digit);
                if let Some(second) = twin {
                    return Err(RuleError::ForbiddenMove {
                        digit,
                        first: At::nine(first),
                        second: At::nine(second),
                        what,
                    });
                }
            }
        }
        Ok(())
    }

    /// One pass over the givens with a digit mask per unit: whether no unit repeats a digit.
    fn units_are_consistent(&self, shape: &Shape<Small>) -> bool {
        // Rows, columns, boxes and at most four diagonals or windows.
        let mut seen = [0u16; 31];
        for (cell, &digit) in self.cells.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let bit = 1u16 << digit;
            for &u in shape.units_of(cell) {
                if seen[u] & bit != 0 {
                    return false;
                }
                seen[u] |= bit;
            }
        }
        true
    }

    /// The first repeated digit, unit by unit, named precisely (only called when there is one).
    fn find_repeat(&self, variant: Variant, shape: &Shape<Small>) -> Result<(), RuleError> {
        for (u, &unit) in variant.units().iter().enumerate() {
            let mut seen = [None; 10];
            for &cell in shape.unit(u) {
                let digit = self.cells[cell];
                if digit == 0 {
                    continue;
                }
                if let Some(first) = seen[usize::from(digit)] {
                    return Err(RuleError::Repeated {
                        digit,
                        unit,
                        first: At::nine(first),
                        second: At::nine(cell),
                    });
                }
                seen[usize::from(digit)] = Some(cell);
            }
        }
        Ok(())
    }

    /// The puzzle as an 81-character line: digits, `.` for empty, `e` for an empty even cell.
    pub(crate) fn to_line(self) -> String {
        let mut s = String::with_capacity(81);
        self.write_line(&mut s).expect("writing to a String cannot fail");
        s
    }

    /// Writes the 81-character line form.
    pub(crate) fn write_line(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for (cell, &digit) in self.cells.iter().enumerate() {
            out.write_char(self.cell_char(cell, digit))?;
        }
        Ok(())
    }

    fn cell_char(&self, cell: usize, digit: u8) -> char {
        match digit {
            0 if self.is_even_cell(cell) => 'e',
            0 => '.',
            d => char::from(b'0' + d),
        }
    }

    /// Writes a readable block grid with box separators, nine lines and two rules.
    pub(crate) fn write_grid(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for r in 0..9 {
            if r == 3 || r == 6 {
                out.write_str("------+-------+------\n")?;
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    out.write_str(" |")?;
                }
                if c > 0 {
                    out.write_char(' ')?;
                }
                let cell = r * 9 + c;
                out.write_char(self.cell_char(cell, self.cells[cell]))?;
            }
            out.write_char('\n')?;
        }
        Ok(())
    }

    /// The block-grid form as a string.
    pub(crate) fn to_grid(self) -> String {
        let mut s = String::new();
        self.write_grid(&mut s).expect("writing to a String cannot fail");
        s
    }
}

/// The 9x9 form and the puzzle of any size, each into the other.
impl crate::model::Puzzle {
    /// A 9x9 [`Puzzle`] as a grid of the rules `base` (a [`Variant`]'s, `Rules::from(variant)`),
    /// shared; its even markers, when it has some, as even marks on a copy of them.
    pub(crate) fn from_nine(puzzle: &Puzzle, base: &Arc<Rules>) -> crate::model::Puzzle {
        let mut rules = Arc::clone(base);
        if puzzle.has_even_cells() {
            let marked = Arc::make_mut(&mut rules);
            let mut cells = puzzle.even_cells();
            while cells != 0 {
                marked.set_parity(cells.trailing_zeros() as usize, Parity::Even);
                cells &= cells - 1;
            }
        }
        crate::model::Puzzle::from_parts(rules, puzzle.cells().to_vec())
    }

    /// The 9x9 form of a grid whose rules are a [`Variant`]'s ([`Rules::variant`]): its digits,
    /// and its even marks as markers. `None` for other rules.
    pub(crate) fn to_nine(&self) -> Option<Puzzle> {
        let rules = self.rules();
        rules.variant()?;
        let cells: [u8; 81] = self.cells().try_into().ok()?;
        let mut nine = Puzzle::from_cells(cells)?;
        if rules.has_parity() {
            for cell in 0..81 {
                nine.set_even_cell(cell, rules.parity(cell) == Parity::Even);
            }
        }
        Some(nine)
    }
}
