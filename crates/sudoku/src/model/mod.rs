//! The model, the bottom floor: what a puzzle is, whatever is done with it. Sets of cells
//! (`cells`), the size of a grid and the symbols of its digits (`size`), the units of the 9x9
//! grid and the 9x9 [`Variant`](crate::Variant)s as named presets of rules (`variant`), the
//! [`Rules`] of any size as data (`rules`), the one puzzle type, [`Puzzle`] (`puzzle`), and the
//! names a user gives rules by (`names`). Nothing here imports a module above this floor.

pub(crate) mod cells;
pub(crate) mod names;
pub(crate) mod puzzle;
pub(crate) mod rules;
pub(crate) mod size;
pub(crate) mod variant;

pub use puzzle::{Puzzle, RuleError};
pub use rules::{At, Cage, CageProblem, Constraint, Parity, Rules, RulesError};
pub(crate) use rules::{combinations, edge_neighbours};
pub use size::{Size, SizeError, Symbols};
