//! The symmetries of a clue pattern, as the generator keeps them.

use std::fmt;

use crate::model::variant::UnknownName;

/// A map of the grid onto itself, on `(row, column, last)`, where `last` is the last row and
/// column (8 on the 9x9 grid).
type CellMap = fn(usize, usize, usize) -> (usize, usize);

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
            Symmetry::Rotational => &[|r, c, l| (l - r, l - c)],
            Symmetry::Rotate90 => &[|r, c, l| (c, l - r)],
            Symmetry::Mirror => &[|r, c, l| (r, l - c)],
            Symmetry::Flip => &[|r, c, l| (l - r, c)],
            Symmetry::Diagonal => &[|r, c, _| (c, r)],
            Symmetry::AntiDiagonal => &[|r, c, l| (l - c, l - r)],
            Symmetry::Dihedral => &[|r, c, l| (c, l - r), |r, c, l| (r, l - c)],
        }
    }

    /// The orbit of a cell: the cells the symmetry maps it to, itself included, sorted.
    pub fn orbit(self, cell: usize) -> Vec<usize> {
        self.orbit_in(cell, 9)
    }

    /// The orbit of a cell of a grid of `side` rows and columns.
    pub fn orbit_in(self, cell: usize, side: usize) -> Vec<usize> {
        let mut orbit = vec![cell];
        let mut k = 0;
        while k < orbit.len() {
            let (r, c) = (orbit[k] / side, orbit[k] % side);
            for g in self.generators() {
                let (r2, c2) = g(r, c, side - 1);
                let image = r2 * side + c2;
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
        self.orbits_in(9)
    }

    /// The cells of a grid of `side` rows and columns split into orbits, in order of their
    /// first cell.
    pub fn orbits_in(self, side: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; side * side];
        let mut orbits = Vec::new();
        for cell in 0..side * side {
            if !seen[cell] {
                let orbit = self.orbit_in(cell, side);
                for &c in &orbit {
                    seen[c] = true;
                }
                orbits.push(orbit);
            }
        }
        orbits
    }

    /// Whether the symmetry maps cells with the same label onto cells with the same label, and
    /// cells with different ones onto different ones: whether it maps a partition of the grid
    /// (regions, cages, parities) onto itself. `label` has one entry per cell of a square grid.
    ///
    /// It does when each label's cells all go to cells of one label (one pass over the cells, not
    /// one per pair). No two labels then go to the same one: the cells are mapped one to one, so
    /// every label's cells are the image of some label's, and as many labels are images as there
    /// are labels.
    pub(crate) fn keeps<T: Copy + Eq + std::hash::Hash>(self, label: &[T]) -> bool {
        let side = (1..=label.len()).find(|s| s * s >= label.len()).unwrap_or(0);
        self.generators().iter().all(|g| {
            let mut to = std::collections::HashMap::new();
            (0..label.len()).all(|a| {
                let (r, c) = g(a / side, a % side, side - 1);
                let there = label[r * side + c];
                *to.entry(label[a]).or_insert(there) == there
            })
        })
    }

    /// Whether the symmetry maps every cell onto a cell with the same label (parities, cage
    /// sums). `label` has one entry per cell of a square grid.
    pub(crate) fn fixes<T: PartialEq>(self, label: &[T]) -> bool {
        let side = (1..=label.len()).find(|s| s * s >= label.len()).unwrap_or(0);
        self.generators().iter().all(|g| {
            (0..label.len()).all(|a| {
                let (r, c) = g(a / side, a % side, side - 1);
                label[r * side + c] == label[a]
            })
        })
    }
}

/// The symmetry with this name, as [`Symmetry::name`] spells it.
impl std::str::FromStr for Symmetry {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UnknownName::find("symmetry", s, &Symmetry::ALL, Symmetry::name)
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::Symmetry;

    /// [`Symmetry::keeps`] against its definition, pair by pair of cells.
    fn keeps_by_pairs(symmetry: Symmetry, label: &[u8], side: usize) -> bool {
        symmetry.generators().iter().all(|g| {
            let image = |cell: usize| {
                let (r, c) = g(cell / side, cell % side, side - 1);
                r * side + c
            };
            (0..label.len()).all(|a| {
                (a..label.len()).all(|b| (label[a] == label[b]) == (label[image(a)] == label[image(b)]))
            })
        })
    }

    proptest! {
        /// On random labels of 4x4 to 6x6 grids (few labels, so that many partitions are kept),
        /// and on labels made symmetric by taking each orbit's first cell's.
        #[test]
        fn keeping_labels_agrees_with_its_definition(
            side in 4usize..=6,
            symmetry in prop::sample::select(Symmetry::ALL.to_vec()),
            labels in prop::collection::vec(0u8..3, 36),
            symmetric in any::<bool>(),
        ) {
            let mut label = labels[..side * side].to_vec();
            if symmetric {
                for orbit in symmetry.orbits_in(side) {
                    for &c in &orbit {
                        label[c] = label[orbit[0]];
                    }
                }
                prop_assert!(symmetry.keeps(&label));
            }
            prop_assert_eq!(symmetry.keeps(&label), keeps_by_pairs(symmetry, &label, side));
        }
    }
}
