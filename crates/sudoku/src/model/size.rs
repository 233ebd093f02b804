//! The shape of a grid (side and boxes) and the symbols that write its digits.

use std::fmt;

/// The shape of a grid: side `n = a x b`, cut into boxes of `a` rows and `b` columns.
///
/// ```
/// use dlx_sudoku::Size;
/// let size: Size = "16".parse()?;
/// assert_eq!((size.side(), size.box_rows(), size.box_cols()), (16, 4, 4));
/// let size: Size = "3x2".parse()?; // boxes of 3 rows and 2 columns
/// assert_eq!((size.side(), size.cells()), (6, 36));
/// # Ok::<(), dlx_sudoku::SizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    box_rows: u8,
    box_cols: u8,
}

/// A side or box shape that is not a grid this crate handles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SizeError {
    /// The side is outside 4-25.
    #[error("side {0} is outside 4-25")]
    Side(usize),
    /// No box shape was given and the side has no usual one (a prime side, say).
    #[error("side {0} has no usual box shape; give one, as in `2x3`")]
    NoBoxes(usize),
    /// Not a number, nor `ROWSxCOLUMNS`.
    #[error("`{}` is not a size: give a side (`16`) or a box shape (`3x4`)", dlx_engine::Excerpt(.0))]
    Syntax(String),
}

impl Size {
    /// The largest side: digits are written 1-9 and then `A`-`P`.
    pub const MAX_SIDE: usize = 25;

    /// The classic 9x9 grid.
    pub const CLASSIC: Size = Size { box_rows: 3, box_cols: 3 };

    /// The usual shapes: 4 (2x2), 6 (2x3), 8 (2x4), 9 (3x3), 10 (2x5), 12 (3x4), 16 (4x4),
    /// 25 (5x5).
    pub const USUAL: [Size; 8] = [
        Size { box_rows: 2, box_cols: 2 },
        Size { box_rows: 2, box_cols: 3 },
        Size { box_rows: 2, box_cols: 4 },
        Size { box_rows: 3, box_cols: 3 },
        Size { box_rows: 2, box_cols: 5 },
        Size { box_rows: 3, box_cols: 4 },
        Size { box_rows: 4, box_cols: 4 },
        Size { box_rows: 5, box_cols: 5 },
    ];

    /// Boxes of `box_rows` rows and `box_cols` columns; the side is their product, 4-25.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Size, SizeError> {
        let side = box_rows.saturating_mul(box_cols);
        match (u8::try_from(box_rows), u8::try_from(box_cols)) {
            (Ok(box_rows), Ok(box_cols)) if (4..=Size::MAX_SIDE).contains(&side) => {
                Ok(Size { box_rows, box_cols })
            }
            _ => Err(SizeError::Side(side)),
        }
    }

    /// The usual shape of a side: the one of [`Size::USUAL`], or for another side the boxes
    /// closest to square with fewer rows than columns (at least two of each).
    pub fn of_side(side: usize) -> Result<Size, SizeError> {
        if !(4..=Size::MAX_SIDE).contains(&side) {
            return Err(SizeError::Side(side));
        }
        let rows = (2..=side).take_while(|a| a * a <= side).filter(|a| side.is_multiple_of(*a)).last();
        match rows {
            Some(rows) => Size::new(rows, side / rows),
            None => Err(SizeError::NoBoxes(side)),
        }
    }

    /// The usual shape of a grid of `cells` cells (16, 36, ..., 625), if it is one.
    pub fn of_cells(cells: usize) -> Option<Size> {
        let side = (4..=Size::MAX_SIDE).find(|s| s * s == cells)?;
        Size::of_side(side).ok()
    }

    /// The side: rows, columns, digits.
    pub const fn side(self) -> usize {
        self.box_rows as usize * self.box_cols as usize
    }

    /// The number of cells.
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// Rows per box.
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The box (0 to side - 1, left to right, top to bottom) of a cell.
    pub const fn box_of(self, cell: usize) -> usize {
        let (r, c) = (cell / self.side(), cell % self.side());
        r / self.box_rows() * self.box_rows() + c / self.box_cols()
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.side(), self.side())
    }
}

/// A side (`16`, its usual boxes) or a box shape (`3x4`: boxes of 3 rows and 4 columns).
impl std::str::FromStr for Size {
    type Err = SizeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || SizeError::Syntax(s.to_owned());
        match s.split_once(['x', 'X']) {
            Some((a, b)) => {
                let a = a.trim().parse().map_err(|_| syntax())?;
                let b = b.trim().parse().map_err(|_| syntax())?;
                Size::new(a, b)
            }
            None => Size::of_side(s.trim().parse().map_err(|_| syntax())?),
        }
    }
}

/// How digits above 9 are written.
///
/// Read: `1`-`9` then `A`, `B`, ... (`G` is 16, `P` is 25), or, for a side of 10 or more, `0`-`9`
/// then `A`, ... for the digits 1 to n (the hexadecimal convention of 16x16 grids, where `0` is 1
/// and `F` is 16). Letters may be lower case. Empty cells are `.` (and `0` or `_` in the first
/// convention). A text is read in the second one only when it holds both `0` and `.` and not
/// the last letter of the first (`G` for 16x16); otherwise in the first. Written: in the
/// convention read; new puzzles in the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symbols {
    /// `1`-`9`, `A`...: digit k is written as itself up to 9, then as the (k - 9)th letter.
    #[default]
    OneBased,
    /// `0`-`9`, `A`...: digit k is written as the symbol of k - 1 in base 36.
    ZeroBased,
}

impl Symbols {
    /// The symbol of digit `digit` (1 to 36 - the offset), `.` for 0.
    pub fn symbol(self, digit: u8) -> char {
        char::from(self.byte(digit))
    }

