//! Printable SVG pictures of puzzles: thick box lines, centred givens, shaded even cells, and the
//! diagonals marked for the diagonal variant.

use std::fmt::Write;
use std::io;

use crate::puzzle::Puzzle;
use crate::variant::Variant;

/// Side of a cell, in SVG user units (1/96 inch: 36 units is about 9.5 mm).
const CELL: f64 = 36.0;
/// Blank margin around each grid.
const MARGIN: f64 = 18.0;
/// Side of one grid with its margin.
const TILE: f64 = 9.0 * CELL + 2.0 * MARGIN;

/// One puzzle as a standalone SVG document.
pub fn to_svg(puzzle: &Puzzle, variant: Variant) -> String {
    page(&[(*puzzle, variant)], 1)
}

/// Several puzzles on one page, `columns` grids per row.
pub fn page(puzzles: &[(Puzzle, Variant)], columns: usize) -> String {
    let mut svg = Vec::new();
    let written = PageWriter::new(&mut svg, puzzles.len(), columns).and_then(|mut page| {
        puzzles.iter().try_for_each(|(puzzle, variant)| page.add(puzzle, *variant))?;
        page.finish()
    });
    written.expect("writing to memory cannot fail");
    String::from_utf8(svg).expect("the page is ASCII")
}

/// A page of puzzles written as it goes, so that a page of any size takes the memory of one grid:
/// the document's header when the page is made (sized for the puzzles it will hold), each grid when
/// it is added, the end by [`finish`](Self::finish). A page not finished is not a valid document.
///
/// ```
/// use dlx_sudoku::{PageWriter, Puzzle, Variant};
/// let puzzle: Puzzle = ".".repeat(81).parse().unwrap();
/// let mut page = PageWriter::new(Vec::new(), 2, 2).unwrap();
/// page.add(&puzzle, Variant::Classic).unwrap();
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

    /// Draws `puzzle` in the next place; an error when the page is full.
    pub fn add(&mut self, puzzle: &Puzzle, variant: Variant) -> io::Result<()> {
        if self.placed == self.capacity {
            return Err(io::Error::other(format!("the page holds {} puzzles", self.capacity)));
        }
        let k = self.placed;
        let x = MARGIN + TILE * (k % self.columns) as f64;
        let y = MARGIN + TILE * (k / self.columns) as f64;
        self.buf.clear();
        grid(&mut self.buf, puzzle, variant, x, y);
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

fn grid(svg: &mut String, puzzle: &Puzzle, variant: Variant, x: f64, y: f64) {
    let side = 9.0 * CELL;
    let _ = writeln!(svg, r#"<g transform="translate({x} {y})">"#);
    for cell in (0..81).filter(|&c| puzzle.is_even_cell(c)) {
        let (cx, cy) = ((cell % 9) as f64 * CELL, (cell / 9) as f64 * CELL);
        let _ = writeln!(svg, r##"<rect x="{cx}" y="{cy}" width="{CELL}" height="{CELL}" fill="#d0d0d0"/>"##);
    }
    if variant == Variant::Diagonal {
        let _ = writeln!(
            svg,
            r##"<path d="M0 0L{side} {side}M{side} 0L0 {side}" stroke="#b0b0b0" stroke-width="1.5" stroke-dasharray="6 4"/>"##
        );
    }
    for k in 0..=9 {
        let at = k as f64 * CELL;
        let width = if k % 3 == 0 { 3.0 } else { 1.0 };
        let _ = writeln!(
            svg,
            r#"<path d="M{at} 0V{side}M0 {at}H{side}" stroke="black" stroke-width="{width}" stroke-linecap="square"/>"#
        );
    }
    for cell in (0..81).filter(|&c| puzzle.get(c) != 0) {
        // The baseline sits a third of the font size below the centre: digits look centred in
        // every renderer, without relying on `dominant-baseline`.
        let (cx, cy) = ((cell % 9) as f64 * CELL + CELL / 2.0, (cell / 9) as f64 * CELL + CELL / 2.0 + 8.5);
        let _ = writeln!(
            svg,
            r#"<text x="{cx}" y="{cy}" font-family="Helvetica, Arial, sans-serif" font-size="25" text-anchor="middle">{}</text>"#,
            puzzle.get(cell)
        );
    }
    svg.push_str("</g>\n");
}
