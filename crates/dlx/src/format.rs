//! Knuth's `.dlx` text format, read and written.
//!
//! ```text
//! | comment lines start with a bar
//! A B C | x y        <- items: primary, then (after a lone `|`) secondary
//! A x                <- each further line is one option
//! B C y
//! ```
//!
//! Names are non-blank and contain neither `|` nor `:`. In an option, a secondary item may carry a
//! color, `x:red` (Knuth's XCC problems, as DLX2 reads them; colors are names). Blank lines are
//! ignored, and so is a byte-order mark at the start. [`Problem::parse_dlx_bytes`] reads text that
//! may not be UTF-8: bytes that are not UTF-8 are ignored in comment lines and an error (with
//! their line and column) anywhere else.
//!
//! In the item line, a primary item may carry bounds on its number of covers, as DLX3 reads
//! them (Knuth's MCC problems): `a:b|name` asks for at least `a` and at most `b` covers, `b|name`
//! for exactly `b`. The writer writes them so (`b|name` when `a == b`).
//!
//! An option with no primary item is an error for [`Problem::parse_dlx`]; [`Problem::read_dlx`]
//! skips it, as Knuth's programs do, and returns its line.

use std::fmt;
use std::io;

use crate::excerpt::Excerpt;
use crate::index::ItemId;
use crate::problem::{BuildError, Problem, ProblemBuilder};

/// A malformed `.dlx` text: where (1-based line and column, in characters) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong in a `.dlx` text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Nothing but comments and blank lines: the item line is missing.
    #[error("no item line: the first line that is not a comment must list the items")]
    NoItems,
    /// The item line starts with `|`: no primary item.
    #[error("no primary item before `|` in the item line")]
    NoPrimaryItems,
    /// The item line has more than one `|`.
    #[error("a second `|` in the item line")]
    SecondBar,
    /// `name:color` in the item line (colors go in options, on secondary items).
    #[error("`{}`: a color (`item:color`) belongs in an option, on a secondary item", Excerpt(.0))]
    Color(String),
    /// Bounds on an item's covers (`a:b|name`, `b|name`) that cannot be read or cannot hold.
    #[error("`{}`: {reason}", Excerpt(token))]
    Bounds {
        /// The item as written, bounds included.
        token: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A color on a primary item.
    #[error("`{}`: only secondary items take colors", Excerpt(.0))]
    ColoredPrimary(String),
    /// A color that is empty or contains `:` or `|`.
    #[error("`{}`: a color is a name without `:` or `|`", Excerpt(.0))]
    InvalidColor(String),
    /// A name that contains `|` (a lone `|` is only allowed in the item line).
    #[error("`{}`: names cannot contain `|`", Excerpt(.0))]
    Bar(String),
    /// The item line names an item twice.
    #[error("item `{}` is declared twice", Excerpt(.0))]
    DuplicateItem(String),
    /// An option names an item missing from the item line.
    #[error("unknown item `{}`", Excerpt(.0))]
    UnknownItem(String),
    /// An option names an item twice.
    #[error("item `{}` appears twice in this option", Excerpt(.0))]
    RepeatedItem(String),
    /// An option made only of secondary items.
    #[error("this option has no primary item")]
    NoPrimaryItem,
    /// More nodes than a `u32` can index.
    #[error("the problem is too large: more than {0} nodes")]
    TooLarge(usize),
    /// A name the builder refuses for another reason (one that starts with U+FEFF).
    #[error("invalid item name `{}`: {reason}", Excerpt(name))]
    InvalidName {
        /// The name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An option line that repeats the item line (given), bars and all: most likely a second
    /// problem after the first, which one file cannot hold.
    #[error("this line repeats the item line of line {0}: a second problem? a file holds one")]
    ItemsAgain(usize),
    /// An option's cost (`|n`, Knuth's DLX5) that is not a whole number, or costs whose sum
    /// passes `u64::MAX`.
    #[error("`{}`: a cost is `|` and a whole number, the costs of an option at most 2^64 - 1 in all", Excerpt(.0))]
    Cost(String),
    /// A byte that is not part of valid UTF-8, outside a comment.
    #[error("byte 0x{0:02x} is not valid UTF-8")]
    NotUtf8(u8),
}

/// The names on a line with their 1-based character columns.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut column = 0;
    let mut chars = line.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some(&(_, c)) = chars.peek() {
            if !c.is_whitespace() {
                break;
            }
            chars.next();
            column += 1;
        }
        let (start, _) = *chars.peek()?;
        let first_column = column + 1;
        let mut end = line.len();
        while let Some(&(i, c)) = chars.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            chars.next();
            column += 1;
        }
        Some((first_column, &line[start..end]))
    })
}

