//! Reading puzzles: 81-character lines, block grids and the list form, mixed in one stream, and
//! the line forms of every size and rule set. Every record's puzzle is a [`Puzzle`] with its
//! rules, whatever form it came in.
//!
//! * **Line**: 81 cells, `1`-`9` a given, `.` `0` `_` empty, `e` an empty cell that must be even.
//! * **Block grid**: nine lines of nine cells; `|`, `+`, `-` and spaces are ignored, so
//!   rule lines like `------+-------+------` are skipped; puzzles are separated by a blank line.
//! * **List**: `[[8, 4, 0, ...], ...]`, 0 empty and -2 an empty even cell; it may span lines.
//! * **JSON**: a line holding one object with a `"puzzle"` string in the line form, and optionally
//!   `"solution"`, `"variant"`, `"size"` and `"rules"` (what `dlx generate --format json` writes,
//!   and `dlx solve --format json`). Each applies to the puzzle whatever its size: the record is
//!   read as the line `PUZZLE SOLUTION size=SIZE variant=VARIANT` would be, but that a plain
//!   81-cell puzzle keeps a 9x9 variant's name as its [`Record::variant`]; `"rules"` (as
//!   `generate` describes them, `6x6 jigsaw killer`) must be what the puzzle and its fields give.
//!   The fields `dlx` writes besides (`status`, `count`, `level`, `seed` ...) are passed over; any
//!   other field, or one of the wrong type, is an error: a field misspelled would otherwise be a
//!   rule silently dropped.
//!
//! **Collections as people keep them.** A line whose first field is an 81-cell puzzle may go on
//! with other fields after a `,`, `;`, tab, space or `#`: `puzzle,solution`, `puzzle;rating`,
//! `puzzle # comment`. A second field that is a full grid of 81 digits is the puzzle's given
//! solution ([`Record::solution`], which the command line checks); any other field is ignored
//! (ratings, ids, comments: this reader has no use for them), but for a `key=value` field, which
//! must be one of the grid forms' fields below (a misspelled rule is an error, not dropped). A
//! line of 81 comma-separated digits is a puzzle too. A header row (a line of names separated
//! by `,`, `;` or tabs, one of them `puzzle`, `puzzles`, `quizzes`, `quiz`, `sudoku` or
//! `question`, before any record of the input) says which column holds the puzzle and, when one
//! is named `solution`, `solutions` or `answer`, which holds its solution, and a `variant` column
//! the variant; every following line
//! is read by those columns (the Kaggle and tdoku-style CSV files, and what `dlx solve --format
//! csv` writes), a field in double quotes holding commas.
//!
//! **Other sizes and rules.** A line of another square length than 81 (16, 36, ... 625 symbols),
//! or with `size=`, `variant=`, `regions=`, `marks=` or `cage=` fields, is a puzzle of the
//! forms of any size (`line`), its rules those the fields give; so are the records after a
//! `# size: 2x3 diagonal` line (blocks of rows among them; the line may go on with fields of the
//! line form, `regions=...`, for the blocks below that do not give their own), and every record
//! when [`Records::with_grid_defaults`] asks for a size or constraints.
//!
//! **The variant travels with the puzzles.** A comment line `# variant: NAME` (`classic`,
//! `diagonal`, `even`) sets the variant of the records after it, until the next such line
//! ([`Record::variant`]; `dlx generate` writes one); a JSON record may name its own. The reader
//! of the record adds the variant's rules to the puzzle's own ([`Record::puzzle_with`]).
//!
//! Lines starting with `#` and blank lines between records are skipped; `\r` is tolerated, and so
//! is a byte-order mark at the start. Each record remembers the line it starts on; a malformed
//! record is an error for that record alone (at the line and column of the offending character
//! when there is one), and reading goes on with the next one. A list whose brackets never close
//! ends at the latest where the next well-formed record begins. Memory stays bounded whatever the
//! input: a line longer than [`MAX_LINE`] bytes is a malformed record (a comment is skipped).

use std::io::{self, BufRead};

use std::sync::Arc;

use crate::model::variant::Variant;
use crate::model::{Puzzle, Rules, Size};
use crate::shape::nine::Puzzle as NinePuzzle;

mod columns;
mod json;
mod line;
mod list;

pub use line::{Defaults, LineError, LineErrorKind, parse_block, parse_puzzle};
pub(crate) use line::{is_rule_line, parse_puzzle_record};

use columns::{Columns, header_row};
use json::{read_json, read_json_value};
use list::{ListScan, is_complete_record};

