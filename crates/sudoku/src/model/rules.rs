//! What a full grid of any size must obey: its regions (boxes or a jigsaw map), extra units,
//! forbidden moves, even and odd cells and killer cages. Everything here is data that the
//! encoder, the checks, the generator and the drawing read.

use std::fmt;

use super::size::Size;
use crate::model::variant::{Unit, Variant};

/// A rule that can be added to rows, columns and regions by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Constraint {
    /// Both main diagonals hold every digit once.
    Diagonals,
    /// Extra windows the size of a box, one cell in from the edges and one cell apart (four
    /// on the 9x9 grid: hyper sudoku, windoku), hold every digit once.
    Windows,
    /// No equal digits a king's move apart.
    AntiKing,
    /// No equal digits a knight's move apart.
    AntiKnight,
}

impl Constraint {
    /// Every constraint.
    pub const ALL: [Constraint; 4] =
        [Constraint::Diagonals, Constraint::Windows, Constraint::AntiKing, Constraint::AntiKnight];

    /// The name as the command line and the `variant` field spell it.
    pub fn name(self) -> &'static str {
        match self {
            Constraint::Diagonals => "diagonal",
            Constraint::Windows => "windoku",
            Constraint::AntiKing => "anti-king",
            Constraint::AntiKnight => "anti-knight",
        }
    }

    /// What the constraint asks, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Constraint::Diagonals => "Both main diagonals hold every digit once",
            Constraint::Windows => "Extra box-sized windows one cell in from the edges (hyper sudoku)",
            Constraint::AntiKing => "No equal digits a king's move apart",
            Constraint::AntiKnight => "No equal digits a knight's move apart",
        }
    }

    const fn bit(self) -> u8 {
        match self {
            Constraint::Diagonals => 1,
            Constraint::Windows => 2,
            Constraint::AntiKing => 4,
            Constraint::AntiKnight => 8,
        }
    }

    /// The moves (row and column steps, one of each opposite pair) that may not join equal
    /// digits, and their name in messages.
    pub(crate) fn moves(self) -> Option<(&'static [(isize, isize)], &'static str)> {
        match self {
            Constraint::AntiKing => Some((&[(1, -1), (1, 0), (1, 1), (0, 1)], "a king's move")),
            Constraint::AntiKnight => Some((&[(1, 2), (2, 1), (1, -2), (2, -1)], "a knight's move")),
            Constraint::Diagonals | Constraint::Windows => None,
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The constraint with this name (`windows` and `hyper` are also read for `windoku`,
/// `diagonals` for `diagonal`).
impl std::str::FromStr for Constraint {
    type Err = crate::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "windows" | "hyper" => Ok(Constraint::Windows),
            "diagonals" => Ok(Constraint::Diagonals),
            _ => crate::UnknownName::find("constraint", s, &Constraint::ALL, Constraint::name),
        }
    }
}

/// Which digits a cell may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Parity {
    /// Any digit.
    #[default]
    Any,
    /// Even digits only.
    Even,
    /// Odd digits only.
    Odd,
}

impl Parity {
    /// Whether the digit is allowed.
    pub fn allows(self, digit: u8) -> bool {
        match self {
            Parity::Any => true,
            Parity::Even => digit.is_multiple_of(2),
            Parity::Odd => digit % 2 == 1,
        }
    }
}

/// A killer cage: cells whose digits differ and add up to the sum.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The cells, row-major numbers, sorted.
    pub cells: Vec<usize>,
    /// The sum.
    pub sum: u32,
}

/// A cell of a grid of some side, written `r12c3` (rows and columns from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct At {
    /// The cell, row-major from 0.
    pub cell: usize,
    /// The side of its grid.
    pub side: usize,
}

impl At {
    /// A cell of the 9x9 grid.
    pub(crate) const fn nine(cell: usize) -> At {
        At { cell, side: 9 }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.cell / self.side + 1, self.cell % self.side + 1)
    }
}

