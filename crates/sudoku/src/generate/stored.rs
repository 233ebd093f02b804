//! Full grids found once, for the rules whose grids neither the random fills nor the symmetric
//! ones (`orbits`) find in seconds: diagonals with anti-knight on sides 10 to 15, with windows or
//! anti-king besides. Most were found by this project's own tools: a search of the rules' matrix
//! with the first row given (`dlx solve -f dlx`, then `dlx xc --limit 1 --tie-break
//! last-conflict`), or a `dlx generate` run that found one. The three with all four constraints
//! (12x12, 14x14 and 15x15), which those searches did not find in an hour, came from a SAT solver
//! (CaDiCaL) given the same rules as clauses, the first row fixed. `benches/RESULTS.md` has the
//! commands and times; a test checks each grid against its rules.
//!
//! A grid of a set of constraints is a grid of every subset, so one stored grid serves every
//! rule set it covers. A generator that asks for one gets a random image of it: its digits
//! renamed (n! ways) and the grid turned or flipped by one of the symmetries of the square that
//! keep the rules (the half turn and the two flips keep rows, columns, boxes, diagonals and the
//! moves; the transposes too when boxes are square; windows only where they lie symmetrically),
//! which is 4 n! or 8 n! grids from each stored one. That is a small family beside what a search
//! finds, so the searches stay first, and this is their last fallback before the budget runs
//! out.

use std::sync::Arc;

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};

use crate::model::{Constraint, Puzzle, Rules, Symbols};

use Constraint::{AntiKing as K, AntiKnight as N, Diagonals as D, Windows as W};

/// A grid found once: its boxes, the constraints it obeys, its digits row by row.
struct Stored {
    box_rows: usize,
    box_cols: usize,
    constraints: &'static [Constraint],
    digits: &'static str,
}

/// The stored grids (`benches/RESULTS.md` says how each was found).
const GRIDS: &[Stored] = &[
    Stored {
        box_rows: 2,
        box_cols: 5,
        constraints: &[D, N],
        digits: "59142A78366A78359214A42613597838597146A2169A872453473256A189958364172A21A749836\
                 57265983A418341A26597",
    },
    Stored {
        box_rows: 3,
        box_cols: 4,
        constraints: &[D, W, N],
        digits: "123456789ABCBA75194C362869C83A2B17543426BC89A571CB1A745328968597A216B4C348632B\
                 9A7C15ACB147358269275968C14B3A718C95B463A2964BC3A2518753A28167C94B",
    },
    Stored {
        box_rows: 2,
        box_cols: 7,
        constraints: &[D, K, N],
        digits: "123456789ABCDE8BCDE9A12345679756143EBD82ACCEA2B8D561734953D9CA2784E61B68B17E43A5\
                 29CDA9453D6CEB17827CE821B946AD533D1B658A72CE94247A9CED5831B6E563421BC9DA78BA8CD7\
                 963E5421419EABC2D76835D62783541C9BEA",
    },
    Stored {
        box_rows: 3,
        box_cols: 5,
        constraints: &[D, W, N],
        digits: "97A3E1D45CF682B62CF873B9AD5E14D514B62F8E739ACF3EAD95C4612B877892CDA13B64F5E4B6\
                 518E72FACD39ACF734B9D58E1628E2D9AC3614B57F164B5F78E29DAC331B865FEA729C4D2F7EA3\
                 9DC4516B859DC4216B83F7EABD812E6AF3C7495C456FB8279EA3D1EA397C451DB82F6",
    },
    Stored {
        box_rows: 3,
        box_cols: 5,
        constraints: &[D, K, N],
        digits: "7B381EDFAC46925A6D5F794823EBC19C2E4B6351ADF78F5B93A1CD7824E68746C5EB2F913AD2AE\
                 1D84936BC5F75DC326F174EA89BE86F79BAC5D3142419BAD32E87F65C32548176FBC9EDA6FACE2\
                 589D147B3197DB3CE4A6528FCE8254A713FBD69D41A6F85B927C3EB3F79C2D6E58A14",
    },
    Stored {
        box_rows: 2,
        box_cols: 7,
        constraints: &[D, W, K, N],
        digits: "123456789ABCDEB8EA9DC3627154C467125BDE93A893BD8AE17542C66152CB94A8D7E34DAE7386B9\
                 C512379BD52CE1648A861C4EA9532B7DE52837BD4CA961DA496C1E27583B7BC1A84536ED295ED329\
                 678B1A4CA985E1D2C436B72C76B43A1D8E95",
    },
    Stored {
        box_rows: 3,
        box_cols: 5,
        constraints: &[D, W, K, N],
        digits: "123456789ABCDEFD869ABCE3F75214BEFC7D52418A369715324FBC96DE8A6CAD91837E4F52BEB48F\
                 AD652C1973F715E249A8D3BC629D63C17EBF4A58C4BA8F65D32719E3F7ED92A165B84C5A21C3B487\
                 E96FD968B45ECFD327A14DEF6791B5A8C32A5C2183D649EFB78397BEAF2C164D5",
    },
    Stored {
        box_rows: 3,
        box_cols: 4,
        constraints: &[D, W, K, N],
        digits: "123456789ABCB5A79C3261849C86B14A75327142358CB96A56BC7A913248A3986B2457C1872143C6\
                 AB954BC5A71983263A6928B54C17C87B14A326592453C96718AB691A825BC473",
    },
];

