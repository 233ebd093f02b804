//! Puzzles of any size as text: a line of side x side symbols with `key=value` fields for the
//! rules, or a block of side rows.
//!
//! A line record is the puzzle followed by fields, each separated by spaces, tabs or `;`:
//!
//! - `size=3x4` (or `size=12`): the box shape, when the length alone does not say it (a line of
//!   144 symbols is 12x12 with boxes of 3 rows and 4 columns unless told otherwise);
//! - `variant=diagonal,anti-knight`: [`Constraint`] names, comma-separated (`jigsaw`, `even`,
//!   `odd` and `killer` are also accepted, for the fields that carry them);
//! - `regions=AAABBB...`: a jigsaw map, one label per cell;
//! - `marks=..e..o...`: `e` for an even cell, `o` for an odd one, `.` for neither;
//! - `cage=15:r1c1,r1c2,r2c1`: a killer cage, its sum and its cells, one field per cage;
//! - `# ...`: a comment, to the end of the line.
//!
//! `size=`, `regions=` and `marks=` may be given twice only with the same value. On grids of
//! side 9 or less, an `e` among the cells is an empty cell that must be even (as in the 9x9 line
//! form). A field of side x side digits right after the puzzle is its solution, given beside it
//! (as collections keep them), which [`parse_puzzle_record`] returns for the caller to check; the
//! convention of its digits (`1`-`G` or `0`-`F` on 16x16) is read from both. A word of cell
//! symbols of another length there is an error (a solution with a cell too many or too few);
//! other words without `=` (a count, a rating) are passed over, as after a 9x9 puzzle.
//!
//! A block record is side rows of side symbols each (spaces and `|` between them ignored; lines of
//! `-`, `+` and `=` between them skipped). [`Puzzle::to_text`] writes what this module reads.

use crate::UnknownName;
use crate::model::puzzle::Puzzle;
use crate::model::rules::{At, Constraint, Parity, Rules, RulesError};
use crate::model::size::{Size, SizeError, Symbols};

/// Where and why a record of any size could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct LineError {
    /// The column (from 1, in characters) where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub kind: LineErrorKind,
}

/// What is wrong with a record of any size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LineErrorKind {
    /// A puzzle whose length is no grid's (16, 36, 64, 81, 100, 144, 256, 625 ...).
    #[error("{0} cells is not a grid: give side x side symbols")]
    Length(usize),
    /// A puzzle whose length is not the size asked for.
    #[error("{found} cells; a {size} grid has {}", size.cells())]
    NotSize {
        /// Cells read.
        found: usize,
        /// The size asked for.
        size: Size,
    },
    /// A symbol that is no digit of the grid.
    #[error("`{symbol}` is not a digit of a {size} grid")]
    Symbol {
        /// The symbol.
        symbol: char,
        /// The grid.
        size: Size,
    },
    /// A field this reader does not know.
    #[error("unknown field `{}` (known: size, variant, regions, marks, cage)", dlx_engine::Excerpt(.0))]
    Field(String),
    /// A solution given beside the puzzle with an empty cell.
    #[error("the solution given beside the puzzle has an empty cell")]
    EmptyInSolution,
    /// A solution given beside the puzzle whose length is not the grid's.
    #[error("the solution given beside the puzzle has {found} cells; a {size} grid has {}", size.cells())]
    SolutionLength {
        /// Cells read.
        found: usize,
        /// The puzzle's size.
        size: Size,
    },
    /// A field given twice with different values (`size=`, `regions=`, `marks=`).
    #[error("`{field}=` is given twice, differently (first at column {first}): give it once")]
    Repeated {
        /// The field's key.
        field: String,
        /// The column of its first value.
        first: usize,
    },
    /// A cage's cell that is not in the grid.
    #[error("cage `{}`: `{}` is not a cell of a {size} grid (r1c1 to r{side}c{side})", dlx_engine::Excerpt(cage), dlx_engine::Excerpt(cell), side = size.side())]
    CageCell {
        /// The cage field's value.
        cage: String,
        /// The cell as written.
        cell: String,
        /// The grid.
        size: Size,
    },
    /// An `e` (an empty even cell, in the 9x9 line form) where `marks=` says odd.
    #[error("cell {0} is `e` (even) in the puzzle but odd in `marks=`")]
    ParityConflict(At),
    /// A variant name whose field is missing (`jigsaw` without `regions=`, `killer` without a
    /// `cage=`, `even` or `odd` without `marks=`).
    #[error("`{0}` is named but no `{1}` field gives it")]
    Missing(String, &'static str),
    /// A bad size field.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// An unknown variant name.
    #[error("{0}")]
    Variant(UnknownName),
    /// A cage field that is not `SUM:CELL,CELL,...`.
    #[error("`{}` is not a cage: write `cage=SUM:r1c1,r1c2,...`", dlx_engine::Excerpt(.0))]
    Cage(String),
    /// Rules that do not hold together.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A block whose rows do not all hold side symbols.
    #[error("row {row} of the block has {found} cells, not {side}")]
    Row {
        /// The row, from 1.
        row: usize,
        /// Its cells.
        found: usize,
        /// The side.
        side: usize,
    },
}