/// The form a record was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One 81-character line.
    Line,
    /// A block grid of nine lines.
    Grid,
    /// The bracketed list form.
    List,
    /// A JSON object on one line.
    Json,
}

/// A malformed record: where (1-based line, and column when it is about one character) and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {kind}", column.map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Not 81 cells.
    #[error("{found} cells, expected 81{}", other_size(*found))]
    CellCount {
        /// How many cells the record has.
        found: usize,
    },
    /// A character that is neither a cell nor a separator.
    #[error("unexpected character {0:?}")]
    BadChar(char),
    /// A number in the list form other than 0-9 and -2.
    #[error("unexpected value `{}` (expected 0-9, or -2 for an even cell)", dlx_engine::Excerpt(.0))]
    BadValue(String),
    /// A list whose brackets never close (before the end of the input, or before a line that is
    /// a well-formed record on its own).
    #[error("the list is not closed")]
    Unclosed,
    /// A byte that is not part of valid UTF-8.
    #[error("byte 0x{0:02x} is not valid UTF-8")]
    NotUtf8(u8),
    /// A line longer than [`MAX_LINE`] bytes that is not a comment.
    #[error("a line longer than {} bytes", MAX_LINE)]
    LineTooLong,
    /// A `# variant:` line, or a JSON record, naming no known variant.
    #[error("unknown variant `{}` (known: {known})", dlx_engine::Excerpt(.0), known = Variant::ALL.map(Variant::name).join(", "))]
    UnknownVariant(String),
    /// A line starting with `{` that is not a JSON object with a `"puzzle"` string.
    #[error("not a JSON record: {0}")]
    Json(String),
    /// A solution given beside the puzzle (in a column named so by a header row, or in a JSON
    /// record) that is not a grid of 81 cells.
    #[error("the given solution: {0}")]
    Solution(Box<ParseErrorKind>),
    /// A solution given beside the puzzle with another number of cells than the puzzle.
    #[error("the given solution has {found} cells, the puzzle {expected}")]
    SolutionLength {
        /// The solution's cells.
        found: usize,
        /// The puzzle's.
        expected: usize,
    },
    /// A solution given beside the puzzle with rules of its own (the fields of the line form)
    /// that are not the puzzle's.
    #[error("the given solution's fields `{solution}` are not the puzzle's `{puzzle}`")]
    SolutionFields {
        /// The solution's fields.
        solution: String,
        /// The puzzle's.
        puzzle: String,
    },
    /// A line, after a header row, with no field in the puzzle's column.
    #[error("no field in column {0}, the header's puzzle column")]
    MissingColumn(usize),
    /// A puzzle of another size or with rules of its own, not read as wanted.
    #[error(transparent)]
    Line(LineErrorKind),
}

/// What to say of a record with the cells of a grid of another size.
fn other_size(cells: usize) -> String {
    match Size::of_cells(cells) {
        Some(size) if cells != 81 => format!(
            " (as many as a {size} grid: give --size {side}, or a `# size: {}x{}` line above it)",
            size.box_rows(),
            size.box_cols(),
            side = size.side()
        ),
        _ => String::new(),
    }
}

/// The longest line read, in bytes (without its line ending). A longer comment line is skipped;
/// any other is a malformed record. Reading holds at most this much of a line in memory.
pub const MAX_LINE: usize = 64 * 1024;

/// One puzzle read from a stream, or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The line the record starts on (from 1).
    pub line: usize,
    /// The form it was written in.
    pub format: Format,
    /// The puzzle with its rules, or what is wrong with the record. A 9x9 puzzle of the line,
    /// block or list forms has the classic rules (with its even markers as even marks, shared
    /// with the other records of a batch); the variant a `# variant:` line names is in
    /// [`Record::variant`], for the reader to apply ([`Record::puzzle_with`]).
    pub puzzle: Result<Puzzle, ParseError>,
    /// The variant the input names for this record: the last `# variant: NAME` line above it in
    /// the same input, or a JSON record's or a column's `"variant"`. `None` when it names none.
    pub variant: Option<Variant>,
    /// A solution given beside the puzzle (a second field, a `solution` column, a JSON
    /// `"solution"`), as read, with the puzzle's rules: whether it solves the puzzle is for the
    /// caller to check ([`Puzzle::is_solved_by`]).
    pub solution: Option<Puzzle>,
}

impl Record {
    /// The puzzle as the input and the caller ask for it: with the constraints of `variant` (the
    /// caller's, or else the one the input names) added to its own rules; what is wrong with a
    /// malformed record.
    pub fn puzzle_with(&self, variant: Option<Variant>) -> Result<Puzzle, &ParseError> {
        Ok(self.puzzle.as_ref()?.clone().with_variant(variant.or(self.variant)))
    }
}