/// Rules that cannot hold together, or data that does not fit the grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A map (regions, marks, cages) that does not have one entry per cell.
    #[error("the {what} map has {found} cells; a {size} grid has {expected}")]
    MapLength {
        /// Which map.
        what: &'static str,
        /// Its length.
        found: usize,
        /// The grid's cells.
        expected: usize,
        /// The grid.
        size: Size,
    },
    /// A jigsaw map with a number of regions other than the side.
    #[error("the region map has {found} regions; a {size} grid needs {}", size.side())]
    RegionCount {
        /// Regions found.
        found: usize,
        /// The grid.
        size: Size,
    },
    /// A jigsaw region of the wrong size.
    #[error("region `{label}` has {found} cells; each region of a {size} grid has {}", size.side())]
    RegionSize {
        /// Its label in the map.
        label: char,
        /// Its cells.
        found: usize,
        /// The grid.
        size: Size,
    },
    /// A jigsaw region in two or more pieces.
    #[error("region `{label}` is not connected: {cell} is cut off from {first}")]
    RegionNotConnected {
        /// Its label.
        label: char,
        /// Its first cell.
        first: At,
        /// A cell that cannot be reached from the first through the region.
        cell: At,
    },
    /// The windows do not fit a grid this small.
    #[error("no windows fit a {0} grid")]
    NoWindows(Size),
    /// A cage cell outside the grid or in two cages.
    #[error("cage {cage}: {problem}")]
    Cage {
        /// The cage (from 1, in the order given).
        cage: usize,
        /// What is wrong.
        problem: CageProblem,
    },
    /// A symbol in a map that is not one of the map's symbols.
    #[error("`{symbol}` at cell {cell} is not a {what} mark")]
    Symbol {
        /// Which map.
        what: &'static str,
        /// The symbol.
        symbol: char,
        /// The cell (from 1).
        cell: usize,
    },
}

/// What is wrong with a cage.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CageProblem {
    /// No cells.
    #[error("it has no cells")]
    Empty,
    /// More cells than digits.
    #[error("{cells} cells cannot hold different digits 1-{side}")]
    TooBig {
        /// Its cells.
        cells: usize,
        /// The side.
        side: usize,
    },
    /// A cell outside the grid.
    #[error("cell {0} is outside the grid")]
    Outside(usize),
    /// A cell already in another cage (or twice in this one).
    #[error("{cell} is already in cage {other}")]
    Overlap {
        /// The cell.
        cell: At,
        /// The other cage (from 1).
        other: usize,
    },
    /// No distinct digits of the grid add up to the sum.
    #[error("no {cells} different digits 1-{side} add up to {sum}")]
    Sum {
        /// Its cells.
        cells: usize,
        /// The side.
        side: usize,
        /// The sum.
        sum: u32,
    },
}

/// What a full grid must obey, for any size: rows, columns, regions (boxes or a jigsaw map),
/// and any of the [`Constraint`]s, even and odd cells, and killer cages.
///
/// ```
/// use dlx_sudoku::{Constraint, Rules, Size};
/// let mut rules = Rules::new(Size::of_side(6)?);
/// rules.add(Constraint::Diagonals);
/// rules.add_cage(vec![0, 1], 11)?; // r1c1 + r1c2 = 11: 5 and 6
/// assert_eq!(rules.units().len(), 6 * 3 + 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: Size,
    /// The region of each cell: its box, or its jigsaw region.
    regions: Vec<u8>,
    jigsaw: bool,
    constraints: u8,
    /// Empty when no cell is marked.
    parity: Vec<Parity>,
    cages: Vec<Cage>,
}

/// A 9x9 variant as rules: the same units and forbidden moves (the even cells are each puzzle's
/// marks, not the variant's). The 9x9 path keeps its own tables of them, on 128-bit cell sets;
/// the tests check that they are these.
/// The constraint a 9x9 variant adds to the classic rules, if one.
fn added_by(variant: Variant) -> Option<Constraint> {
    match variant {
        Variant::Classic | Variant::Even => None,
        Variant::Diagonal => Some(Constraint::Diagonals),
        Variant::Windoku => Some(Constraint::Windows),
        Variant::AntiKing => Some(Constraint::AntiKing),
    }
}

impl From<Variant> for Rules {
    fn from(variant: Variant) -> Rules {
        let mut rules = Rules::new(Size::CLASSIC);
        if let Some(constraint) = added_by(variant) {
            rules.add(constraint);
        }
        rules
    }
}

impl Rules {
    /// Rows, columns and boxes of the size.
    pub fn new(size: Size) -> Rules {
        // Row by row, box by box (a batch reads a grid's rules per record: no division a cell).
        let mut regions = Vec::with_capacity(size.cells());
        for row in 0..size.side() {
            let band = size_u8(row / size.box_rows() * size.box_rows());
            for stack in 0..size_u8(size.side() / size.box_cols()) {
                regions.extend(std::iter::repeat_n(band + stack, size.box_cols()));
            }
        }
        Rules { size, regions, jigsaw: false, constraints: 0, parity: Vec::new(), cages: Vec::new() }
    }

