//! The symmetries of a clue pattern, as the generator keeps them.

use std::fmt;

use crate::puzzle::Puzzle;
use crate::variant::UnknownName;

/// A map of the grid onto itself, on `(row, column)`.
type CellMap = fn(usize, usize) -> (usize, usize);

/// The symmetry of the clue pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Symmetry {
    /// No symmetry.
    None,
    /// 180-degree rotation, as printed puzzles use.
    #[default]
    Rotational,
    /// 90-degree rotation (and so 180 and 270 too).
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Top-bottom flip.
    Flip,
    /// Reflection in the main diagonal.
    Diagonal,
    /// Reflection in the anti-diagonal.
    AntiDiagonal,
    /// All eight symmetries of the square.
    Dihedral,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Dihedral,
    ];

    /// What the symmetry maps, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Symmetry::None => "No symmetry",
            Symmetry::Rotational => "180-degree rotation",
            Symmetry::Rotate90 => "90-degree rotation",
            Symmetry::Mirror => "Left-right mirror",
            Symmetry::Flip => "Top-bottom flip",
            Symmetry::Diagonal => "Reflection in the main diagonal",
            Symmetry::AntiDiagonal => "Reflection in the anti-diagonal",
            Symmetry::Dihedral => "All eight symmetries of the square",
        }
    }

    /// The name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The maps of cells that generate the symmetry group (each `(row, col) -> (row, col)`).
    fn generators(self) -> &'static [CellMap] {
        match self {
            Symmetry::None => &[],
            Symmetry::Rotational => &[|r, c| (8 - r, 8 - c)],
            Symmetry::Rotate90 => &[|r, c| (c, 8 - r)],
            Symmetry::Mirror => &[|r, c| (r, 8 - c)],
            Symmetry::Flip => &[|r, c| (8 - r, c)],
            Symmetry::Diagonal => &[|r, c| (c, r)],
            Symmetry::AntiDiagonal => &[|r, c| (8 - c, 8 - r)],
            Symmetry::Dihedral => &[|r, c| (c, 8 - r), |r, c| (r, 8 - c)],
        }
    }

    /// The orbit of a cell: the cells the symmetry maps it to, itself included, sorted.
    pub fn orbit(self, cell: usize) -> Vec<usize> {
        let mut orbit = vec![cell];
        let mut k = 0;
        while k < orbit.len() {
            let (r, c) = (orbit[k] / 9, orbit[k] % 9);
            for g in self.generators() {
                let (r2, c2) = g(r, c);
                let image = r2 * 9 + c2;
                if !orbit.contains(&image) {
                    orbit.push(image);
                }
            }
            k += 1;
        }
        orbit.sort_unstable();
        orbit
    }

    /// The cells split into orbits, in order of their first cell.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        let mut seen = [false; 81];
        let mut orbits = Vec::new();
        for cell in 0..81 {
            if !seen[cell] {
                let orbit = self.orbit(cell);
                for &c in &orbit {
                    seen[c] = true;
                }
                orbits.push(orbit);
            }
        }
        orbits
    }

    /// Whether the givens (and even markers) of a puzzle have this symmetry.
    pub fn holds_for(self, puzzle: &Puzzle) -> bool {
        (0..81).all(|cell| {
            self.orbit(cell).iter().all(|&other| {
                (puzzle.get(other) != 0) == (puzzle.get(cell) != 0)
                    && puzzle.is_even_cell(other) == puzzle.is_even_cell(cell)
            })
        })
    }
}

/// The symmetry with this name, as [`Symmetry::name`] spells it.
impl std::str::FromStr for Symmetry {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Symmetry::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownName::new("symmetry", s))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