impl Record {
    /// A record of the JSON form given as a value (as a program holds it, rather than as a line
    /// of text), read as [`Records`] reads that line with `defaults`
    /// ([`Records::with_grid_defaults`]; `Defaults::default()` for none); its line is 1.
    pub fn from_json(value: &serde_json::Value, defaults: &Defaults) -> Record {
        Records::new(io::empty()).record(read_json_value(value, 1, defaults))
    }
}

/// A record as read, before its cells are a [`Puzzle`]: the 9x9 forms are read into a
/// [`NinePuzzle`] (fast, in place), the others into a [`Puzzle`].
#[derive(Debug)]
struct Raw {
    line: usize,
    format: Format,
    puzzle: Result<Cells, ParseError>,
    variant: Option<Variant>,
    solution: Option<Cells>,
}

/// The cells of a record as read.
#[derive(Debug)]
enum Cells {
    Nine(NinePuzzle),
    Puzzle(Puzzle),
}

/// Reads records one by one from a buffered reader, in constant memory.
#[derive(Debug)]
pub struct Records<R> {
    reader: R,
    line: usize,
    buf: Vec<u8>,
    text: String,
    /// `text` holds a line read ahead and not yet used.
    pending: bool,
    /// The current line was longer than [`MAX_LINE`]: `text` holds its beginning.
    long_line: bool,
    /// The current line's first byte that is not UTF-8, and its column (`text` shows it as
    /// U+FFFD).
    not_utf8: Option<(u8, usize)>,
    done: bool,
    /// The variant named by the last `# variant:` line.
    variant: Option<Variant>,
    /// The columns a header row named.
    columns: Option<Columns>,
    /// Records read so far (a header row is only looked for before the first).
    records: usize,
    /// The size and constraints of every record, when they are asked for.
    grid: Defaults,
    /// `grid` was asked for by the caller, and `# size:` lines do not change it.
    grid_fixed: bool,
    /// The rules of the last record of the grid forms, which the next ones share when equal.
    rules: Option<Arc<Rules>>,
    /// The classic rules, which every 9x9 puzzle without even markers shares.
    classic: Arc<Rules>,
}

/// The fields of a line that make it a puzzle of the forms of any size (`line`).
const GRID_FIELDS: [&str; 5] = ["size=", "variant=", "regions=", "marks=", "cage="];

impl<R: BufRead> Records<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> Self {
        Records {
            reader,
            line: 0,
            buf: Vec::new(),
            text: String::new(),
            pending: false,
            long_line: false,
            not_utf8: None,
            done: false,
            variant: None,
            columns: None,
            records: 0,
            grid: Defaults::default(),
            grid_fixed: false,
            rules: None,
            classic: Arc::new(Rules::from(Variant::Classic)),
        }
    }

    /// Reads every record as a puzzle of the line forms of any size, with this size (a block
    /// of its side rows, or a line of its cells) and these constraints added. Without this,
    /// lines of another square length than 81 and lines with `size=`, `variant=`, `regions=`,
    /// `marks=` or `cage=` fields are read so, and others as 9x9 puzzles.
    pub fn with_grid_defaults(mut self, defaults: Defaults) -> Self {
        self.grid = defaults;
        self.grid_fixed = true;
        self
    }

    /// Reads the next line into `self.text` (without its line ending); `false` at the end.
    fn next_line(&mut self) -> io::Result<bool> {
        if self.pending {
            self.pending = false;
            return Ok(true);
        }
        self.buf.clear();
        // One byte more than a line may have, and its line ending.
        let limit = MAX_LINE as u64 + 3;
        if io::Read::take(&mut self.reader, limit).read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(false);
        }
        self.line += 1;
        self.long_line = false;
        if self.buf.last() != Some(&b'\n') && self.buf.len() as u64 == limit {
            self.long_line = true;
            self.buf.truncate(MAX_LINE);
            self.skip_rest_of_line()?;
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        if self.buf.len() > MAX_LINE {
            self.long_line = true;
            self.buf.truncate(MAX_LINE);
        }
        let bytes = if self.line == 1 { self.buf.strip_prefix(BOM).unwrap_or(&self.buf) } else { &self.buf };
        self.text.clear();
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                self.not_utf8 = None;
                self.text.push_str(text);
            }
            Err(e) => {
                let valid = String::from_utf8_lossy(&bytes[..e.valid_up_to()]);
                self.not_utf8 = Some((bytes[e.valid_up_to()], valid.chars().count() + 1));
                self.text.push_str(&String::from_utf8_lossy(bytes));
            }
        }
        Ok(true)
    }

    /// Names a byte that is not UTF-8 for what it is, when the first error of a record is the
    /// replacement character that stands for it on the current line.
    fn name_bad_byte(&self, error: &mut Option<ParseError>) {
        if let (Some(e), Some((byte, column))) = (error.as_mut(), self.not_utf8)
            && e.line == self.line
            && e.column == Some(column)
            && e.kind == ParseErrorKind::BadChar(char::REPLACEMENT_CHARACTER)
        {
            e.kind = ParseErrorKind::NotUtf8(byte);
        }
    }

    /// Reads past the end of an over-long line, keeping nothing.
    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(());
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.reader.consume(end + 1);
                    return Ok(());
                }
                None => {
                    let n = available.len();
                    self.reader.consume(n);
                }
            }
        }
    }
}

