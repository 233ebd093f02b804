//! Printable SVG pictures of puzzles: thick box lines, centred givens, shaded even cells, and the
//! diagonals marked for the diagonal variant.
//!
//! Two kinds of document: [`PageWriter`] draws any number of grids on one page sized by them (for
//! screens), and [`print_page`] lays out a page of paper ([`Paper`], in millimetres, with
//! margins): puzzles in a grid of places, each captioned (number, level, variant), a legend for
//! the marks the page uses, and a footer; answer pages show the givens in black and the digits
//! found in grey.

use std::fmt::Write;
use std::io;

use crate::grid::{Constraint, Parity, Puzzle, Rules};
use crate::puzzle::Puzzle as NinePuzzle;
use crate::variant::{UnknownName, Variant};

/// Side of a cell, in SVG user units (1/96 inch: 36 units is about 9.5 mm).
const CELL: f64 = 36.0;
/// Blank margin around each grid.
const MARGIN: f64 = 18.0;
/// The shade of an even cell, and of a windoku window (lighter, for they are larger).
const EVEN_FILL: &str = "#d0d0d0";
const WINDOW_FILL: &str = "#e4e4e4";
/// Side of one grid with its margin.
const TILE: f64 = 9.0 * CELL + 2.0 * MARGIN;

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
        self.buf.clear();
        let _ = writeln!(self.buf, r#"<g transform="translate({x} {y})">"#);
        body(&mut self.buf, puzzle, None);
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

/// A puzzle's drawing at the origin, 9 * [`CELL`] units on a side, whatever its size; with
/// `solution`, the digits it adds to the givens, in grey. A 9x9 variant's puzzle is drawn by
/// [`grid_body`]; any other by the general drawing, scaled to the same side.
fn body(svg: &mut String, puzzle: &Puzzle, solution: Option<&Puzzle>) {
    if let (Some(variant), Some(nine)) = (puzzle.rules().variant(), puzzle.to_nine()) {
        let solution = solution.and_then(Puzzle::to_nine);
        grid_body(svg, &nine, variant, solution.as_ref());
        return;
    }
    let scale = 9.0 * CELL / crate::grid::drawn_side(puzzle);
    let _ = writeln!(svg, r#"<g transform="scale({scale:.5})">"#);
    crate::grid::draw(svg, puzzle, solution);
    svg.push_str("</g>\n");
}

/// A grid's drawing at the origin, 9 * [`CELL`] units on a side; with `solution`, the digits it
/// adds to the givens, in grey.
fn grid_body(svg: &mut String, puzzle: &NinePuzzle, variant: Variant, solution: Option<&NinePuzzle>) {
    let side = 9.0 * CELL;
    for cell in (0..81).filter(|&c| puzzle.is_even_cell(c)) {
        let (cx, cy) = ((cell % 9) as f64 * CELL, (cell / 9) as f64 * CELL);
        let _ =
            writeln!(svg, r#"<rect x="{cx}" y="{cy}" width="{CELL}" height="{CELL}" fill="{EVEN_FILL}"/>"#);
    }
    if variant == Variant::Windoku {
        for w in 0..4 {
            let (wx, wy) = ((1 + w % 2 * 4) as f64 * CELL, (1 + w / 2 * 4) as f64 * CELL);
            let side = 3.0 * CELL;
            let _ = writeln!(
                svg,
                r#"<rect x="{wx}" y="{wy}" width="{side}" height="{side}" fill="{WINDOW_FILL}"/>"#
            );
        }
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
    for cell in 0..81 {
        let (digit, fill) = match (puzzle.get(cell), solution) {
            (0, Some(solution)) if solution.get(cell) != 0 => (solution.get(cell), r##" fill="#707070""##),
            (0, _) => continue,
            (given, _) => (given, ""),
        };
        // The baseline sits a third of the font size below the centre: digits look centred in
        // every renderer, without relying on `dominant-baseline`.
        let (cx, cy) = ((cell % 9) as f64 * CELL + CELL / 2.0, (cell / 9) as f64 * CELL + CELL / 2.0 + 8.5);
        let _ = writeln!(
            svg,
            r#"<text x="{cx}" y="{cy}" font-family="Helvetica, Arial, sans-serif" font-size="25" text-anchor="middle"{fill}>{digit}</text>"#,
        );
    }
}

/// A size of paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 inches (215.9 x 279.4 mm).
    Letter,
}

impl Paper {
    /// Every size.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// The size in words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Paper::A4 => "ISO A4, 210 x 297 mm",
            Paper::Letter => "US Letter, 8.5 x 11 inches",
        }
    }

    /// Width and height in millimetres, upright.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
}

/// The paper size with this name, as [`Paper::name`] spells it.
impl std::str::FromStr for Paper {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Paper::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| UnknownName::new("paper", s))
    }
}