/// The UTF-8 byte-order mark, skipped at the start of a text.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// A line that is not UTF-8: its first bad byte and that byte's column in characters.
struct NotUtf8 {
    byte: u8,
    column: usize,
}

/// The lines of `bytes` as `str::lines` splits them, numbered from 1; a line that is not UTF-8
/// is returned as its first bad byte, unless it is a comment.
fn text_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, Result<&str, NotUtf8>)> + '_ {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut pieces = if bytes.is_empty() { None } else { Some(body.split(|&b| b == b'\n')) };
    let mut number = 0;
    std::iter::from_fn(move || {
        let piece = pieces.as_mut()?.next()?;
        let piece = piece.strip_suffix(b"\r").unwrap_or(piece);
        number += 1;
        let text = match std::str::from_utf8(piece) {
            Ok(text) => Ok(text),
            Err(e) => {
                let valid = std::str::from_utf8(&piece[..e.valid_up_to()]).unwrap_or_default();
                if is_comment_or_blank(valid) && !valid.trim_start().is_empty() {
                    Ok("|")
                } else {
                    Err(NotUtf8 { byte: piece[e.valid_up_to()], column: valid.chars().count() + 1 })
                }
            }
        };
        Some((number, text))
    })
}

fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('|')
}

/// The bounds written before an item's `|` (`a:b` or `b`), or what is wrong with them.
fn parse_bounds(bounds: &str, secondary: bool) -> Result<std::ops::RangeInclusive<u32>, &'static str> {
    if secondary {
        return Err("only primary items take bounds (`a:b|name`)");
    }
    let number = |text: &str| {
        if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
            Err("bounds are `a:b|name` or `b|name`, with `a` and `b` whole numbers")
        } else {
            text.parse::<u32>().map_err(|_| "a bound exceeds 4294967295, the largest the engine takes")
        }
    };
    let (lower, upper) = match bounds.split_once(':') {
        Some((lower, upper)) => (number(lower)?, number(upper)?),
        None => {
            let upper = number(bounds)?;
            (upper, upper)
        }
    };
    if lower > upper {
        Err("the lower bound exceeds the upper one")
    } else if upper == 0 {
        Err("the upper bound is 0, so no option could cover the item")
    } else {
        Ok(lower..=upper)
    }
}

fn check_token(name: &str) -> Result<(), ParseErrorKind> {
    if name.contains(':') {
        Err(ParseErrorKind::Color(name.to_owned()))
    } else if name.contains('|') {
        Err(ParseErrorKind::Bar(name.to_owned()))
    } else {
        Ok(())
    }
}

impl Problem {
    /// Reads a problem in Knuth's `.dlx` format.
    ///
    /// ```
    /// use dlx_engine::Problem;
    /// let p = Problem::parse_dlx("| two items\nA B | x\nA x\nB\nA B\n").unwrap();
    /// assert_eq!((p.primary_count(), p.secondary_count(), p.option_count()), (2, 1, 3));
    /// let err = Problem::parse_dlx("A B\nA C\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 2, column 3: unknown item `C`");
    /// ```
    pub fn parse_dlx(text: &str) -> Result<Problem, ParseError> {
        Problem::parse_dlx_bytes(text.as_bytes())
    }

    /// Reads a problem in Knuth's `.dlx` format from bytes that may not all be UTF-8 (a file as
    /// it is on disk): comment lines may hold any bytes; elsewhere a byte that is not UTF-8 is
    /// an error at its line and column.
    ///
    /// ```
    /// use dlx_engine::{ParseErrorKind, Problem};
    /// let p = Problem::parse_dlx_bytes(b"| caf\xe9\nA B\nA\nB\n").unwrap();
    /// assert_eq!(p.option_count(), 2);
    /// let err = Problem::parse_dlx_bytes(b"A B\nA \xff\n").unwrap_err();
    /// assert_eq!((err.line, err.column, err.kind), (2, 3, ParseErrorKind::NotUtf8(0xff)));
    /// ```
    pub fn parse_dlx_bytes(bytes: &[u8]) -> Result<Problem, ParseError> {
        read(bytes, None)
    }