    /// [`symbol`](Self::symbol) as the one ASCII byte it is, read from a table.
    pub(crate) fn byte(self, digit: u8) -> u8 {
        const ONE: &[u8; 37] = b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ?";
        const ZERO: &[u8; 38] = b".0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ?";
        let table: &[u8] = match self {
            Symbols::OneBased => ONE,
            Symbols::ZeroBased => ZERO,
        };
        table[usize::from(digit).min(table.len() - 1)]
    }

    /// The digit a symbol writes in a grid of `side`: `Some(0)` for an empty cell, `None` when
    /// the symbol is no digit of this side.
    pub fn digit(self, symbol: char, side: usize) -> Option<u8> {
        if matches!(symbol, '.' | '_') || (self == Symbols::OneBased && symbol == '0') {
            return Some(0);
        }
        let value = usize::try_from(symbol.to_digit(36)?).ok()?;
        let digit = match self {
            Symbols::OneBased => value,
            Symbols::ZeroBased => value + 1,
        };
        (1..=side).contains(&digit).then(|| u8::try_from(digit).ok()).flatten()
    }

    /// [`digit`](Self::digit) of an ASCII symbol, read from a table (a batch reads every
    /// line's cells so).
    pub(crate) fn digit_of_byte(self, symbol: u8, side: usize) -> Option<u8> {
        /// Not a digit.
        const NONE: u8 = u8::MAX;
        /// Each ASCII symbol's value, `offset` added to its value in base 36; `.` and `_` empty,
        /// and `0` too without an offset.
        const fn table(offset: u8) -> [u8; 128] {
            let mut table = [NONE; 128];
            let mut b = 0u8;
            while b < 128 {
                table[b as usize] = match b {
                    b'0'..=b'9' => b - b'0' + offset,
                    b'a'..=b'z' => b - b'a' + 10 + offset,
                    b'A'..=b'Z' => b - b'A' + 10 + offset,
                    b'.' | b'_' => 0,
                    _ => NONE,
                };
                b += 1;
            }
            if offset == 0 {
                table[b'0' as usize] = 0;
            }
            table
        }
        static ONE_BASED: [u8; 128] = table(0);
        static ZERO_BASED: [u8; 128] = table(1);
        let table = match self {
            Symbols::OneBased => &ONE_BASED,
            Symbols::ZeroBased => &ZERO_BASED,
        };
        let digit = *table.get(usize::from(symbol))?;
        (digit != NONE && usize::from(digit) <= side).then_some(digit)
    }

    /// The convention a text of a grid of `side` is in (see the type's docs).
    pub fn detect(text: &str, side: usize) -> Symbols {
        if side < 10 {
            return Symbols::OneBased;
        }
        let last = Symbols::OneBased.symbol(u8::try_from(side).unwrap_or(u8::MAX));
        let has = |c: char| text.chars().any(|s| s.eq_ignore_ascii_case(&c));
        if has('0') && has('.') && !has(last) { Symbols::ZeroBased } else { Symbols::OneBased }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_shapes_are_found_from_their_side_and_cells() {
        for size in Size::USUAL {
            assert_eq!(Size::of_side(size.side()), Ok(size));
            assert_eq!(Size::of_cells(size.cells()), Some(size));
        }
        assert_eq!(Size::of_side(7), Err(SizeError::NoBoxes(7)));
        assert_eq!(Size::of_side(26), Err(SizeError::Side(26)));
        assert_eq!("3x2".parse::<Size>().map(|s| (s.box_rows(), s.box_cols())), Ok((3, 2)));
        assert!("x".parse::<Size>().is_err());
        assert_eq!(Size::of_cells(50), None);
    }

    /// The table reads every byte as the symbols' rule does, for every side.
    #[test]
    fn digits_of_bytes_are_the_symbols_digits() {
        for symbols in [Symbols::OneBased, Symbols::ZeroBased] {
            for side in 1..=Size::MAX_SIDE + 2 {
                for byte in 0..=u8::MAX {
                    let by_char = if byte.is_ascii() { symbols.digit(char::from(byte), side) } else { None };
                    assert_eq!(symbols.digit_of_byte(byte, side), by_char, "{symbols:?} {side} {byte}");
                }
            }
        }
    }

    #[test]
    fn symbols_round_trip_in_both_conventions() {
        for symbols in [Symbols::OneBased, Symbols::ZeroBased] {
            for digit in 1..=25u8 {
                let s = symbols.symbol(digit);
                assert_eq!(symbols.digit(s, 25), Some(digit), "{symbols:?} {digit} {s}");
                assert_eq!(symbols.digit(s.to_ascii_lowercase(), 25), Some(digit));
            }
        }
        assert_eq!(Symbols::OneBased.symbol(16), 'G');
        assert_eq!(Symbols::ZeroBased.symbol(16), 'F');
        assert_eq!(Symbols::OneBased.digit('G', 9), None);
        assert_eq!(Symbols::detect("0123456789ABCDEF.", 16), Symbols::ZeroBased);
        assert_eq!(Symbols::detect("123456789ABCDEFG.0", 16), Symbols::OneBased);
        assert_eq!(Symbols::detect("12.0", 9), Symbols::OneBased);
    }

    #[test]
    fn the_symbols_table_is_base_36() {
        // The table against the definition, for every digit a cell can hold.
        for (symbols, offset) in [(Symbols::OneBased, 0), (Symbols::ZeroBased, 1)] {
            for digit in 0..=u8::MAX {
                let expected = match digit {
                    0 => '.',
                    d => char::from_digit(u32::from(d - offset), 36).map_or('?', |c| c.to_ascii_uppercase()),
                };
                assert_eq!(symbols.symbol(digit), expected, "{symbols:?} {digit}");
            }
        }
    }
}