/// The UTF-8 byte-order mark, skipped at the start of the input.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// What a character of a line or grid is.
enum Char {
    Cell(u8, bool),
    Separator,
    Bad(char),
}

fn classify(c: char) -> Char {
    match c {
        '1'..='9' => Char::Cell(c as u8 - b'0', false),
        '.' | '0' | '_' => Char::Cell(0, false),
        'e' => Char::Cell(0, true),
        '|' | '+' | '-' => Char::Separator,
        c if c.is_whitespace() => Char::Separator,
        c => Char::Bad(c),
    }
}

/// Cells collected for one record.
struct Collector {
    puzzle: NinePuzzle,
    count: usize,
    error: Option<ParseError>,
}

impl Collector {
    fn new() -> Self {
        Collector { puzzle: NinePuzzle::empty(), count: 0, error: None }
    }

    /// Adds a line's cells; records the first bad character.
    fn add_line(&mut self, text: &str, line: usize) {
        self.add_line_at(text, line, 0);
    }

    /// Adds the cells of a part of a line that starts after `skipped` characters.
    fn add_line_at(&mut self, text: &str, line: usize, skipped: usize) {
        for (column, c) in (skipped..).zip(text.chars()) {
            match classify(c) {
                Char::Cell(digit, even) => self.push(digit, even),
                Char::Separator => {}
                Char::Bad(c) => {
                    if self.error.is_none() {
                        self.error = Some(ParseError {
                            line,
                            column: Some(column + 1),
                            kind: ParseErrorKind::BadChar(c),
                        });
                    }
                }
            }
        }
    }

    fn push(&mut self, digit: u8, even: bool) {
        if self.count < 81 {
            self.puzzle.set(self.count, digit);
            if even {
                self.puzzle.set_even_cell(self.count, true);
            }
        }
        self.count += 1;
    }

    fn finish(self, line: usize) -> Result<NinePuzzle, ParseError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.count != 81 {
            return Err(ParseError {
                line,
                column: None,
                kind: ParseErrorKind::CellCount { found: self.count },
            });
        }
        Ok(self.puzzle)
    }
}

impl Raw {
    fn new(line: usize, format: Format, puzzle: Result<NinePuzzle, ParseError>) -> Raw {
        Raw { line, format, puzzle: puzzle.map(Cells::Nine), variant: None, solution: None }
    }
}

/// The cells of a field (one puzzle in the line form), at column `skipped + 1` of `line`.
fn parse_cells(text: &str, line: usize, skipped: usize) -> Result<NinePuzzle, ParseError> {
    let mut cells = Collector::new();
    cells.add_line_at(text, line, skipped);
    cells.finish(line)
}

/// Whether a field (of a comma-separated line) is one cell.
fn is_one_cell(field: &str) -> bool {
    let mut chars = field.trim().chars();
    matches!((chars.next().map(classify), chars.next()), (Some(Char::Cell(..)), None))
}

/// Where a field of a line ends: a separator of fields, or a space.
fn is_field_end(c: char) -> bool {
    matches!(c, ',' | ';' | '\t' | '#') || c.is_whitespace()
}

/// The `key=value` fields of a line after its first field and before a comment: the grid forms'
/// fields, and any other of a word's key (a misspelled rule, which the grid forms' reader then
/// reports rather than a rule silently dropped).
fn rule_fields(body: &str) -> impl Iterator<Item = &str> {
    words(body).skip(1).take_while(|t| !t.starts_with('#')).filter(|t| {
        GRID_FIELDS.iter().any(|f| t.starts_with(f))
            || t.split_once('=').is_some_and(|(key, _)| {
                !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
            })
    })
}