    /// Reads a `.dlx` file as Knuth's programs do: an option with no primary item (which no
    /// search could choose) is skipped, and its line is returned so that the caller can say so;
    /// everything else as [`parse_dlx_bytes`](Self::parse_dlx_bytes), which refuses such an
    /// option instead.
    ///
    /// ```
    /// use dlx_engine::Problem;
    /// let read = Problem::read_dlx(b"A B | x\nA x\nx\nB\n").unwrap();
    /// assert_eq!((read.problem.option_count(), read.skipped), (2, vec![3]));
    /// ```
    pub fn read_dlx(bytes: &[u8]) -> Result<DlxRead, ParseError> {
        let mut notes = Notes::default();
        let problem = read(bytes, Some(&mut notes))?;
        Ok(DlxRead { problem, skipped: notes.skipped, items_again: notes.items_again })
    }
}

/// A problem read by [`Problem::read_dlx`], and the lines it skipped.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DlxRead {
    /// The problem.
    pub problem: Problem,
    /// The lines (from 1) of options that were skipped because they have no primary item.
    pub skipped: Vec<usize>,
    /// The lines (from 1) of options that repeat the item line, names and bars alike: most
    /// likely a second problem written after the first, which the whole file does not mean.
    pub items_again: Vec<usize>,
}

/// What [`Problem::read_dlx`] notes on the way.
#[derive(Default)]
struct Notes {
    skipped: Vec<usize>,
    items_again: Vec<usize>,
}

/// Reads `.dlx` bytes; options without a primary item are skipped and their lines noted into
/// `skipped` when it is given, and an error otherwise.
fn read(bytes: &[u8], mut notes: Option<&mut Notes>) -> Result<Problem, ParseError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let err = |line, column, kind| ParseError { line, column, kind };
    let mut lines = text_lines(bytes).filter_map(|(line, text)| match text {
        Ok(text) if is_comment_or_blank(text) => None,
        Ok(text) => Some(Ok((line, text))),
        Err(bad) => Some(Err(err(line, bad.column, ParseErrorKind::NotUtf8(bad.byte)))),
    });
    let Some((item_line, items)) = lines.next().transpose()? else {
        return Err(err(text_lines(bytes).count().max(1), 1, ParseErrorKind::NoItems));
    };
    let mut builder = ProblemBuilder::new();
    let mut secondary = false;
    for (column, name) in tokens(items) {
        if name == "|" {
            if secondary {
                return Err(err(item_line, column, ParseErrorKind::SecondBar));
            }
            if builder.item_count() == 0 {
                return Err(err(item_line, column, ParseErrorKind::NoPrimaryItems));
            }
            secondary = true;
            continue;
        }
        let token = name;
        let (bounds, name) = match token.split_once('|') {
            // Bounds are digits and colons; anything else is a name with a bar.
            Some((bounds, name))
                if !bounds.is_empty() && bounds.bytes().all(|c| c.is_ascii_digit() || c == b':') =>
            {
                match parse_bounds(bounds, secondary) {
                    Ok(bounds) => (Some(bounds), name),
                    Err(reason) => {
                        let kind = ParseErrorKind::Bounds { token: token.to_owned(), reason };
                        return Err(err(item_line, column, kind));
                    }
                }
            }
            _ => (None, token),
        };
        // The name's own column, after any bounds and their bar.
        let name_column = column + token[..token.len() - name.len()].chars().count();
        check_token(name).map_err(|kind| err(item_line, name_column, kind))?;
        let declared = match (secondary, bounds) {
            (true, _) => builder.secondary(name),
            (false, None) => builder.primary(name),
            (false, Some(bounds)) => builder.primary_with_bounds(name, bounds),
        };
        declared.map_err(|e| err(item_line, column, from_build(e)))?;
    }

    let mut ids: Vec<(ItemId, Option<&str>)> = Vec::new();
    // The line that last named each item: a repeated item is found in constant time, so an option
    // of a million items is read in linear time.
    let mut named_on = vec![0usize; builder.item_count()];
    for next in lines {
        let (line, text) = next?;
        if tokens(text).map(|(_, t)| t).eq(tokens(items).map(|(_, t)| t)) {
            if text.contains('|') {
                // With a bar (or bounds) it is no option at all: say what it most likely is.
                return Err(err(line, 1, ParseErrorKind::ItemsAgain(item_line)));
            }
            if let Some(notes) = notes.as_deref_mut() {
                notes.items_again.push(line);
            }
        }
        ids.clear();
        let mut cost = 0u64;
        for (column, token) in tokens(text) {
            // A cost (DLX5): `|n`, several summed (a lone `|` is a misplaced bar, said below).
            if let Some(digits) = token.strip_prefix('|')
                && !digits.is_empty()
            {
                let n = digits.parse::<u64>().ok().filter(|_| digits.bytes().all(|b| b.is_ascii_digit()));
                cost = n
                    .and_then(|n| cost.checked_add(n))
                    .ok_or_else(|| err(line, column, ParseErrorKind::Cost(token.to_owned())))?;
                continue;
            }
            let (name, color) = match token.split_once(':') {
                Some((name, color)) => (name, Some(color)),
                None => (token, None),
            };
            check_token(name).map_err(|kind| err(line, column, kind))?;
            let id = builder
                .item(name)
                .ok_or_else(|| err(line, column, ParseErrorKind::UnknownItem(name.to_owned())))?;
            if std::mem::replace(&mut named_on[id.index()], line) == line {
                return Err(err(line, column, ParseErrorKind::RepeatedItem(name.to_owned())));
            }
            if let Some(color) = color {
                if builder.is_primary(id) {
                    return Err(err(line, column, ParseErrorKind::ColoredPrimary(token.to_owned())));
                }
                if color.is_empty() || color.contains([':', '|']) {
                    return Err(err(line, column, ParseErrorKind::InvalidColor(token.to_owned())));
                }
            }
            ids.push((id, color));
        }
        if let Some(notes) = notes.as_deref_mut()
            && !ids.iter().any(|&(id, _)| builder.is_primary(id))
        {
            notes.skipped.push(line);
            continue;
        }
        let column = tokens(text).next().map_or(1, |(c, _)| c);
        let option =
            builder.option_with_colors(ids.iter().copied()).map_err(|e| err(line, column, from_build(e)))?;
        builder.set_cost(option, cost).map_err(|e| err(line, column, from_build(e)))?;
    }
    Ok(builder.build())
}

