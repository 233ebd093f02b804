//! Variants as data: the units of the grid, and which cells may hold which digits.

use std::fmt;

/// The sudoku variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Variant {
    /// 9x9: rows, columns and boxes each hold 1-9.
    Classic,
    /// Classic, and both main diagonals also hold 1-9.
    Diagonal,
    /// Classic, and marked cells hold only even digits.
    Even,
    /// Classic, and four more 3x3 windows (rows and columns 2-4 and 6-8) also hold 1-9
    /// (also called hyper sudoku).
    Windoku,
    /// Classic, and no two cells a king's move apart (diagonal neighbours) hold the same digit.
    AntiKing,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 5] =
        [Variant::Classic, Variant::Diagonal, Variant::Even, Variant::Windoku, Variant::AntiKing];

    /// The number of variants.
    pub const COUNT: usize = Variant::ALL.len();

    /// The variant's position in [`Variant::ALL`], for tables with one entry per variant. A
    /// match over every variant: a new variant does not compile until it has a place here.
    pub const fn index(self) -> usize {
        match self {
            Variant::Classic => 0,
            Variant::Diagonal => 1,
            Variant::Even => 2,
            Variant::Windoku => 3,
            Variant::AntiKing => 4,
        }
    }

    /// What the variant asks, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Variant::Classic => "Rows, columns and boxes",
            Variant::Diagonal => "Classic plus both main diagonals",
            Variant::Even => "Classic, and cells marked `e` (or -2 in lists) hold even digits",
            Variant::Windoku => "Classic plus four 3x3 windows (rows and columns 2-4, 6-8): hyper sudoku",
            Variant::AntiKing => "Classic, and no equal digits a king's move apart",
        }
    }

    /// The units (groups of nine cells holding each digit once) of this variant.
    pub fn units(self) -> &'static [Unit] {
        match self {
            Variant::Classic | Variant::Even | Variant::AntiKing => &UNITS[..27],
            Variant::Diagonal => &UNITS[..29],
            Variant::Windoku => &WINDOKU_UNITS,
        }
    }

    /// The units with their nine cells each, in the order of [`units`](Self::units).
    pub(crate) fn units_with_cells(self) -> Vec<(Unit, [usize; 9])> {
        // A variant's units are rows, columns, boxes, diagonals and windows: none is a region.
        self.units().iter().filter_map(|&unit| Some((unit, unit.nine_cells()?))).collect()
    }

    /// The variant's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Diagonal => "diagonal",
            Variant::Even => "even",
            Variant::Windoku => "windoku",
            Variant::AntiKing => "anti-king",
        }
    }

    /// The `# variant:` line above puzzles of this variant, which [`Records`](crate::Records)
    /// applies to the records below it (`# variant: diagonal`).
    pub fn header_line(self) -> String {
        format!("# variant: {}", self.name())
    }

    /// The moves (row and column offsets, one of each pair of opposite ones) between cells
    /// that may not hold the same digit, besides the units: a king's diagonal steps. Empty for
    /// the variants of units alone. (Knight's moves fit the same data, but a search of a sparse
    /// anti-knight grid, which the encoding's secondary items do not guide, takes millions of
    /// nodes: that variant waits for a better encoding.)
    pub fn forbidden_moves(self) -> &'static [(i8, i8)] {
        match self {
            Variant::AntiKing => &[(1, -1), (1, 1)],
            Variant::Classic | Variant::Diagonal | Variant::Even | Variant::Windoku => &[],
        }
    }

    /// The move named in messages ("a king's move"), for a variant with forbidden moves.
    pub fn move_name(self) -> Option<&'static str> {
        match self {
            Variant::AntiKing => Some("a king's move"),
            Variant::Classic | Variant::Diagonal | Variant::Even | Variant::Windoku => None,
        }
    }

    /// Whether the variant has even-cell markers.
    pub fn has_even_cells(self) -> bool {
        self == Variant::Even
    }
}

const _: () = {
    let mut k = 0;
    while k < Variant::COUNT {
        assert!(Variant::ALL[k].index() == k, "Variant::ALL in the order of Variant::index");
        k += 1;
    }
};

/// The variant with this name, as [`Variant::name`] spells it.
impl std::str::FromStr for Variant {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UnknownName::find("variant", s, &Variant::ALL, Variant::name)
    }
}

/// A name that is not one of a type's names (see the `FromStr` implementations of [`Variant`],
/// [`Symmetry`](crate::Symmetry) and [`Level`](crate::Level)).
/// Its message lists the names known, and the nearest when one is a slip away: "unknown rule
/// `kiler` (known: classic, diagonal, ...; did you mean `killer`?)".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{}` (known: {}{})", dlx_engine::Excerpt(name), known.join(", "), self.hint())]
pub struct UnknownName {
    /// What was named: `variant`, `symmetry`, `level`, `rule`, `constraint`, `paper`.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names known.
    pub known: Vec<&'static str>,
}