/// What a record does not say itself: a size and constraints for all records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defaults {
    /// The size of every record (a box shape for sides with more than one).
    pub size: Option<Size>,
    /// Constraints added to every record.
    pub constraints: Vec<Constraint>,
    /// Fields of the line form (`regions=`, `marks=`, `cage=`, `variant=`) for every record
    /// that does not give its own: what a block, whose rows hold only the cells, does not say.
    pub fields: Vec<String>,
}

fn err(column: usize, kind: LineErrorKind) -> LineError {
    LineError { column, kind }
}

/// The tokens of a line with the column (from 1) where each starts.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    if line.is_ascii() {
        // Byte by byte (a column a byte), with the whitespace of `char::is_whitespace`.
        let separator = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b';');
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if separator(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && !separator(bytes[i]) {
                i += 1;
            }
            out.push((start + 1, &line[start..i]));
        }
        return out;
    }
    tokens_by_char(line)
}

/// [`tokens`] read a character at a time (any text).
fn tokens_by_char(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut column = 0;
    for (i, c) in line.char_indices() {
        column += 1;
        let separator = c.is_whitespace() || c == ';';
        match (separator, start) {
            (false, None) => start = Some((i, column)),
            (true, Some((s, col))) => {
                out.push((col, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &line[s..]));
    }
    out
}

/// Reads one line record: a puzzle of side x side symbols and its fields (`size=2x3`,
/// `variant=diagonal,anti-knight`, `regions=` a jigsaw map, `marks=` with `e` and `o`,
/// `cage=SUM:r1c1,r1c2`), with `defaults` added.
pub fn parse_puzzle(line: &str, defaults: &Defaults) -> Result<Puzzle, LineError> {
    parse_puzzle_record(line, defaults).map(|(grid, _)| grid)
}

/// Reads one line record as [`parse_puzzle`] does, and the full grid given beside the puzzle
/// when a field right after it is one (side x side digits, no empty cell): its solution as the
/// record says, for the caller to check.
pub(crate) fn parse_puzzle_record(
    line: &str,
    defaults: &Defaults,
) -> Result<(Puzzle, Option<Puzzle>), LineError> {
    if !defaults.fields.is_empty() {
        // The defaults' fields after the record's own, but for those it gives itself.
        let own: Vec<&str> =
            tokens(line).iter().filter_map(|(_, t)| t.split_once('=')).map(|(k, _)| k).collect();
        let mut text = line.to_owned();
        for field in &defaults.fields {
            let key = field.split_once('=').map_or(field.as_str(), |(k, _)| k);
            if key == "variant" || !own.contains(&key) {
                text.push(' ');
                text.push_str(field);
            }
        }
        let defaults = Defaults { fields: Vec::new(), ..defaults.clone() };
        return parse_puzzle_record(&text, &defaults);
    }
    // A field starting with `#` begins a comment, to the end of the line (`dlx solve` writes
    // ` # FILE:LINE` after each answer when it reads several files).
    let mut tokens = tokens(line);
    if let Some(at) = tokens.iter().position(|(_, t)| t.starts_with('#')) {
        tokens.truncate(at);
    }
    let Some(&(column, puzzle)) = tokens.first() else {
        return Err(err(1, LineErrorKind::Length(0)));
    };
    let mut size = defaults.size;
    let mut constraints = defaults.constraints.clone();
    // A field that holds one value may be given twice only with the same value.
    for key in ["size=", "regions=", "marks="] {
        let mut given = tokens[1..].iter().filter_map(|&(col, t)| t.strip_prefix(key).map(|v| (col, v)));
        if let Some((first, value)) = given.next()
            && let Some(&(col, _)) = given.find(|&(_, other)| other != value).as_ref()
        {
            let field = key.trim_end_matches('=').to_owned();
            return Err(err(col, LineErrorKind::Repeated { field, first }));
        }
    }
    // The size first: every other field depends on it.
    if let Some(&(col, token)) = tokens[1..].iter().find(|(_, t)| t.starts_with("size=")) {
        let value = &token["size=".len()..];
        size = Some(value.parse().map_err(|e| err(col + 5, LineErrorKind::Size(e)))?);
    }
    let found = puzzle.chars().count();
    let size = match size {
        Some(size) if size.cells() == found => size,
        Some(size) => return Err(err(column, LineErrorKind::NotSize { found, size })),
        None => Size::of_cells(found).ok_or_else(|| err(column, LineErrorKind::Length(found)))?,
    };
    let mut rules = Rules::new(size);
    let mut named: Vec<(usize, &str)> = Vec::new();
    // A second field of side x side symbols, none empty: the solution given beside the puzzle.
    // One of the grid's symbols alone but of another length is a solution with a cell too many
    // or too few.
    let given = tokens.get(1).filter(|(_, t)| !t.contains('=') && t.chars().count() == size.cells());
    if given.is_none()
        && let Some(&(col, text)) = tokens.get(1)
        && looks_like_cells(text, size)
    {
        let found = text.chars().count();
        return Err(err(col, LineErrorKind::SolutionLength { found, size }));
    }
    let fields = if given.is_some() { &tokens[2..] } else { &tokens[1..] };
    for &(col, token) in fields {
        // Words without `=` after the puzzle (a count, a rating, an id) are not the puzzle's: they
        // are passed over, as after a 9x9 puzzle.
        let Some((key, value)) = token.split_once('=') else { continue };
        let at = col + key.len() + 1;
        match key {
            "size" => {}
            "variant" => {
                for name in value.split(',').filter(|n| !n.is_empty()) {
                    if matches!(name, "jigsaw" | "even" | "odd" | "killer" | "classic") {
                        named.push((at, name));
                        continue;
                    }
                    let c: Constraint = name.parse().map_err(|e: UnknownName| {
                        // Every name the field takes, not the constraints' alone.
                        let known = [
                            "classic",
                            "diagonal",
                            "windoku",
                            "anti-king",
                            "anti-knight",
                            "jigsaw",
                            "even",
                            "odd",
                            "killer",
                        ];
                        err(at, LineErrorKind::Variant(UnknownName { known: known.to_vec(), ..e }))
                    })?;
                    constraints.push(c);
                }
            }
            "regions" => rules.set_regions(value).map_err(|e| err(at, e.into()))?,
            "marks" => {
                let found = value.chars().count();
                if found != size.cells() {
                    let kind = RulesError::MapLength { what: "marks", found, expected: size.cells(), size };
                    return Err(err(at, kind.into()));
                }
                for (cell, m) in value.chars().enumerate() {
                    let parity = match m {
                        '.' | '0' | '_' => Parity::Any,
                        'e' | 'E' => Parity::Even,
                        'o' | 'O' => Parity::Odd,
                        _ => {
                            let kind = RulesError::Symbol { what: "parity", symbol: m, cell: cell + 1 };
                            return Err(err(at + cell, kind.into()));
                        }
                    };
                    rules.set_parity(cell, parity);
                }
            }
            "cage" => {
                let bad = || err(at, LineErrorKind::Cage(value.into()));
                let (sum_text, cells) = value.split_once(':').ok_or_else(bad)?;
                let sum: u32 = sum_text.parse().map_err(|_| bad())?;
                let mut list = Vec::new();
                let mut offset = at + sum_text.chars().count() + 1;
                for cell in cells.split(',') {
                    match parse_cell(cell, size.side()) {
                        Ok(cell) => list.push(cell),
                        Err(BadCell::Outside) => {
                            let (cage, cell) = (value.to_owned(), cell.to_owned());
                            return Err(err(offset, LineErrorKind::CageCell { cage, cell, size }));
                        }
                        Err(BadCell::Malformed) => return Err(bad()),
                    }
                    offset += cell.chars().count() + 1;
                }
                rules.add_cage(list, sum).map_err(|e| err(at, e.into()))?;
            }
            _ => return Err(err(col, LineErrorKind::Field(key.into()))),
        }
    }
    for c in constraints {
        rules.add(c);
    }
    // A name that says what another field gives: that field must be there.
    for (at, name) in named {
        let missing = match name {
            "jigsaw" if !rules.is_jigsaw() => Some("regions="),
            "killer" if rules.cages().is_empty() => Some("cage="),
            "even" | "odd" if !rules.has_parity() => Some("marks="),
            _ => None,
        };
        if let Some(field) = missing {
            return Err(err(at, LineErrorKind::Missing(name.to_owned(), field)));
        }
    }
    // `e` is an empty even cell on grids whose digits have no letters, as in the 9x9 line form.
    let evens: Vec<usize> = if size.side() <= 9 {
        puzzle.chars().enumerate().filter(|&(_, c)| c == 'e').map(|(k, _)| k).collect()
    } else {
        Vec::new()
    };
    for &cell in &evens {
        if rules.parity(cell) == Parity::Odd {
            return Err(err(column + cell, LineErrorKind::ParityConflict(At { cell, side: size.side() })));
        }
        rules.set_parity(cell, Parity::Even);
    }
    rules.validate().map_err(|e| err(column, e.into()))?;
    // The convention of the digits is read from the puzzle and its solution together: a 16x16
    // puzzle written `0`-`F` may give no `0`, where its solution has one.
    let symbols = match given {
        Some((_, text)) => Symbols::detect(&format!("{puzzle}{text}"), size.side()),
        None => Symbols::detect(puzzle, size.side()),
    };
    let emptied: String;
    let text = if evens.is_empty() {
        puzzle
    } else {
        emptied = puzzle.replace('e', ".");
        &emptied
    };
    let cells = digits(text, size, symbols).map_err(|(k, kind)| err(column + k, kind))?;
    // One copy of the rules for the puzzle and its solution.
    let rules = std::sync::Arc::new(rules);
    let solution = match given {
        Some(&(col, text)) => {
            let cells = digits(text, size, symbols).map_err(|(k, kind)| err(col + k, kind))?;
            if let Some(k) = cells.iter().position(|&d| d == 0) {
                return Err(err(col + k, LineErrorKind::EmptyInSolution));
            }
            let mut solution =
                Puzzle::with_cells(std::sync::Arc::clone(&rules), cells).expect("the cells fit the grid");
            solution.set_symbols(symbols);
            Some(solution)
        }
        None => None,
    };
    let mut grid = Puzzle::with_cells(rules, cells).expect("the cells fit the grid");
    grid.set_symbols(symbols);
    Ok((grid, solution))
}

/// The digits of a string of symbols; on a bad symbol, its position (from 0) and the error.
fn digits(text: &str, size: Size, symbols: Symbols) -> Result<Vec<u8>, (usize, LineErrorKind)> {
    if text.is_ascii() {
        // Byte by byte, from a table: a batch reads every line's cells.
        let side = size.side();
        let mut cells = Vec::with_capacity(text.len());
        for (k, &b) in text.as_bytes().iter().enumerate() {
            match symbols.digit_of_byte(b, side) {
                Some(digit) => cells.push(digit),
                None => return Err((k, LineErrorKind::Symbol { symbol: char::from(b), size })),
            }
        }
        return Ok(cells);
    }
    // A `match` rather than `ok_or`: the error is made only for a bad symbol.
    text.chars()
        .enumerate()
        .map(|(k, s)| match symbols.digit(s, size.side()) {
            Some(digit) => Ok(digit),
            None => Err((k, LineErrorKind::Symbol { symbol: s, size })),
        })
        .collect()
}

/// Why a cage's cell could not be read.
enum BadCell {
    /// Written `r9c9`, but outside the grid.
    Outside,
    /// Not written `r3c12`.
    Malformed,
}

/// A cell written `r3c12` (from 1).
fn parse_cell(text: &str, side: usize) -> Result<usize, BadCell> {
    let number = |n: &str| n.parse::<usize>().map_err(|_| BadCell::Malformed);
    let rest = text.trim().strip_prefix(['r', 'R']).ok_or(BadCell::Malformed)?;
    let (r, c) = rest.split_once(['c', 'C']).ok_or(BadCell::Malformed)?;
    let (r, c) = (number(r)?, number(c)?);
    if (1..=side).contains(&r) && (1..=side).contains(&c) {
        Ok((r - 1) * side + c - 1)
    } else {
        Err(BadCell::Outside)
    }
}

/// Whether a word is made of the grid's cell symbols alone and at least a row long: a grid of
/// cells, not a count or a rating.
fn looks_like_cells(text: &str, size: Size) -> bool {
    let side = size.side();
    text.chars().count() >= side
        && text.chars().all(|c| matches!(c, '.' | '0' | '_') || Symbols::OneBased.digit(c, side).is_some())
}

/// Reads a block of rows (see the module docs) under the rules given, or the usual shape of the
/// block's side when no rules are given. `rows` are the block's lines, rule lines included.
pub fn parse_block<'a>(
    rows: impl IntoIterator<Item = &'a str>,
    defaults: &Defaults,
) -> Result<Puzzle, LineError> {
    let rows: Vec<String> = rows
        .into_iter()
        .filter(|r| !is_rule_line(r))
        .map(|r| r.chars().filter(|c| !c.is_whitespace() && *c != '|').collect())
        .collect();
    let side = rows.first().map_or(0, |r| r.chars().count());
    let size = match defaults.size {
        Some(size) => size,
        None => Size::of_side(side).map_err(|e| err(1, e.into()))?,
    };
    for (k, row) in rows.iter().enumerate() {
        let found = row.chars().count();
        if found != size.side() || rows.len() != size.side() {
            let (row, found) = if found == size.side() { (rows.len(), rows.len()) } else { (k + 1, found) };
            return Err(err(1, LineErrorKind::Row { row, found, side: size.side() }));
        }
    }
    let text: String = rows.concat();
    let mut rules_defaults = defaults.clone();
    rules_defaults.size = Some(size);
    parse_puzzle(&text, &rules_defaults)
}

/// Whether a line of a block only separates rows (`---+---`, `===`).
pub(crate) fn is_rule_line(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && line.chars().all(|c| matches!(c, '-' | '+' | '=' | '|' | ' '))
}

impl Puzzle {
    /// The puzzle as one line with its rules' fields: what [`parse_puzzle`] reads back to an equal
    /// grid.
    pub fn to_text(&self) -> String {
        let rules = self.rules();
        let size = rules.size();
        let mut out = self.to_line();
        if Size::of_side(size.side()) != Ok(size) {
            out.push_str(&format!(" size={}x{}", size.box_rows(), size.box_cols()));
        }
        let names: Vec<&str> = rules.constraints().map(|c| c.name()).collect();
        if !names.is_empty() {
            out.push_str(" variant=");
            out.push_str(&names.join(","));
        }
        if rules.is_jigsaw() {
            out.push_str(" regions=");
            out.extend(rules.regions().iter().map(|&k| Symbols::OneBased.symbol(k + 1)));
        }
        if rules.has_parity() {
            out.push_str(" marks=");
            out.extend((0..size.cells()).map(|c| match rules.parity(c) {
                Parity::Any => '.',
                Parity::Even => 'e',
                Parity::Odd => 'o',
            }));
        }
        for cage in rules.cages() {
            let cells: Vec<String> = cage.cells.iter().map(|&c| self.at(c).to_string()).collect();
            out.push_str(&format!(" cage={}:{}", cage.sum, cells.join(",")));
        }
        out
    }

    /// [`to_text`](Self::to_text) with `solution` right after the cells, as the solution given
    /// beside the puzzle that [`Records`](crate::Records) reads back (`PUZZLE SOLUTION` and the
    /// rules' fields).
    ///
    /// ```
    /// use dlx_sudoku::{Defaults, Records, parse_puzzle};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let puzzle = parse_puzzle("1.3...1.2......1", &Defaults::default())?;
    /// let solution = parse_puzzle("1234341221434321", &Defaults::default())?;
    /// let text = puzzle.to_text_with(&solution);
    /// assert_eq!(text, "1.3...1.2......1 1234341221434321");
    /// let record = Records::new(text.as_bytes()).next().expect("one record")?;
    /// assert_eq!(record.solution.expect("given beside it").to_line(), "1234341221434321");
    /// # Ok(()) }
    /// ```
    pub fn to_text_with(&self, solution: &Puzzle) -> String {
        let text = self.to_text();
        let cells = self.to_line();
        format!("{cells} {}{}", solution.to_line(), &text[cells.len()..])
    }

    /// The `# size:` line to write above this puzzle's [block](Puzzle::to_block): the box shape,
    /// then the fields of the line form but the size (constraints, regions, marks, cages), which
    /// a block's rows cannot hold. [`Records`](crate::Records) applies it to the blocks below.
    pub fn block_header(&self) -> String {
        let size = self.size();
        let text = self.to_text();
        let fields = text.split(' ').skip(1).filter(|f| !f.starts_with("size="));
        let words = std::iter::once(format!("# size: {}x{}", size.box_rows(), size.box_cols()));
        words.chain(fields.map(String::from)).collect::<Vec<_>>().join(" ")
    }
}

impl Rules {
    /// The `# size:` line above puzzles of these rules' size and constraints, written as words
    /// (`# size: 3x4 diagonal anti-knight`): [`Records`](crate::Records) reads the lines and
    /// blocks below as puzzles of that size with those constraints. Regions, marks and cages are
    /// each line's fields, not the header's.
    pub fn size_line(&self) -> String {
        let size = self.size();
        let mut line = format!("# size: {}x{}", size.box_rows(), size.box_cols());
        for constraint in self.constraints() {
            line.push(' ');
            line.push_str(constraint.name());
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of ASCII are cut byte by byte as they are character by character: the same
    /// tokens at the same columns, on lines of every separator.
    #[test]
    fn ascii_tokens_are_the_characters_tokens() {
        let alphabet = [" ", "\t", ";", "\r", "\x0b", "\x0c", "\n", "1", ".", "a", "=", "#", "size=2x3"];
        let mut state = 7u64;
        for _ in 0..5000 {
            let mut line = String::new();
            for _ in 0..(state % 12) {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                line.push_str(alphabet[(state >> 33) as usize % alphabet.len()]);
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            assert_eq!(tokens(&line), tokens_by_char(&line), "{line:?}");
        }
    }

    #[test]
    fn lines_read_their_size_from_their_length() {
        let defaults = Defaults::default();
        let grid = parse_puzzle("1..4..2.2..1..3.", &defaults).unwrap();
        assert_eq!(grid.size().side(), 4);
        assert_eq!(grid.get(3), 4);
        let e = parse_puzzle("1..4..2.2..1..3.5", &defaults).unwrap_err();
        assert_eq!(e.to_string(), "column 1: 17 cells is not a grid: give side x side symbols");
        let e = parse_puzzle("1..5..2.2..1..3.", &defaults).unwrap_err();
        assert_eq!(e.to_string(), "column 4: `5` is not a digit of a 4x4 grid");
        let e = parse_puzzle("1..4..2.2..1..3. colour=red", &defaults).unwrap_err();
        assert_eq!(e.column, 18);
        let (_, given) = parse_puzzle_record("1.3.3..2.1.34..1 1234341221434321", &defaults).unwrap();
        assert_eq!(given.map(|g| g.to_line()), Some("1234341221434321".to_owned()));
        let e = parse_puzzle("1.3.3..2.1.34..1 1234341221.34321", &defaults).unwrap_err();
        assert_eq!(e.to_string(), "column 28: the solution given beside the puzzle has an empty cell");
        let commented = parse_puzzle("1..4..2.2..1..3. # from a.txt:3", &defaults).unwrap();
        assert_eq!(commented.to_line(), "1..4..2.2..1..3.");
        let e = parse_puzzle("1..4..2.2..1..3. variant=killer", &defaults).unwrap_err();
        assert_eq!(e.to_string(), "column 26: `killer` is named but no `cage=` field gives it");
    }

    #[test]
    fn every_field_round_trips() {
        let side = 6;
        let mut rules = Rules::new(Size::new(3, 2).unwrap());
        rules.add(Constraint::Diagonals);
        rules.set_regions("AAABBB AAABBB CCCDDD CCCDDD EEEFFF EEEFFF").unwrap();
        rules.set_parity(7, Parity::Even);
        rules.set_parity(8, Parity::Odd);
        rules.add_cage(vec![0, 1, side], 6).unwrap();
        let mut grid = Puzzle::new(rules);
        grid.set(35, 4);
        let text = grid.to_text();
        assert_eq!(parse_puzzle(&text, &Defaults::default()), Ok(grid), "{text}");
    }

    #[test]
    fn sixteen_reads_both_conventions() {
        let defaults = Defaults::default();
        let one: String = "123456789ABCDEFG".chars().chain(std::iter::repeat_n('.', 240)).collect();
        let zero: String = "0123456789ABCDEF".chars().chain(std::iter::repeat_n('.', 240)).collect();
        let (a, b) = (parse_puzzle(&one, &defaults).unwrap(), parse_puzzle(&zero, &defaults).unwrap());
        assert_eq!(a.cells(), b.cells());
        assert_eq!(b.to_line(), zero);
        assert_eq!(a.to_line(), one);
    }

    #[test]
    fn blocks_are_read_with_or_without_rules() {
        let block = "1 2 | 3 4\n3 4 | 1 2\n----+----\n. . | . .\n. . | . .\n";
        let grid = parse_block(block.lines(), &Defaults::default()).unwrap();
        assert_eq!(grid.to_line(), "12343412........");
        assert_eq!(grid.to_block(), "1 2 | 3 4\n3 4 | 1 2\n----+----\n. . | . .\n. . | . .\n");
        let short = "1 2 3 4\n3 4 1\n. . . .\n. . . .\n";
        let e = parse_block(short.lines(), &Defaults::default()).unwrap_err();
        assert_eq!(e.kind, LineErrorKind::Row { row: 2, found: 3, side: 4 });
    }
}