/// A random image of a stored grid that obeys `rules` (of boxes, diagonals, windows, anti-king
/// and anti-knight only), renamed and turned as the module docs say; `None` when no stored grid
/// covers the rules.
pub(crate) fn stored_grid(rules: &Arc<Rules>, rng: &mut impl Rng) -> Option<Puzzle> {
    if rules.is_jigsaw() || !rules.cages().is_empty() || rules.has_parity() {
        return None;
    }
    let size = rules.size();
    let (side, box_rows, box_cols) = (size.side(), size.box_rows(), size.box_cols());
    let covering: Vec<&Stored> = GRIDS
        .iter()
        .filter(|s| (s.box_rows, s.box_cols) == (box_rows, box_cols))
        .filter(|s| rules.constraints().all(|c| s.constraints.contains(&c)))
        .collect();
    let stored = covering.choose(rng)?;
    let digits = digits_of(stored, side)?;
    let mut names: Vec<u8> = (1..=u8::try_from(side).ok()?).collect();
    names.shuffle(rng);
    let mut maps = symmetries(side, box_rows == box_cols);
    maps.shuffle(rng);
    // The identity is among the maps, and the stored grid obeys every constraint of the rules:
    // some image does.
    maps.into_iter().find_map(|map| {
        let cells = (0..side * side).map(|cell| names[usize::from(digits[map(cell)]) - 1]).collect();
        let grid = Puzzle::with_cells(Arc::clone(rules), cells).ok()?;
        grid.check().is_ok().then_some(grid)
    })
}

/// The stored grid's digits, `None` when one is no digit of the side (which the tests rule
/// out).
fn digits_of(stored: &Stored, side: usize) -> Option<Vec<u8>> {
    let digits: Vec<u8> = stored
        .digits
        .chars()
        .map(|c| Symbols::OneBased.digit(c, side).filter(|&d| d != 0))
        .collect::<Option<_>>()?;
    (digits.len() == side * side).then_some(digits)
}

/// The symmetries of the square that keep rows, columns, boxes, diagonals and the moves: each
/// as the map from a cell of the image to the cell of the grid it copies.
fn symmetries(side: usize, square_boxes: bool) -> Vec<Box<dyn Fn(usize) -> usize>> {
    let last = side - 1;
    let at = move |r: usize, c: usize| r * side + c;
    let mut maps: Vec<Box<dyn Fn(usize) -> usize>> = vec![
        Box::new(move |x| x),
        Box::new(move |x| at(last - x / side, last - x % side)),
        Box::new(move |x| at(last - x / side, x % side)),
        Box::new(move |x| at(x / side, last - x % side)),
    ];
    if square_boxes {
        maps.push(Box::new(move |x| at(x % side, x / side)));
        maps.push(Box::new(move |x| at(last - x % side, last - x / side)));
        maps.push(Box::new(move |x| at(x % side, last - x / side)));
        maps.push(Box::new(move |x| at(last - x % side, x / side)));
    }
    maps
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::cover::Matrix;
    use crate::model::Size;

    fn rules_of(stored: &Stored, constraints: &[Constraint]) -> Rules {
        let mut rules = Rules::new(Size::new(stored.box_rows, stored.box_cols).expect("a size"));
        constraints.iter().for_each(|&c| rules.add(c));
        rules
    }

    /// Every stored grid is full and obeys every constraint it is stored with (checked by the
    /// rules' own check and by the matrix: the grid as givens has exactly one solution).
    #[test]
    fn stored_grids_obey_their_rules() {
        for stored in GRIDS {
            let rules = rules_of(stored, stored.constraints);
            let side = rules.size().side();
            let digits = digits_of(stored, side).expect("digits of the side");
            let grid = Puzzle::with_cells(rules.clone(), digits).expect("a grid");
            assert_eq!(grid.check(), Ok(()), "{}", rules.describe());
            assert_eq!(Matrix::new(&rules).solver().count(&grid, Some(2)).unwrap(), 1);
        }
    }

    /// Every subset of a stored grid's constraints gets a full grid that obeys it, and seeds give
    /// different grids; rules no stored grid covers get none.
    #[test]
    fn every_subset_of_a_stored_grids_rules_gets_an_image() {
        for stored in GRIDS {
            for mask in 0..1u32 << stored.constraints.len() {
                let subset: Vec<Constraint> = (0..stored.constraints.len())
                    .filter(|k| mask & 1 << k != 0)
                    .map(|k| stored.constraints[k])
                    .collect();
                let rules = Arc::new(rules_of(stored, &subset));
                let grids: Vec<Puzzle> = (0..4)
                    .map(|seed| {
                        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                        stored_grid(&rules, &mut rng).expect("a covered set")
                    })
                    .collect();
                for grid in &grids {
                    assert!(grid.is_full());
                    assert_eq!(grid.check(), Ok(()), "{}", rules.describe());
                }
                assert!(grids.windows(2).any(|w| w[0] != w[1]), "{}: one grid", rules.describe());
            }
        }
        let mut rules = Rules::new(Size::of_side(16).expect("a side"));
        rules.add(Constraint::AntiKing);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
        assert_eq!(stored_grid(&Arc::new(rules), &mut rng), None);
    }
}
