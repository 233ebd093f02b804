//! The 9x9 variants' options, numbered by cell and digit alone: the 9x9 generator's and logical
//! solver's way into the one encoder's matrix.

use dlx_engine::OptionId;

#[cfg(test)]
use crate::model::Rules;
#[cfg(test)]
use crate::model::variant::Variant;

/// The numbering of the options of a 9x9 variant's matrix (the one encoder's,
/// [`Matrix`](super::Matrix)): one per cell and digit, `cell * 9 + digit - 1` (729 in all),
/// whatever the variant, so that the 9x9 machinery goes from a cell and digit to its option, and
/// back, without a matrix. Items: one per cell, then one per unit and digit, 81 + 27 x 9 = 324 for
/// the classic grid, 18 more for the diagonals, and secondary items for anti-king's moves. Even
/// cells are restrictions of each puzzle, not of the matrix: the even-cell variant shares the
/// classic one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Matrix;

impl Matrix {
    /// The option placing `digit` (1-9) in `cell` (0-80). Panics outside those ranges.
    pub(crate) fn option(cell: usize, digit: u8) -> OptionId {
        assert!(cell < 81 && (1..=9).contains(&digit), "no option places {digit} in cell {cell}");
        OptionId::new(cell * 9 + usize::from(digit) - 1).expect("fewer than 729 options")
    }

    /// The cell (0-80) and digit (1-9) an option places.
    pub(crate) fn placement(option: OptionId) -> (usize, u8) {
        let k = option.index();
        (k / 9, u8::try_from(k % 9 + 1).expect("digit below 10"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbering that [`Matrix::option`] and [`Matrix::placement`] assume is the one
    /// encoder's, for every variant: each cell and digit's option, and back.
    #[test]
    fn the_9x9_numbering_is_the_encoders() {
        for variant in Variant::ALL {
            let matrix = crate::cover::Matrix::new(&Rules::from(variant));
            assert_eq!(matrix.problem().option_count(), 729, "{variant}");
            for cell in 0..81 {
                for digit in 1..=9 {
                    let option = Matrix::option(cell, digit);
                    assert_eq!(matrix.option(cell, digit), option, "{variant} {cell} {digit}");
                    assert_eq!(matrix.placement(option), Some((cell, digit)), "{variant}");
                    assert_eq!(Matrix::placement(option), (cell, digit));
                }
            }
        }
    }
}