/// The words of a line: what lies between spaces, tabs and semicolons. Cut on bytes, which
/// reads every line at once (an ASCII byte is never part of another character).
fn words(body: &str) -> impl Iterator<Item = &str> {
    body.as_bytes().split(|&b| matches!(b, b' ' | b'\t' | b';')).filter(|w| !w.is_empty()).map(|w| {
        let start = w.as_ptr() as usize - body.as_ptr() as usize;
        &body[start..start + w.len()]
    })
}

/// The length of a line's first field, whether it has fields of the forms of any size
/// (`line`; see [`rule_fields`]), and whether that length is a square other than 81 (a grid of
/// another size).
fn sized_line(body: &str) -> (usize, bool, bool) {
    let first = words(body).next().unwrap_or("").chars().count();
    let fields = rule_fields(body).next().is_some();
    (first, fields, first != 81 && Size::of_cells(first).is_some())
}

/// The 9x9 variant of a line whose only field of the grid forms is `variant=NAME`, NAME a 9x9
/// variant's (`classic`, `diagonal`, `even`, `windoku`, `anti-king`): the line form of such a
/// variant's puzzle, read as under a `# variant: NAME` line.
fn lone_variant(body: &str) -> Option<Variant> {
    let mut fields = rule_fields(body);
    let name = fields.next()?.strip_prefix("variant=")?;
    if fields.next().is_some() {
        return None;
    }
    name.parse().ok()
}

/// The record of a puzzle of the forms of any size (`line`), read or not; `lead` is the
/// column before its text (none for a JSON string, whose columns are not the line's).
fn grid_record(
    grid: Result<(Puzzle, Option<Puzzle>), crate::text::LineError>,
    start: usize,
    format: Format,
    lead: Option<usize>,
) -> Raw {
    match grid {
        Ok((grid, solution)) => Raw {
            line: start,
            format,
            puzzle: Ok(Cells::Puzzle(grid)),
            variant: None,
            solution: solution.map(Cells::Puzzle),
        },
        Err(e) => {
            let column = if format == Format::Line { lead.map(|l| l + e.column) } else { None };
            let error = ParseError { line: start, column, kind: ParseErrorKind::Line(e.kind) };
            Raw::new(start, format, Err(error))
        }
    }
}

/// The size, constraints and fields of a `# size: 2x3 diagonal anti-knight regions=...` line
/// (the fields those of the line form, which blocks cannot hold: `dlx solve --format grid` writes
/// them above the blocks of jigsaw, killer and odd-even grids).
fn size_header(words: &str) -> Result<Defaults, ParseErrorKind> {
    let mut words = words.split_whitespace();
    let size: Size =
        words.next().unwrap_or("").parse().map_err(|e| ParseErrorKind::Line(LineErrorKind::Size(e)))?;
    let (fields, names): (Vec<&str>, Vec<&str>) = words.partition(|w| w.contains('='));
    let constraints = names
        .into_iter()
        .map(|w| w.parse().map_err(|e| ParseErrorKind::Line(LineErrorKind::Variant(e))))
        .collect::<Result<_, _>>()?;
    let defaults =
        Defaults { size: Some(size), constraints, fields: fields.into_iter().map(String::from).collect() };
    // The fields are checked here, on an empty grid, so that a bad one is reported at its line.
    if !defaults.fields.is_empty() {
        parse_puzzle(&".".repeat(size.cells()), &defaults).map_err(|e| ParseErrorKind::Line(e.kind))?;
    }
    Ok(defaults)
}

/// The name in a `# variant: NAME` comment (given what follows the `#`).
fn variant_header(comment: &str) -> Option<&str> {
    let (key, value) = comment.split_once(':')?;
    key.trim().eq_ignore_ascii_case("variant").then(|| value.trim())
}

/// A line's cells when it is the commonest record of all: exactly 81 cells of the line form,
/// nothing before or after them (read byte by byte, without the general path's scans).
fn plain_line(text: &str) -> Option<NinePuzzle> {
    let bytes: &[u8; 81] = text.as_bytes().try_into().ok()?;
    // Digits and dots without a branch per cell; any other byte, another pass.
    let mut cells = [0; 81];
    let mut other = false;
    for (cell, &b) in cells.iter_mut().zip(bytes) {
        let digit = b.wrapping_sub(b'0');
        *cell = if digit <= 9 { digit } else { 0 };
        other |= digit > 9 && b != b'.';
    }
    let mut puzzle = NinePuzzle::from_cells(cells)?;
    if other {
        // The line form's other cells (`_`, `e`) as the general reader reads them; a separator
        // or a bad character is for the general reader to place or name.
        for (cell, &b) in bytes.iter().enumerate() {
            match classify(char::from(b)) {
                Char::Cell(_, even) => puzzle.set_even_cell(cell, even),
                Char::Separator | Char::Bad(_) => return None,
            }
        }
    }
    Some(puzzle)
}

