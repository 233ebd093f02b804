//! What every sudoku solver of the crate shares with the engine's side: the effort of a search,
//! and a puzzle's problem written in Knuth's `.dlx` format. It imports nothing of the crate but
//! the units' names.

use std::fmt::Write as _;

use dlx_engine::{OptionId, Problem, Stats};

use crate::model::variant::Unit;

/// Seeds of the random branching orders a rating's search effort is averaged over, for every
/// size: a single order's effort says as much about the order as about the puzzle.
pub(crate) const EFFORT_SEEDS: u64 = 8;

/// Search effort: the platform-independent measure of difficulty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Effort {
    /// Search-tree nodes (placements tried beyond the givens).
    pub nodes: u64,
    /// Nodes where the chosen constraint had more than one candidate: real guesses.
    pub guesses: u64,
}

impl From<Stats> for Effort {
    fn from(s: Stats) -> Effort {
        Effort { nodes: s.nodes, guesses: s.guesses }
    }
}

/// A problem in Knuth's `.dlx` format: a `| title` comment line, the items line (primary, then
/// `|` and the secondary ones), and each option that `open` keeps, in order, as its item names.
pub(crate) fn write_dlx(problem: &Problem, title: &str, open: impl Fn(OptionId) -> bool) -> String {
    let p = problem;
    let mut out = String::new();
    let _ = writeln!(out, "| {title}");
    let names = |primary: bool| -> Vec<&str> {
        p.items().filter(|&i| p.is_primary(i) == primary).map(|i| p.item_name(i)).collect()
    };
    out.push_str(&names(true).join(" "));
    let secondary = names(false);
    if !secondary.is_empty() {
        out.push_str(" | ");
        out.push_str(&secondary.join(" "));
    }
    out.push('\n');
    for option in p.options().filter(|&o| open(o)) {
        let items: Vec<&str> = p.option_items(option).map(|i| p.item_name(i)).collect();
        out.push_str(&items.join(" "));
        out.push('\n');
    }
    out
}

/// The names of a sudoku problem's items, one naming for every size and rule set: `r1c2` for the
/// cell that must take a digit, `R1#5` (row), `C2#5`, `B3#5`, `J3#5` (jigsaw region), `D#5`,
/// `A#5`, `W1#5` for the unit that must take digit 5, and `mabbc#5` for the secondary item
/// that keeps digit 5 out of one of two cells a forbidden move apart.
pub(crate) mod names {
    use super::Unit;

    /// The item of `cell` of a grid of side `side`.
    pub(crate) fn cell(cell: usize, side: usize) -> String {
        format!("r{}c{}", cell / side + 1, cell % side + 1)
    }

    /// The item of `unit` for `digit`.
    pub(crate) fn unit(unit: Unit, digit: usize) -> String {
        match unit {
            Unit::Row(r) => format!("R{}#{digit}", r + 1),
            Unit::Column(c) => format!("C{}#{digit}", c + 1),
            Unit::Box(k) => format!("B{}#{digit}", k + 1),
            Unit::Region(k) => format!("J{}#{digit}", k + 1),
            Unit::Diagonal => format!("D#{digit}"),
            Unit::AntiDiagonal => format!("A#{digit}"),
            Unit::Window(w) => format!("W{}#{digit}", w + 1),
        }
    }

    /// The item that keeps `digit` out of one of cells `a` and `z`, a forbidden move apart: `m`,
    /// each cell as its row's and its column's letter (`a` for 1 ... `y` for 25), and the digit,
    /// `mabbc#5` for r1c2 and r2c3. At most 8 characters, the most Knuth's programs read.
    pub(crate) fn apart(a: usize, z: usize, side: usize, digit: usize) -> String {
        let letter = |k: usize| char::from(b'a' + u8::try_from(k).expect("a side of at most 25"));
        let cell = |c: usize| [letter(c / side), letter(c % side)];
        let [ar, ac] = cell(a);
        let [zr, zc] = cell(z);
        format!("m{ar}{ac}{zr}{zc}#{digit}")
    }
}