/// How printed pages are laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The paper.
    pub paper: Paper,
    /// The blank margin on each side, in millimetres.
    pub margin_mm: f64,
    /// Puzzles per page (at least 1), placed in rows of [`columns`](Self::columns).
    pub per_page: usize,
}

impl Layout {
    /// A4, 15 mm margins, six puzzles a page.
    pub const DEFAULT: Layout = Layout { paper: Paper::A4, margin_mm: 15.0, per_page: 6 };

    /// Places per row: about as many as keep the places square on the paper (on A4: one column
    /// for up to three puzzles, two for four to eight, three for nine to twelve).
    pub fn columns(&self) -> usize {
        let (width, height) = self.paper.size_mm();
        let n = self.per_page.max(1) as f64;
        let target = (n * width / height).sqrt();
        let off = |c: usize| (c as f64 - target).abs();
        (1..=self.per_page.max(1)).min_by(|&a, &b| off(a).total_cmp(&off(b))).unwrap_or(1)
    }

    /// Rows of places.
    pub fn rows(&self) -> usize {
        self.per_page.max(1).div_ceil(self.columns())
    }
}

/// One puzzle on a printed page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle, of any size and rules (drawn with its marks, windows, diagonals, regions and
    /// cages).
    pub puzzle: Puzzle,
    /// The caption above the grid (say, `7 · hard · diagonal`).
    pub caption: String,
    /// On answer pages: the solution, whose digits beyond the givens are drawn in grey.
    pub solution: Option<Puzzle>,
}

/// Height of a caption line, in millimetres.
const CAPTION_MM: f64 = 7.0;
/// Height of the footer (legend, page number), in millimetres.
const FOOTER_MM: f64 = 10.0;

