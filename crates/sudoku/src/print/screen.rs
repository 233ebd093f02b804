//! Pictures for screens: grids side by side on one document sized by them, in pixels.

use std::fmt::Write;
use std::io;

use super::draw::{draw, drawn_side};
use crate::model::Puzzle;

/// Side of a grid on screen, in pixels, whatever its size.
const GRID: f64 = 324.0;
/// Blank margin around each grid.
const MARGIN: f64 = 18.0;
/// Side of one grid with its margin.
const TILE: f64 = GRID + 2.0 * MARGIN;

/// One puzzle as a standalone SVG document.
pub fn to_svg(puzzle: &Puzzle) -> String {
    page(std::slice::from_ref(puzzle), 1)
}

/// Several puzzles on one page, `columns` grids per row.
pub fn page(puzzles: &[Puzzle], columns: usize) -> String {
    let mut svg = Vec::new();
    let written = PageWriter::new(&mut svg, puzzles.len(), columns).and_then(|mut page| {
        puzzles.iter().try_for_each(|puzzle| page.add(puzzle))?;
        page.finish()
    });
    written.expect("writing to memory cannot fail");
    String::from_utf8(svg).expect("the page is ASCII")
}

/// A page of puzzles written as it goes, so that a page of any size takes the memory of one grid:
/// the document's header when the page is made (sized for the puzzles it will hold), each grid when
/// it is added, the end by [`finish`](Self::finish). A page not finished is not a valid document.
/// Every grid has the same side on the page, whatever its size.
///
/// ```
/// use dlx_sudoku::{Puzzle, PageWriter};
/// let classic: Puzzle = ".".repeat(81).parse().unwrap();
/// let killer: Puzzle = ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1".parse().unwrap();
/// let mut page = PageWriter::new(Vec::new(), 3, 3).unwrap();
/// page.add(&classic).unwrap();
/// page.add(&killer).unwrap();
/// page.skip(); // a blank place
/// let svg = String::from_utf8(page.finish().unwrap()).unwrap();
/// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
/// ```
#[derive(Debug)]
pub struct PageWriter<W: io::Write> {
    out: W,
    columns: usize,
    capacity: usize,
    placed: usize,
    /// One grid's text, reused.
    buf: String,
}

impl<W: io::Write> PageWriter<W> {
    /// Starts a page for `capacity` puzzles, `columns` grids per row, and writes its header.
    pub fn new(mut out: W, capacity: usize, columns: usize) -> io::Result<Self> {
        let columns = columns.max(1);
        let rows = capacity.div_ceil(columns).max(1);
        let (width, height) = (TILE * columns.min(capacity.max(1)) as f64, TILE * rows as f64);
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
        )?;
        writeln!(out, r#"<rect width="{width}" height="{height}" fill="white"/>"#)?;
        Ok(PageWriter { out, columns, capacity, placed: 0, buf: String::new() })
    }

    /// Draws `puzzle` (of any size and rules) in the next place; an error when the page is full.
    pub fn add(&mut self, puzzle: &Puzzle) -> io::Result<()> {
        if self.placed == self.capacity {
            return Err(io::Error::other(format!("the page holds {} puzzles", self.capacity)));
        }
        let k = self.placed;
        let x = MARGIN + TILE * (k % self.columns) as f64;
        let y = MARGIN + TILE * (k / self.columns) as f64;
        let scale = GRID / drawn_side(puzzle);
        self.buf.clear();
        let _ = writeln!(self.buf, r#"<g transform="translate({x} {y}) scale({scale:.5})">"#);
        draw(&mut self.buf, puzzle, None);
        self.buf.push_str("</g>\n");
        self.out.write_all(self.buf.as_bytes())?;
        self.placed += 1;
        Ok(())
    }

    /// Leaves the next place blank.
    pub fn skip(&mut self) {
        self.placed = (self.placed + 1).min(self.capacity);
    }

    /// Whether every place is drawn or skipped.
    pub fn is_full(&self) -> bool {
        self.placed == self.capacity
    }

    /// Ends the document; returns the writer (flushed).
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(b"</svg>\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}