/// A line's cells and even marks when it is an 81-cell puzzle of digits and dots followed by one
/// field, `marks=` with `e` and `.` alone (what `dlx generate --rules even` writes): read byte by
/// byte as [`plain_line`] reads, where the forms of any size would build its rules from nothing.
fn marked_line(text: &str) -> Option<NinePuzzle> {
    const MARKS: &[u8] = b" marks=";
    let bytes = text.as_bytes();
    if bytes.len() != 81 + MARKS.len() + 81 || &bytes[81..81 + MARKS.len()] != MARKS {
        return None;
    }
    let (cells, marks) = (&bytes[..81], &bytes[81 + MARKS.len()..]);
    if !cells.iter().all(|&b| matches!(b, b'1'..=b'9' | b'.')) {
        return None;
    }
    let mut puzzle = plain_line(&text[..81])?;
    // Without a branch a cell: the marks of a batch's lines follow no pattern.
    let (mut even, mut other) = (0u128, false);
    for (cell, &m) in marks.iter().enumerate() {
        even |= u128::from(m == b'e') << cell;
        other |= m != b'.' && m != b'e';
    }
    if other {
        return None;
    }
    puzzle.set_even_cells(even);
    Some(puzzle)
}

fn count_cells(text: &str) -> usize {
    text.chars().filter(|&c| matches!(classify(c), Char::Cell(..))).count()
}

impl<R: BufRead> Records<R> {
    fn read_record(&mut self) -> io::Result<Option<Raw>> {
        let mut record = loop {
            if !self.next_line()? {
                return Ok(None);
            }
            // Most records of a batch are an 81-cell line alone: read at once, unless a header
            // row, a size or constraints ask for another reading.
            if self.columns.is_none()
                && self.grid.size.is_none()
                && self.grid.constraints.is_empty()
                && let Some(puzzle) = plain_line(&self.text).or_else(|| marked_line(&self.text))
            {
                break Raw::new(self.line, Format::Line, Ok(puzzle));
            }
            let text = self.text.trim();
            if text.is_empty() {
                continue;
            }
            if let Some(comment) = text.strip_prefix('#') {
                if let Some(words) = comment.trim_start().strip_prefix("size:") {
                    match size_header(words) {
                        // The caller's size and constraints win, as `--rules` does.
                        Ok(_) if self.grid_fixed => {}
                        Ok(defaults) => self.grid = defaults,
                        Err(kind) => {
                            let error = ParseError { line: self.line, column: None, kind };
                            break Raw::new(self.line, Format::Line, Err(error));
                        }
                    }
                    continue;
                }
                if let Some(name) = variant_header(comment) {
                    match name.parse::<Variant>() {
                        Ok(variant) => self.variant = Some(variant),
                        Err(_) => {
                            let column = self.text.find(name).map(|at| self.text[..at].chars().count() + 1);
                            let kind = ParseErrorKind::UnknownVariant(name.to_owned());
                            let error = ParseError { line: self.line, column, kind };
                            break Raw::new(self.line, Format::Line, Err(error));
                        }
                    }
                }
                continue;
            }
            if self.records == 0
                && self.columns.is_none()
                && !self.long_line
                && let Some(columns) = header_row(&self.text)
            {
                self.columns = Some(columns);
                continue;
            }
            break self.read_started()?;
        };
        self.records += 1;
        if record.variant.is_none() {
            record.variant = self.variant;
        }
        Ok(Some(record))
    }