impl UnknownName {
    pub(crate) fn new(
        what: &'static str,
        name: &str,
        known: impl IntoIterator<Item = &'static str>,
    ) -> UnknownName {
        UnknownName { what, name: name.to_owned(), known: known.into_iter().collect() }
    }

    /// The known name nearest the one given, when it is at most two edits away (a letter
    /// missing, added or changed), and closer than any other.
    pub fn suggestion(&self) -> Option<&'static str> {
        let given = self.name.to_lowercase();
        let mut scored: Vec<(usize, &'static str)> =
            self.known.iter().map(|&k| (edits(&given, k), k)).filter(|&(d, _)| d <= 2).collect();
        scored.sort();
        match scored.as_slice() {
            [(d, k), rest @ ..] if rest.first().is_none_or(|(e, _)| e > d) => Some(k),
            _ => None,
        }
    }

    /// The one of `all` that `name` spells (as `spell` spells each), else this error.
    pub(crate) fn find<T: Copy>(
        what: &'static str,
        name: &str,
        all: &[T],
        spell: impl Fn(T) -> &'static str,
    ) -> Result<T, UnknownName> {
        all.iter()
            .copied()
            .find(|&t| spell(t) == name)
            .ok_or_else(|| UnknownName::new(what, name, all.iter().map(|&t| spell(t))))
    }

    fn hint(&self) -> String {
        self.suggestion().map(|k| format!("; did you mean `{k}`?")).unwrap_or_default()
    }
}

/// The edit distance between two words (letters inserted, deleted or changed).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A unit: a group of cells that holds each digit exactly once, in a grid of any size (the 9x9
/// variants' and the [`Rules`](crate::Rules)' alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row (stored from 0).
    Row(u8),
    /// A column (stored from 0).
    Column(u8),
    /// A box, numbered left to right, top to bottom (stored from 0).
    Box(u8),
    /// A jigsaw region, numbered in order of its first cell (stored from 0).
    Region(u8),
    /// The main diagonal, from the top left corner.
    Diagonal,
    /// The anti-diagonal, from the top right corner.
    AntiDiagonal,
    /// An extra window, left to right, top to bottom (stored from 0): on the 9x9 grid, the
    /// windoku window whose top-left cell is r2c2, r2c6, r6c2 or r6c6.
    Window(u8),
}

/// All units: rows, columns, boxes, then the two diagonals.
#[allow(clippy::cast_possible_truncation)] // k < 9
const UNITS: [Unit; 29] = {
    let mut units = [Unit::Diagonal; 29];
    let mut k = 0;
    while k < 9 {
        units[k] = Unit::Row(k as u8);
        units[9 + k] = Unit::Column(k as u8);
        units[18 + k] = Unit::Box(k as u8);
        k += 1;
    }
    units[28] = Unit::AntiDiagonal;
    units
};

/// The windoku units: rows, columns, boxes, then the four windows.
#[allow(clippy::cast_possible_truncation)] // k < 9
const WINDOKU_UNITS: [Unit; 31] = {
    let mut units = [Unit::Window(0); 31];
    let mut k = 0;
    while k < 27 {
        units[k] = UNITS[k];
        k += 1;
    }
    while k < 31 {
        units[k] = Unit::Window((k - 27) as u8);
        k += 1;
    }
    units
};

impl Unit {
    /// The unit's nine cells (0-80, row-major) on the 9x9 grid of the [`Variant`]s; `None` for
    /// a jigsaw region, whose cells its map gives (see [`Rules::units`](crate::Rules::units)
    /// for the units of any grid).
    pub fn nine_cells(self) -> Option<[usize; 9]> {
        let cell = |k: usize| match self {
            Unit::Row(r) => Some(usize::from(r) * 9 + k),
            Unit::Column(c) => Some(k * 9 + usize::from(c)),
            Unit::Box(b) => {
                let (br, bc) = (usize::from(b) / 3 * 3, usize::from(b) % 3 * 3);
                Some((br + k / 3) * 9 + bc + k % 3)
            }
            Unit::Diagonal => Some(k * 10),
            Unit::AntiDiagonal => Some(k * 8 + 8),
            Unit::Window(w) => {
                let (wr, wc) = (1 + usize::from(w) / 2 * 4, 1 + usize::from(w) % 2 * 4);
                Some((wr + k / 3) * 9 + wc + k % 3)
            }
            Unit::Region(_) => None,
        };
        let mut cells = [0; 9];
        for (k, c) in cells.iter_mut().enumerate() {
            *c = cell(k)?;
        }
        Some(cells)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(r) => write!(f, "row {}", r + 1),
            Unit::Column(c) => write!(f, "column {}", c + 1),
            Unit::Box(b) => write!(f, "box {}", b + 1),
            Unit::Diagonal => f.write_str("the main diagonal"),
            Unit::AntiDiagonal => f.write_str("the anti-diagonal"),
            Unit::Region(k) => write!(f, "region {}", k + 1),
            Unit::Window(w) => write!(f, "window {}", w + 1),
        }
    }
}