    /// The grid's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Replaces the boxes by jigsaw regions: one label per cell, row-major (any characters but
    /// whitespace; each label names one region). There must be as many regions as the side,
    /// each of side cells and connected (through cells that share an edge).
    pub fn set_regions(&mut self, map: &str) -> Result<(), RulesError> {
        let size = self.size;
        let labels: Vec<char> = map.chars().filter(|c| !c.is_whitespace()).collect();
        if labels.len() != size.cells() {
            return Err(RulesError::MapLength {
                what: "region",
                found: labels.len(),
                expected: size.cells(),
                size,
            });
        }
        let mut names: Vec<char> = Vec::new();
        let mut regions = Vec::with_capacity(size.cells());
        for &label in &labels {
            let k = names.iter().position(|&n| n == label).unwrap_or_else(|| {
                names.push(label);
                names.len() - 1
            });
            regions.push(k);
        }
        if names.len() != size.side() {
            return Err(RulesError::RegionCount { found: names.len(), size });
        }
        let side = size.side();
        for (k, &label) in names.iter().enumerate() {
            let cells: Vec<usize> = (0..size.cells()).filter(|&c| regions[c] == k).collect();
            if cells.len() != side {
                return Err(RulesError::RegionSize { label, found: cells.len(), size });
            }
            // Flood from the first cell through edge neighbours of the region.
            let mut reached = vec![cells[0]];
            let mut i = 0;
            while i < reached.len() {
                for n in edge_neighbours(reached[i], side) {
                    if regions[n] == k && !reached.contains(&n) {
                        reached.push(n);
                    }
                }
                i += 1;
            }
            if let Some(&cut) = cells.iter().find(|c| !reached.contains(c)) {
                return Err(RulesError::RegionNotConnected {
                    label,
                    first: At { cell: cells[0], side },
                    cell: At { cell: cut, side },
                });
            }
        }
        self.regions = regions.into_iter().map(size_u8).collect();
        self.jigsaw = true;
        Ok(())
    }

    /// Whether the regions are a jigsaw map rather than boxes.
    pub fn is_jigsaw(&self) -> bool {
        self.jigsaw
    }

    /// The region (box or jigsaw region, from 0) of each cell, row-major.
    pub fn regions(&self) -> &[u8] {
        &self.regions
    }

    /// Adds a constraint. Windows need a grid they fit (see [`Rules::windows`]).
    pub fn add(&mut self, constraint: Constraint) {
        self.constraints |= constraint.bit();
    }

    /// Whether a constraint was added.
    pub fn has(&self, constraint: Constraint) -> bool {
        self.constraints & constraint.bit() != 0
    }