    /// Reads the record that starts on the current line.
    fn read_started(&mut self) -> io::Result<Raw> {
        let start = self.line;
        if self.long_line {
            let error =
                ParseError { line: start, column: Some(MAX_LINE + 1), kind: ParseErrorKind::LineTooLong };
            return Ok(Raw::new(start, Format::Line, Err(error)));
        }
        // After a header row, every line is a row of its columns.
        if let Some(columns) = self.columns {
            return Ok(self.read_columns(start, columns));
        }
        if let Some(record) = self.read_sized(start)? {
            return Ok(record);
        }
        let trimmed = self.text.trim_start();
        if trimmed.starts_with('[') {
            return self.read_list(start);
        }
        if trimmed.starts_with('{') {
            return Ok(read_json(trimmed, start, &self.grid));
        }
        if let Some(record) = self.read_fields(start) {
            return Ok(record);
        }
        let mut cells = Collector::new();
        cells.add_line(&self.text, start);
        self.name_bad_byte(&mut cells.error);
        // A line of more cells than a row, or one that cannot be a row (a character that is no
        // cell), is a record alone: it is answered without waiting for the lines after it (a
        // person typing at a terminal sees it answered at once).
        if count_cells(&self.text) > 9 || cells.error.is_some() {
            return Ok(Raw::new(start, Format::Line, cells.finish(start)));
        }
        // A block grid: lines until 81 cells are read, or a blank line, or the end.
        while cells.count < 81 {
            if !self.next_line()? || self.text.trim().is_empty() {
                break;
            }
            if self.text.trim_start().starts_with('#') {
                continue;
            }
            if self.long_line || count_cells(&self.text) > 9 || self.text.trim_start().starts_with('[') {
                // A line puzzle or a list right after an unfinished grid: its own record.
                self.pending = true;
                break;
            }
            cells.add_line(&self.text, self.line);
            self.name_bad_byte(&mut cells.error);
        }
        Ok(Raw::new(start, Format::Grid, cells.finish(start)))
    }

    /// A puzzle of the forms of any size (`line`), when the line starts one: a line of another
    /// square length than 81 or with fields of those forms, or any record when a size or
    /// constraints are asked for (a block when the line is not all of the puzzle's cells).
    fn read_sized(&mut self, start: usize) -> io::Result<Option<Raw>> {
        let forced = self.grid.size.is_some() || !self.grid.constraints.is_empty();
        let text = self.text.trim_end();
        let lead = text.len() - text.trim_start().len();
        let body = &text[lead..];
        // The common case first, at the cost of two scans: an 81-character puzzle and no field of
        // the grid forms.
        if !forced && body.find([' ', '\t', ';']).unwrap_or(body.len()) == 81 && !body.contains('=') {
            return Ok(None);
        }
        if body.starts_with(['[', '{']) || is_rule_line(body) {
            return Ok(None);
        }
        let (first, fields, other) = sized_line(body);
        if !forced && first == 81 && lone_variant(body).is_some() {
            // `PUZZLE variant=diagonal`, a 9x9 variant's puzzle as the line form writes it: read
            // as under a `# variant: diagonal` line (see `read_fields`).
            return Ok(None);
        }
        let lead = text[..lead].chars().count();
        let wrap = |grid, format| grid_record(grid, start, format, Some(lead));
        let cells = self.grid.size.map_or(81, Size::cells);
        if fields || other || (forced && first == cells) {
            let grid = parse_puzzle_record(body, &self.grid);
            return Ok(Some(wrap(grid, Format::Line)));
        }
        if !forced {
            return Ok(None);
        }
        // A block of side rows (the size's, or as many as the first row has cells): rule lines
        // and comments skipped, up to a blank line.
        let symbols = |row: &str| row.chars().filter(|&c| !c.is_whitespace() && c != '|').count();
        let side = self.grid.size.map_or_else(|| symbols(body), Size::side);
        // Each row with its line and the columns its text was trimmed of.
        let mut rows = vec![(start, lead, body.to_owned())];
        let count = |rows: &[(usize, usize, String)]| rows.iter().filter(|r| !is_rule_line(&r.2)).count();
        while count(&rows) < side {
            if !self.next_line()? || self.text.trim().is_empty() {
                break;
            }
            if self.text.trim_start().starts_with('#') {
                continue;
            }
            let trimmed = self.text.len() - self.text.trim_start().len();
            rows.push((self.line, self.text[..trimmed].chars().count(), self.text.trim().to_owned()));
        }
        let grid = parse_block(rows.iter().map(|r| r.2.as_str()), &self.grid).map(|g| (g, None));
        if let Err(e) = &grid
            && let LineErrorKind::Symbol { .. } = e.kind
            && side > 0
        {
            // The block's cells are read as one line: say where the symbol is in its own row.
            let cells = rows.iter().filter(|r| !is_rule_line(&r.2));
            let (row, at) = ((e.column - 1) / side, (e.column - 1) % side);
            if let Some((line, lead, text)) = cells.clone().nth(row) {
                let column = text
                    .chars()
                    .enumerate()
                    .filter(|&(_, c)| !c.is_whitespace() && c != '|')
                    .nth(at)
                    .map(|(k, _)| lead + k + 1);
                let error = ParseError { line: *line, column, kind: ParseErrorKind::Line(e.kind.clone()) };
                return Ok(Some(Raw::new(start, Format::Grid, Err(error))));
            }
        }
        Ok(Some(wrap(grid, Format::Grid)))
    }

