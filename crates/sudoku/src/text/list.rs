//! The bracketed list form, `[[8, 4, 0, ...], ...]`, read line by line: 0 empty, -2 an empty
//! even cell, brackets that may span lines.

use super::{Collector, ParseError, ParseErrorKind};

/// The state of reading a list, line by line.
pub(super) struct ListScan {
    pub(super) cells: Collector,
    pub(super) depth: i32,
    pub(super) error: Option<ParseError>,
}

impl ListScan {
    pub(super) fn new() -> Self {
        ListScan { cells: Collector::new(), depth: 0, error: None }
    }

    /// Reads one line of a list.
    pub(super) fn scan(&mut self, text: &str, line: usize) {
        let mut number = String::new();
        let mut number_column = 0;
        // A space at the end flushes the last number of the line.
        for (column, c) in text.chars().chain(std::iter::once(' ')).enumerate() {
            if c.is_ascii_digit() || (c == '-' && number.is_empty()) {
                if number.is_empty() {
                    number_column = column + 1;
                }
                number.push(c);
                continue;
            }
            if !number.is_empty() {
                match number.as_str() {
                    "-2" => self.cells.push(0, true),
                    n if n.len() == 1 && n != "-" => self.cells.push(n.as_bytes()[0] - b'0', false),
                    _ => {
                        self.error.get_or_insert(ParseError {
                            line,
                            column: Some(number_column),
                            kind: ParseErrorKind::BadValue(number.clone()),
                        });
                    }
                }
                number.clear();
            }
            match c {
                '[' => self.depth += 1,
                ']' => self.depth -= 1,
                ',' => {}
                c if c.is_whitespace() => {}
                c => {
                    self.error.get_or_insert(ParseError {
                        line,
                        column: Some(column + 1),
                        kind: ParseErrorKind::BadChar(c),
                    });
                }
            }
        }
    }
}

/// Whether a line is a whole, well-formed record on its own: an 81-cell line, or a list opened
/// and closed on it.
pub(super) fn is_complete_record(text: &str) -> bool {
    if text.trim_start().starts_with('[') {
        let mut list = ListScan::new();
        list.scan(text, 0);
        list.depth == 0 && list.error.is_none() && list.cells.count == 81
    } else {
        let mut cells = Collector::new();
        cells.add_line(text, 0);
        cells.error.is_none() && cells.count == 81
    }
}