    /// The constraints added, in the order of [`Constraint::ALL`].
    pub fn constraints(&self) -> impl Iterator<Item = Constraint> + '_ {
        Constraint::ALL.into_iter().filter(|&c| self.has(c))
    }

    /// Marks which digits a cell may hold.
    pub fn set_parity(&mut self, cell: usize, parity: Parity) {
        if self.parity.is_empty() {
            if parity == Parity::Any {
                return;
            }
            self.parity = vec![Parity::Any; self.size.cells()];
        }
        let was = std::mem::replace(&mut self.parity[cell], parity);
        // Only a mark taken away can leave none (a scan per cell would make reading a line of
        // marks quadratic).
        if parity == Parity::Any && was != Parity::Any && self.parity.iter().all(|&p| p == Parity::Any) {
            self.parity.clear();
        }
    }

    /// Each cell's parity, in cell order; empty when no cell is marked.
    pub(crate) fn parities(&self) -> &[Parity] {
        &self.parity
    }

    /// Which digits a cell may hold.
    pub fn parity(&self, cell: usize) -> Parity {
        self.parity.get(cell).copied().unwrap_or_default()
    }

    /// Whether any cell is marked even or odd.
    pub fn has_parity(&self) -> bool {
        !self.parity.is_empty()
    }

    /// Whether the two rule sets are the same but for their even and odd marks: whether one
    /// [`Matrix`](crate::Matrix) serves both (marks are each puzzle's restrictions).
    pub fn same_but_parity(&self, other: &Rules) -> bool {
        self.size == other.size
            && self.regions == other.regions
            && self.jigsaw == other.jigsaw
            && self.constraints == other.constraints
            && self.cages == other.cages
    }

    /// Adds a killer cage: its cells hold different digits adding up to `sum`.
    pub fn add_cage(&mut self, mut cells: Vec<usize>, sum: u32) -> Result<(), RulesError> {
        let cage = self.cages.len() + 1;
        let side = self.size.side();
        let fail = |problem| Err(RulesError::Cage { cage, problem });
        cells.sort_unstable();
        if cells.is_empty() {
            return fail(CageProblem::Empty);
        }
        if let Some(&cell) = cells.iter().find(|&&c| c >= self.size.cells()) {
            return fail(CageProblem::Outside(cell));
        }
        if let Some(w) = cells.windows(2).find(|w| w[0] == w[1]) {
            return fail(CageProblem::Overlap { cell: At { cell: w[0], side }, other: cage });
        }
        for &cell in &cells {
            if let Some(k) = self.cages.iter().position(|c| c.cells.binary_search(&cell).is_ok()) {
                return fail(CageProblem::Overlap { cell: At { cell, side }, other: k + 1 });
            }
        }
        if cells.len() > side {
            return fail(CageProblem::TooBig { cells: cells.len(), side });
        }
        if combinations(side, cells.len(), sum).is_empty() {
            return fail(CageProblem::Sum { cells: cells.len(), side, sum });
        }
        self.cages.push(Cage { cells, sum });
        Ok(())
    }

    /// The killer cages, in the order added.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The first cells of the windows: at rows `1 + k (a + 1)` and columns `1 + k (b + 1)` (from
    /// 0, for boxes of a rows and b columns), as long as the window ends before the last row
    /// and column: one cell in from the edges, one cell apart. A 4x4 grid has one, at r2c2.
    pub fn windows(&self) -> Vec<usize> {
        let (side, a, b) = (self.size.side(), self.size.box_rows(), self.size.box_cols());
        let rows = (0..).map(|k| 1 + k * (a + 1)).take_while(|r| r + a < side);
        let cols: Vec<usize> = (0..).map(|k| 1 + k * (b + 1)).take_while(|c| c + b < side).collect();
        rows.flat_map(|r| cols.iter().map(move |c| r * side + c)).collect()
    }

    /// Checks that the constraints fit the grid: windows need one at least.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.has(Constraint::Windows) && self.windows().is_empty() {
            return Err(RulesError::NoWindows(self.size));
        }
        Ok(())
    }

    /// The units: rows, columns, regions, then the diagonals and windows asked for. Each holds
    /// side cells, in increasing order.
    pub fn units(&self) -> Vec<(Unit, Vec<usize>)> {
        let side = self.size.side();
        let mut units = Vec::new();
        for r in 0..side {
            units.push((Unit::Row(size_u8(r)), (0..side).map(|c| r * side + c).collect()));
        }
        for c in 0..side {
            units.push((Unit::Column(size_u8(c)), (0..side).map(|r| r * side + c).collect()));
        }
        for k in 0..side {
            let cells = (0..self.size.cells()).filter(|&c| usize::from(self.regions[c]) == k).collect();
            let unit = if self.jigsaw { Unit::Region(size_u8(k)) } else { Unit::Box(size_u8(k)) };
            units.push((unit, cells));
        }
        if self.has(Constraint::Diagonals) {
            units.push((Unit::Diagonal, (0..side).map(|k| k * (side + 1)).collect()));
            units.push((Unit::AntiDiagonal, (0..side).map(|k| (k + 1) * (side - 1)).collect()));
        }
        if self.has(Constraint::Windows) {
            let (a, b) = (self.size.box_rows(), self.size.box_cols());
            for (w, first) in self.windows().into_iter().enumerate() {
                let cells = (0..a).flat_map(|i| (0..b).map(move |j| first + i * side + j)).collect();
                units.push((Unit::Window(size_u8(w)), cells));
            }
        }
        units
    }

    /// The forbidden moves of these rules, named (`a king's move`, `a knight's move`).
    pub fn move_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.constraints().filter_map(|c| c.moves()).map(|(_, name)| name)
    }

    /// The pairs of cells a forbidden move apart (first cell lower), with the move's name.
    pub fn move_pairs(&self) -> Vec<(usize, usize, &'static str)> {
        let side = self.size.side();
        let mut pairs = Vec::new();
        for constraint in self.constraints() {
            let Some((moves, name)) = constraint.moves() else { continue };
            for cell in 0..self.size.cells() {
                let (r, c) = (cell / side, cell % side);
                for &(dr, dc) in moves {
                    let (Some(r2), Some(c2)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) else {
                        continue;
                    };
                    if r2 < side && c2 < side {
                        let other = r2 * side + c2;
                        pairs.push((cell.min(other), cell.max(other), name));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup_by_key(|p| (p.0, p.1));
        pairs
    }

    /// The 9x9 [`Variant`] these rules are, when they are one: the classic grid with no rule
    /// added, or with the diagonals, the windows or anti-king alone, or with even marks alone
    /// ([`Variant::Even`]). Puzzles of a variant are answered on the 9x9 fast path, with the
    /// same answers as the general one; any other rules (another size, jigsaw regions, cages,
    /// odd marks, two constraints, marks beside a constraint) are `None`.
    pub fn variant(&self) -> Option<Variant> {
        if self.size != Size::CLASSIC || self.jigsaw || !self.cages.is_empty() {
            return None;
        }
        if self.parity.contains(&Parity::Odd) {
            return None;
        }
        let marked = self.parity.contains(&Parity::Even);
        let variant = match (self.constraints, marked) {
            (0, false) => Variant::Classic,
            (0, true) => Variant::Even,
            (_, true) => return None,
            (bits, false) => {
                Variant::ALL.into_iter().find(|&v| added_by(v).is_some_and(|c| c.bit() == bits))?
            }
        };
        Some(variant)
    }

    /// [`Rules::variant`], as a name given for it reads: the even-cell variant, named for a
    /// classic puzzle that has no marks (yet), stays the even-cell variant; any other name
    /// changes nothing (a variant's constraints are in the rules already).
    pub fn variant_named(&self, named: Option<Variant>) -> Option<Variant> {
        match (self.variant(), named) {
            (Some(Variant::Classic), Some(Variant::Even)) => Some(Variant::Even),
            (variant, _) => variant,
        }
    }

    /// The variant's name in words: `16x16 jigsaw diagonal killer`, `6x6`.
    pub fn describe(&self) -> String {
        let mut words = vec![self.size.to_string()];
        if self.jigsaw {
            words.push("jigsaw".into());
        }
        words.extend(self.constraints().map(|c| c.name().to_owned()));
        if self.parity.contains(&Parity::Even) {
            words.push("even".into());
        }
        if self.parity.contains(&Parity::Odd) {
            words.push("odd".into());
        }
        if !self.cages.is_empty() {
            words.push("killer".into());
        }
        words.join(" ")
    }
}

/// The sets of `count` different digits 1-`side` that add up to `sum`, each as a bit set (bit
/// `d - 1` for digit `d`), in increasing order.
pub(crate) fn combinations(side: usize, count: usize, sum: u32) -> Vec<u32> {
    let mut found = Vec::new();
    // Digits are tried in increasing order; `next` is the smallest digit still allowed.
    fn walk(side: u32, left: usize, sum: u32, next: u32, set: u32, found: &mut Vec<u32>) {
        if left == 0 {
            if sum == 0 {
                found.push(set);
            }
            return;
        }
        for d in next..=side {
            if d > sum {
                break;
            }
            walk(side, left - 1, sum - d, d + 1, set | 1 << (d - 1), found);
        }
    }
    walk(u32::try_from(side).unwrap_or(25), count, sum, 1, 0, &mut found);
    found
}

/// The cells sharing an edge with `cell` on a grid of `side` rows and columns.
pub(crate) fn edge_neighbours(cell: usize, side: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / side, cell % side);
    [
        (r > 0).then(|| cell - side),
        (r + 1 < side).then(|| cell + side),
        (c > 0).then(|| cell - 1),
        (c + 1 < side).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// A count below 256 as a byte (sides are at most 25).
#[allow(clippy::cast_possible_truncation)]
fn size_u8(k: usize) -> u8 {
    debug_assert!(k < 256);
    k as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boxes are the size's, cell by cell, for every shape of box.
    #[test]
    fn new_rules_have_the_sizes_boxes() {
        for box_rows in 1..=Size::MAX_SIDE {
            for box_cols in 1..=Size::MAX_SIDE {
                let Ok(size) = Size::new(box_rows, box_cols) else { continue };
                let rules = Rules::new(size);
                for cell in 0..size.cells() {
                    assert_eq!(usize::from(rules.regions[cell]), size.box_of(cell), "{size:?} cell {cell}");
                }
            }
        }
    }

    #[test]
    fn units_cover_each_cell_once_per_kind() {
        for size in Size::USUAL {
            let mut rules = Rules::new(size);
            rules.add(Constraint::Diagonals);
            let units = rules.units();
            assert_eq!(units.len(), 3 * size.side() + 2);
            for (_, cells) in &units {
                assert_eq!(cells.len(), size.side());
            }
            for kind in 0..3 {
                let mut seen = vec![0; size.cells()];
                for (_, cells) in &units[kind * size.side()..(kind + 1) * size.side()] {
                    for &c in cells {
                        seen[c] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{size} kind {kind}");
            }
        }
    }

    /// Marks set and taken away in any order: the rules have marks exactly while a cell has one,
    /// and the same rules as those never marked once none is left.
    #[test]
    fn marks_are_kept_while_a_cell_has_one() {
        let mut rules = Rules::new(Size::CLASSIC);
        rules.set_parity(3, Parity::Any);
        assert!(!rules.has_parity());
        rules.set_parity(3, Parity::Even);
        rules.set_parity(7, Parity::Odd);
        rules.set_parity(5, Parity::Any);
        assert!(rules.has_parity());
        rules.set_parity(3, Parity::Any);
        assert!(rules.has_parity(), "r1c8 is still odd");
        assert_eq!((rules.parity(3), rules.parity(7)), (Parity::Any, Parity::Odd));
        rules.set_parity(7, Parity::Any);
        assert!(!rules.has_parity());
        assert_eq!(rules, Rules::new(Size::CLASSIC));
    }

    #[test]
    fn windows_are_the_hyper_windows_on_9x9() {
        let rules = Rules::new(Size::CLASSIC);
        assert_eq!(rules.windows(), vec![10, 14, 46, 50]);
        assert_eq!(Rules::new(Size::of_side(4).unwrap()).windows(), vec![5]);
        assert_eq!(Rules::new(Size::of_side(16).unwrap()).windows().len(), 9);
    }

    #[test]
    fn jigsaw_maps_are_checked() {
        let size = Size::of_side(4).unwrap();
        let mut rules = Rules::new(size);
        assert_eq!(rules.set_regions("AABB AABB CCDD CCDD"), Ok(()));
        assert!(rules.is_jigsaw());
        assert!(matches!(rules.set_regions("AAAB"), Err(RulesError::MapLength { found: 4, .. })));
        assert!(matches!(rules.set_regions("AAAB ABBB CCCD CDDD"), Ok(())));
        assert!(matches!(
            rules.set_regions("AAAA BBBB CCCC DDDE"),
            Err(RulesError::RegionCount { found: 5, .. })
        ));
        assert!(matches!(
            rules.set_regions("AAAA BBBB CCCD DDDC"),
            Err(RulesError::RegionNotConnected { label: 'C', .. })
        ));
        assert!(matches!(
            rules.set_regions("AAAB BBBB CCCC DDDD"),
            Err(RulesError::RegionSize { label: 'A', found: 3, .. })
        ));
    }

    #[test]
    fn cages_are_checked() {
        let mut rules = Rules::new(Size::CLASSIC);
        assert_eq!(combinations(9, 2, 3), vec![0b11]);
        assert_eq!(combinations(9, 9, 45).len(), 1);
        assert_eq!(combinations(9, 3, 15).len(), 8);
        assert!(rules.add_cage(vec![0, 1], 17).is_ok());
        let e = rules.add_cage(vec![1, 2], 5).unwrap_err();
        assert_eq!(e.to_string(), "cage 2: r1c2 is already in cage 1");
        let e = rules.add_cage(vec![3, 4], 18).unwrap_err();
        assert_eq!(e.to_string(), "cage 2: no 2 different digits 1-9 add up to 18");
        assert!(rules.add_cage(vec![81], 1).is_err());
        assert!(rules.add_cage(vec![], 1).is_err());
        assert_eq!(rules.cages().len(), 1);
    }

    #[test]
    fn moves_pair_cells_once() {
        let mut rules = Rules::new(Size::of_side(4).unwrap());
        rules.add(Constraint::AntiKnight);
        // On a 4x4 board, knight's moves: 48 ordered, 24 pairs.
        assert_eq!(rules.move_pairs().len(), 24);
        let mut rules = Rules::new(Size::of_side(4).unwrap());
        rules.add(Constraint::AntiKing);
        // King's moves on 4x4: 2 * 4 * 3 straight + 2 * 3 * 3 diagonal = 42.
        assert_eq!(rules.move_pairs().len(), 42);
    }
}