    /// A line of fields: 81 comma-separated cells, or an 81-cell puzzle followed by other fields
    /// (the first of which may be its solution). `None` when the line is neither.
    fn read_fields(&self, start: usize) -> Option<Raw> {
        let text = self.text.as_str();
        if text.contains(',') && text.split(',').count() == 81 && text.split(',').all(is_one_cell) {
            let mut cells = Collector::new();
            for field in text.split(',') {
                cells.add_line(field, start);
            }
            return Some(Raw::new(start, Format::Line, cells.finish(start)));
        }
        let lead = text.len() - text.trim_start().len();
        let end = text[lead..].find(is_field_end).map_or(text.len(), |at| lead + at);
        let (first, rest) = (&text[lead..end], &text[end..]);
        if rest.is_empty() || count_cells(first) != 81 {
            return None;
        }
        let mut cells = Collector::new();
        cells.add_line_at(first, start, text[..lead].chars().count());
        if cells.error.is_some() {
            return None;
        }
        let mut record = Raw::new(start, Format::Line, cells.finish(start));
        record.variant = lone_variant(&text[lead..]);
        // A second field of 81 digits is a solution; anything else after the puzzle is ignored.
        let rest = rest.trim_start_matches([',', ';', '\t', ' ']);
        if !rest.starts_with('#') {
            let second = &rest[..rest.find(is_field_end).unwrap_or(rest.len())];
            if second.len() == 81 && second.bytes().all(|b| matches!(b, b'1'..=b'9')) {
                record.solution = parse_cells(second, start, 0).ok().map(Cells::Nine);
            }
        }
        Some(record)
    }

    fn read_list(&mut self, start: usize) -> io::Result<Raw> {
        let mut list = ListScan::new();
        loop {
            list.scan(&self.text, self.line);
            self.name_bad_byte(&mut list.error);
            if list.depth <= 0 {
                break;
            }
            // A list whose brackets never close ends at the end of the input, or where the next
            // well-formed record begins: the rest of the batch is still read.
            let more = self.next_line()?;
            if !more || self.long_line || is_complete_record(&self.text) {
                self.pending = more;
                list.error.get_or_insert(ParseError {
                    line: start,
                    column: None,
                    kind: ParseErrorKind::Unclosed,
                });
                break;
            }
        }
        let puzzle = match list.error {
            Some(e) => Err(e),
            None => list.cells.finish(start),
        };
        Ok(Raw::new(start, Format::List, puzzle))
    }
}

impl<R> Records<R> {
    /// The reader the records are read from (to ask it, say, whether more input is at hand).
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The record of what was read: its cells as a [`Puzzle`], whose rules are those of the
    /// record before when they are equal, so that a batch of puzzles of one set of rules holds
    /// them once (a 9x9 puzzle without even markers shares the classic rules).
    fn record(&mut self, raw: Raw) -> Record {
        let mut grid = |cells: Cells| match cells {
            Cells::Nine(puzzle) => Puzzle::from_nine(&puzzle, &self.classic),
            Cells::Puzzle(grid) => grid,
        };
        let mut puzzle = raw.puzzle.map(&mut grid);
        let mut solution = raw.solution.map(grid);
        if let Ok(puzzle) = puzzle.as_mut() {
            match &self.rules {
                Some(rules) if puzzle.share_rules(rules) => {}
                _ => self.rules = Some(Arc::clone(puzzle.shared_rules())),
            }
            if let (Some(solution), Some(rules)) = (solution.as_mut(), &self.rules) {
                solution.share_rules(rules);
            }
        }
        Record { line: raw.line, format: raw.format, puzzle, variant: raw.variant, solution }
    }
}

impl<R: BufRead> Iterator for Records<R> {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<io::Result<Record>> {
        if self.done {
            return None;
        }
        match self.read_record() {
            Ok(Some(raw)) => Some(Ok(self.record(raw))),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Reads every record of a string.
pub fn parse_all(text: &str) -> Vec<Record> {
    Records::new(text.as_bytes()).map(|r| r.expect("reading from memory cannot fail")).collect()
}

impl std::str::FromStr for Puzzle {
    type Err = ParseError;

    /// Parses one puzzle in any form [`Records`] reads (the first record of the text), with the
    /// rules its fields give (a `# variant:` line above it adds its constraints).
    fn from_str(s: &str) -> Result<Puzzle, ParseError> {
        match Records::new(s.as_bytes()).next() {
            Some(Ok(record)) => record.puzzle_with(None).map_err(Clone::clone),
            _ => Err(ParseError { line: 1, column: None, kind: ParseErrorKind::CellCount { found: 0 } }),
        }
    }
}