/// One page of paper as an SVG document sized in millimetres: `entries` (at most
/// `layout.per_page`; an error beyond) in their places, left to right and top to bottom, a title
/// above them when given ("Answers"), a legend for the even cells and diagonals the page shows,
/// and `footer` (say, `page 2`) at the bottom right.
///
/// ```
/// use dlx_sudoku::{Entry, Puzzle, Layout, print_page};
/// let puzzle: Puzzle = format!("{} variant=diagonal", ".".repeat(81)).parse().unwrap();
/// let entry = Entry { puzzle, caption: "1".into(), solution: None };
/// let svg = print_page(&Layout::DEFAULT, &[entry], None, "page 1").unwrap();
/// assert!(svg.contains(r#"width="210mm" height="297mm""#));
/// assert!(svg.contains("each diagonal holds 1-9"));
/// ```
pub fn print_page(
    layout: &Layout,
    entries: &[Entry],
    title: Option<&str>,
    footer: &str,
) -> io::Result<String> {
    if entries.len() > layout.per_page.max(1) {
        return Err(io::Error::other(format!("a page holds {} puzzles", layout.per_page.max(1))));
    }
    let (width, height) = layout.paper.size_mm();
    let margin = layout.margin_mm.clamp(0.0, width.min(height) / 4.0);
    let (columns, rows) = (layout.columns(), layout.rows());
    let top = margin + if title.is_some() { 2.0 * CAPTION_MM } else { 0.0 };
    let place_w = (width - 2.0 * margin) / columns as f64;
    let place_h = (height - top - margin - FOOTER_MM) / rows as f64;
    // The grid fills its place but for the caption and a gap around it.
    let side = (place_w * 0.92).min(place_h - CAPTION_MM - 0.08 * place_h).max(10.0);
    let scale = side / (9.0 * CELL);
    let font = |size: f64| format!(r#"font-family="Helvetica, Arial, sans-serif" font-size="{size}""#);
    let mut svg = String::with_capacity(16 * 1024);
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(svg, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    if let Some(title) = title {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" {} font-weight="bold" text-anchor="middle">{}</text>"#,
            width / 2.0,
            margin + CAPTION_MM,
            font(6.0),
            escape(title)
        );
    }
    for (k, entry) in entries.iter().enumerate() {
        let x = margin + place_w * (k % columns) as f64 + (place_w - side) / 2.0;
        let y = top + place_h * (k / columns) as f64 + CAPTION_MM;
        let _ = writeln!(
            svg,
            r#"<text x="{x:.2}" y="{:.2}" {}>{}</text>"#,
            y - 2.0,
            font(4.2),
            escape(&entry.caption)
        );
        let _ = writeln!(svg, r#"<g transform="translate({x:.2} {y:.2}) scale({scale:.5})">"#);
        body(&mut svg, &entry.puzzle, entry.solution.as_ref());
        svg.push_str("</g>\n");
    }
    // The legend names only the marks this page shows.
    let baseline = height - margin - 2.0;
    let mut x = margin;
    // A shaded square and its words, at `x`.
    let swatch = |svg: &mut String, x: &mut f64, fill: &str, words: &str| {
        let _ = writeln!(
            svg,
            r#"<rect x="{x:.2}" y="{:.2}" width="4" height="4" fill="{fill}" stroke="black" stroke-width="0.2"/>"#,
            baseline - 3.5
        );
        let _ = writeln!(svg, r#"<text x="{:.2}" y="{baseline:.2}" {}>{words}</text>"#, *x + 6.0, font(3.5));
        *x += 62.0;
    };
    let rules = || entries.iter().map(|e| e.puzzle.rules());
    let marked = |parity: Parity| rules().any(|r| (0..r.size().cells()).any(|c| r.parity(c) == parity));
    if marked(Parity::Even) {
        swatch(&mut svg, &mut x, EVEN_FILL, "shaded cells hold even digits");
    }
    if marked(Parity::Odd) {
        swatch(&mut svg, &mut x, EVEN_FILL, "circled cells hold odd digits");
    }
    // A page of 9x9 puzzles says which digits; one of other sizes, that they are all there.
    let every = if rules().all(|r| r.size().side() == 9) { "1-9" } else { "every digit" };
    if rules().any(|r| r.has(Constraint::Windows)) {
        swatch(&mut svg, &mut x, WINDOW_FILL, &format!("each shaded window holds {every} too"));
    }
    let mut moves: Vec<&str> = rules().flat_map(Rules::move_names).collect();
    moves.sort_unstable();
    moves.dedup();
    for what in moves {
        let _ = writeln!(
            svg,
            r#"<text x="{x:.2}" y="{baseline:.2}" {}>no equal digits {what} apart</text>"#,
            font(3.5)
        );
        x += 62.0;
    }
    if rules().any(|r| !r.cages().is_empty()) {
        let _ = writeln!(
            svg,
            r#"<text x="{x:.2}" y="{baseline:.2}" {}>a dashed cage adds up to its sum, no digit twice</text>"#,
            font(3.5)
        );
        x += 62.0;
    }
    if rules().any(|r| r.has(Constraint::Diagonals)) {
        let _ = writeln!(
            svg,
            r##"<path d="M{x:.2} {:.2}l5 -4" stroke="#b0b0b0" stroke-width="0.5" stroke-dasharray="1.2 0.8"/>"##,
            baseline
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.2}" y="{baseline:.2}" {}>each diagonal holds {every} too</text>"#,
            x + 7.0,
            font(3.5)
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.2}" y="{baseline:.2}" {} text-anchor="end">{}</text>"#,
        width - margin,
        font(3.5),
        escape(footer)
    );
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// Text made safe inside an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