impl Problem {
    /// Writes the problem in Knuth's `.dlx` format: the item line, then one line per option.
    pub fn write_dlx(&self, mut out: impl io::Write) -> io::Result<()> {
        write!(out, "{}", DlxText(self))
    }

    /// The problem in Knuth's `.dlx` format, as a string.
    pub fn to_dlx(&self) -> String {
        DlxText(self).to_string()
    }
}

/// Displays a problem in `.dlx` format.
struct DlxText<'a>(&'a Problem);

impl fmt::Display for DlxText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        for (k, name) in p.layout_names().enumerate() {
            if k == p.primary_count() {
                f.write_str(" |")?;
            }
            if k > 0 {
                f.write_str(" ")?;
            }
            match p.bounds.get(k + 1) {
                Some(&(lower, upper)) if lower == upper && upper != 1 => write!(f, "{upper}|")?,
                Some(&(lower, upper)) if lower != upper => write!(f, "{lower}:{upper}|")?,
                _ => {}
            }
            f.write_str(name)?;
        }
        f.write_str("\n")?;
        for option in p.options() {
            match p.option_cost(option) {
                0 => writeln!(f, "{}", p.display_option(option))?,
                cost => writeln!(f, "{} |{cost}", p.display_option(option))?,
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Problem {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Problem::parse_dlx(s)
    }
}

fn from_build(e: BuildError) -> ParseErrorKind {
    match e {
        BuildError::DuplicateItem { name } => ParseErrorKind::DuplicateItem(name),
        BuildError::UnknownItem { name, .. } => ParseErrorKind::UnknownItem(name),
        BuildError::RepeatedItem { name, .. } => ParseErrorKind::RepeatedItem(name),
        BuildError::NoPrimaryItem { .. } | BuildError::EmptyOption { .. } => ParseErrorKind::NoPrimaryItem,
        BuildError::TooLarge { limit } => ParseErrorKind::TooLarge(limit),
        BuildError::InvalidName { name, reason } => ParseErrorKind::InvalidName { name, reason },
        BuildError::ColoredPrimary { name, .. } => ParseErrorKind::ColoredPrimary(name),
        BuildError::InvalidColor { color, .. } => ParseErrorKind::InvalidColor(color),
        BuildError::InvalidBounds { name, reason, .. } => ParseErrorKind::Bounds { token: name, reason },
        // The reader gives costs only to the option it has just added.
        BuildError::UnknownOption { .. } => unreachable!("a cost for an option not added"),
    }
}
