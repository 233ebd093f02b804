//! Rows of a table: a header row names the puzzle's column (and the solution's and the
//! variant's), and every line after it is read by those columns (see the [module docs](super)).

use std::io::BufRead;

use super::{Cells, Format, ParseError, ParseErrorKind, Raw, Records, grid_record, parse_cells, sized_line};
use crate::model::Size;
use crate::model::variant::Variant;
use crate::text::parse_puzzle_record;

/// Which fields of the lines after a header row hold what.
#[derive(Clone, Copy, Debug)]
pub(super) struct Columns {
    pub(super) separator: char,
    pub(super) puzzle: usize,
    pub(super) solution: Option<usize>,
    /// A `variant` column (what `dlx solve --format csv` writes).
    pub(super) variant: Option<usize>,
}

/// The fields of a line split at `separator`, trimmed and unquoted, each with the number of
/// characters before it. A field in double quotes may hold the separator (a killer cage's cells,
/// `"... cage=3:r1c2,r1c3"`), as in RFC 4180.
fn field_spans(text: &str, separator: char) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut skipped = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        // Where the field ends: the first separator outside quotes.
        let mut quoted = false;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == separator && !quoted
            })
            .map(|(at, _)| at);
        let field = &rest[..end.unwrap_or(rest.len())];
        let lead = field.chars().take_while(|c| c.is_whitespace() || *c == '"').count();
        let at = skipped + lead;
        skipped += field.chars().count() + 1;
        match end {
            Some(end) => rest = &rest[end + separator.len_utf8()..],
            None => done = true,
        }
        Some((at, field.trim().trim_matches('"').trim()))
    })
}

/// Names of a header row's puzzle column, and of its solution column.
const PUZZLE_COLUMNS: [&str; 6] = ["puzzle", "puzzles", "quizzes", "quiz", "sudoku", "question"];
const SOLUTION_COLUMNS: [&str; 3] = ["solution", "solutions", "answer"];

/// The columns a header row names, when the line is one.
pub(super) fn header_row(text: &str) -> Option<Columns> {
    [',', ';', '\t'].into_iter().filter(|&sep| text.contains(sep)).find_map(|separator| {
        let named = |names: &[&str]| {
            field_spans(text, separator).position(|(_, f)| names.iter().any(|n| f.eq_ignore_ascii_case(n)))
        };
        Some(Columns {
            separator,
            puzzle: named(&PUZZLE_COLUMNS)?,
            solution: named(&SOLUTION_COLUMNS),
            variant: named(&["variant"]),
        })
    })
}

impl<R: BufRead> Records<R> {
    /// A line read by the columns of a header row.
    pub(super) fn read_columns(&self, start: usize, columns: Columns) -> Raw {
        let mut fields = field_spans(&self.text, columns.separator);
        let Some((offset, puzzle)) = fields.nth(columns.puzzle) else {
            let error = ParseError {
                line: start,
                column: None,
                kind: ParseErrorKind::MissingColumn(columns.puzzle + 1),
            };
            return Raw::new(start, Format::Line, Err(error));
        };
        let solution = columns.solution.and_then(|k| field_spans(&self.text, columns.separator).nth(k));
        let variant = columns
            .variant
            .and_then(|k| field_spans(&self.text, columns.separator).nth(k))
            .map(|(_, v)| v)
            .filter(|v| !v.is_empty())
            .map(|name| name.parse::<Variant>().map_err(|_| ParseErrorKind::UnknownVariant(name.to_owned())))
            .transpose();
        let variant = match variant {
            Ok(variant) => variant,
            Err(kind) => {
                return Raw::new(start, Format::Line, Err(ParseError { line: start, column: None, kind }));
            }
        };
        let (first, has_fields, other) = sized_line(puzzle);
        let forced = self.grid.size.is_some() || !self.grid.constraints.is_empty();
        if has_fields || other || (forced && first == self.grid.size.map_or(81, Size::cells)) {
            // A puzzle of the grid forms (`dlx solve --format csv` writes its rules' fields in
            // the puzzle's column): read as the line of the puzzle and its solution.
            let (cells, own) = puzzle.split_once(char::is_whitespace).unwrap_or((puzzle, ""));
            let solution = solution.map_or("", |(_, s)| s.split_whitespace().next().unwrap_or(""));
            let text = format!("{cells} {solution} {own}");
            let mut record = grid_record(parse_puzzle_record(&text, &self.grid), start, Format::Line, None);
            record.variant = variant;
            return record;
        }
        let mut record = Raw::new(start, Format::Line, parse_cells(puzzle, start, offset));
        record.variant = variant;
        if let Some((offset, solution)) = solution.filter(|(_, s)| !s.is_empty()) {
            match parse_cells(solution, start, offset) {
                Ok(solution) => record.solution = Some(Cells::Nine(solution)),
                Err(e) if record.puzzle.is_ok() => {
                    record.puzzle = Err(ParseError { kind: ParseErrorKind::Solution(Box::new(e.kind)), ..e });
                }
                Err(_) => {}
            }
        }
        record
    }
}
