//! Pages of paper: puzzles in a grid of places, each captioned (number, level, rules), a legend
//! that names each mark the page shows once, and the page number; answer pages show the givens
//! in black and the digits found in grey. Every size and rule set is drawn the one way
//! ([`super::draw`]), so a file that mixes them prints on the same pages.

use std::fmt::Write;
use std::io;

use super::draw::{
    CELL, DIAGONAL_STROKE, EVEN_INSET, FONT, ODD_RADIUS, PARITY_FILL, WINDOW_FILL, draw, drawn_side,
};
use crate::model::variant::UnknownName;
use crate::model::{Constraint, Parity, Puzzle, Rules};

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
        UnknownName::find("paper", s, &Paper::ALL, Paper::name)
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

    /// The narrowest cell of a page of puzzles that [`fitting`](Self::fitting) allows, in
    /// millimetres: room for a digit written in pencil.
    pub const PUZZLE_CELL_MM: f64 = 7.0;

    /// The narrowest cell of a page of answers that [`fitting`](Self::fitting) allows, in
    /// millimetres: answers are read, not written in.
    pub const ANSWER_CELL_MM: f64 = 4.0;

    /// The layout that fills the paper with puzzles of `side` cells a side: the most of 1, 2, 4,
    /// 6, 9 or 12 a page whose cells are at least `cell_mm` wide (one a page when none is). On A4
    /// with 15 mm margins and [`PUZZLE_CELL_MM`](Self::PUZZLE_CELL_MM): twelve 4x4 or 6x6
    /// puzzles, six 8x8 to 10x10, two 12x12 or 16x16, one 25x25.
    ///
    /// ```
    /// use dlx_sudoku::{Layout, Paper};
    /// assert_eq!(Layout::fitting(Paper::A4, 15.0, 9, Layout::PUZZLE_CELL_MM).per_page, 6);
    /// assert_eq!(Layout::fitting(Paper::A4, 15.0, 16, Layout::PUZZLE_CELL_MM).per_page, 2);
    /// assert_eq!(Layout::fitting(Paper::A4, 15.0, 25, Layout::PUZZLE_CELL_MM).per_page, 1);
    /// ```
    pub fn fitting(paper: Paper, margin_mm: f64, side: usize, cell_mm: f64) -> Layout {
        let with = |per_page| Layout { paper, margin_mm, per_page };
        [12, 9, 6, 4, 2]
            .into_iter()
            .map(with)
            .find(|layout| layout.places(1, false).side / side.max(1) as f64 >= cell_mm)
            .unwrap_or(with(1))
    }

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

    /// The margin as drawn: at most a quarter of the paper's shorter side.
    fn margin(&self) -> f64 {
        let (width, height) = self.paper.size_mm();
        self.margin_mm.clamp(0.0, width.min(height) / 4.0)
    }

    /// Where the places are, above a footer of `footer_lines` lines, below a title when `titled`.
    fn places(&self, footer_lines: usize, titled: bool) -> Places {
        let (width, height) = self.paper.size_mm();
        let margin = self.margin();
        let (columns, rows) = (self.columns(), self.rows());
        let top = margin + if titled { 2.0 * CAPTION_MM } else { 0.0 };
        let bottom = height - margin - footer_height(footer_lines);
        let width = (width - 2.0 * margin) / columns as f64;
        let height = ((bottom - top) / rows as f64).max(CAPTION_MM + 1.0);
        // The grid fills its place but for the caption and a gap around it.
        let side = (width * 0.92).min(height - CAPTION_MM - 0.08 * height).max(1.0);
        Places { columns, top, width, height, side }
    }
}

/// The places of a page, in millimetres.
struct Places {
    columns: usize,
    /// The top of the first row.
    top: f64,
    width: f64,
    height: f64,
    /// A grid's side.
    side: f64,
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
/// The largest font of a caption, in millimetres.
const CAPTION_FONT: f64 = 4.2;
/// The font of the legend and the page number, in millimetres.
const LEGEND_FONT: f64 = 3.2;
/// Height of a line of the footer, in millimetres.
const LINE_MM: f64 = 5.0;
/// Side of a legend's swatch (a cell showing the mark), in millimetres.
const SWATCH_MM: f64 = 4.0;
/// Room between legend items, in millimetres.
const GAP_MM: f64 = 5.0;

/// Height of a footer of `lines` lines, with the gap above it.
fn footer_height(lines: usize) -> f64 {
    lines.max(1) as f64 * LINE_MM + 2.0
}

/// The width of `text` at `size`, in the units of `size`: an upper bound for DejaVu Sans, the
/// font the pages name first (Helvetica and Arial are narrower), by classes of characters.
fn text_width(text: &str, size: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | 't' | 'f' | 'r' | ' ' | '.' | ',' | ':' | ';' | '-' | '\'' | '·' | '!' => 0.42,
            'm' | 'w' | 'M' | 'W' | '@' | '%' => 1.0,
            'A'..='Z' => 0.8,
            _ => 0.64,
        })
        .sum();
    em * size
}

/// A mark the legend explains, drawn as in the grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Even,
    Odd,
    Window,
    Diagonal,
    Cage,
    /// Words alone: a rule no mark shows (anti-king, anti-knight).
    Words,
}

/// One item of a legend.
struct Item {
    mark: Mark,
    words: String,
}

impl Item {
    fn width(&self, font: f64) -> f64 {
        let swatch = if self.mark == Mark::Words { 0.0 } else { SWATCH_MM + 1.5 };
        swatch + text_width(&self.words, font)
    }
}

/// The legend of a page: each mark its puzzles show, named once.
fn legend(entries: &[Entry]) -> Vec<Item> {
    let rules = || entries.iter().map(|e| e.puzzle.rules());
    let marked = |parity: Parity| rules().any(|r| (0..r.size().cells()).any(|c| r.parity(c) == parity));
    // A page of 9x9 puzzles says which digits; one of other sizes, that they are all there.
    let every = if rules().all(|r| r.size().side() == 9) { "1-9" } else { "every digit" };
    let mut items = Vec::new();
    let mut item = |mark, words: String| items.push(Item { mark, words });
    if marked(Parity::Even) {
        item(Mark::Even, "a grey square holds an even digit".into());
    }
    if marked(Parity::Odd) {
        item(Mark::Odd, "a grey circle holds an odd digit".into());
    }
    if rules().any(|r| r.has(Constraint::Windows)) {
        item(Mark::Window, format!("each shaded window holds {every} too"));
    }
    if rules().any(|r| r.has(Constraint::Diagonals)) {
        item(Mark::Diagonal, format!("each diagonal holds {every} too"));
    }
    if rules().any(|r| !r.cages().is_empty()) {
        item(Mark::Cage, "a dashed cage adds up to its sum, no digit twice".into());
    }
    let mut moves: Vec<&str> = rules().flat_map(Rules::move_names).collect();
    moves.sort_unstable();
    moves.dedup();
    for what in moves {
        item(Mark::Words, format!("no equal digits {what} apart"));
    }
    items
}

/// A legend laid out in lines within the margins, beside the page number or above it.
struct Footer {
    /// Each line's items, with the left end of each.
    lines: Vec<Vec<(usize, f64)>>,
    font: f64,
    /// Whether the page number has a line of its own, below the legend.
    number_below: bool,
}

impl Footer {
    fn lay_out(items: &[Item], number: &str, left: f64, right: f64) -> Footer {
        let width = right - left;
        let beside = width - text_width(number, LEGEND_FONT) - GAP_MM;
        let widest = items.iter().map(|i| i.width(LEGEND_FONT)).fold(0.0, f64::max);
        let number_below = widest > beside;
        let room = if number_below { width } else { beside };
        // An item wider than the paper allows is set smaller (on narrow margins of small paper).
        let font = if widest > room { LEGEND_FONT * room / widest } else { LEGEND_FONT };
        let mut lines: Vec<Vec<(usize, f64)>> = Vec::new();
        let mut x = left;
        for (k, item) in items.iter().enumerate() {
            let w = item.width(font);
            if lines.is_empty() || (x > left && x + w > left + room) {
                lines.push(Vec::new());
                x = left;
            }
            lines.last_mut().expect("pushed above").push((k, x));
            x += w + GAP_MM;
        }
        Footer { lines, font, number_below }
    }

    /// Lines of the footer, the page number's included.
    fn height_lines(&self) -> usize {
        (self.lines.len() + usize::from(self.number_below)).max(1)
    }
}

/// One page of paper as an SVG document sized in millimetres: `entries` (at most
/// `layout.per_page`; an error beyond) in their places, left to right and top to bottom, a title
/// above them when given ("Answers"), a legend for the marks the page shows, and `footer` (say,
/// `page 2`) at the bottom right. Nothing is drawn in the margins: the legend takes as many
/// lines as it needs, and the places shrink to leave them room.
///
/// Texts carry a class, for style sheets and tests: `title`, `caption`, `legend`, `footer`, and
/// in the grids `given`, `found` and `cage`.
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
    let margin = layout.margin();
    let items = legend(entries);
    let foot = Footer::lay_out(&items, footer, margin, width - margin);
    let places = layout.places(foot.height_lines(), title.is_some());
    let mut svg = String::with_capacity(16 * 1024);
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(svg, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    if let Some(title) = title {
        let _ = writeln!(
            svg,
            r#"<text class="title" x="{}" y="{}" font-family="{FONT}" font-size="6" font-weight="bold" text-anchor="middle">{}</text>"#,
            width / 2.0,
            margin + CAPTION_MM,
            escape(title)
        );
    }
    let side = places.side;
    for (k, entry) in entries.iter().enumerate() {
        let x = margin + places.width * (k % places.columns) as f64 + (places.width - side) / 2.0;
        let y = places.top + places.height * (k / places.columns) as f64 + CAPTION_MM;
        // A long caption is set smaller: it stays above its grid.
        let font = CAPTION_FONT.min(side / text_width(&entry.caption, 1.0));
        let _ = writeln!(
            svg,
            r#"<text class="caption" x="{x:.2}" y="{:.2}" font-family="{FONT}" font-size="{font:.2}">{}</text>"#,
            y - 2.0,
            escape(&entry.caption)
        );
        let scale = side / drawn_side(&entry.puzzle);
        let _ = writeln!(svg, r#"<g transform="translate({x:.2} {y:.2}) scale({scale:.5})">"#);
        draw(&mut svg, &entry.puzzle, entry.solution.as_ref());
        svg.push_str("</g>\n");
    }
    let top = height - margin - footer_height(foot.height_lines()) + 2.0;
    for (line, placed) in foot.lines.iter().enumerate() {
        let baseline = top + (line + 1) as f64 * LINE_MM - 1.0;
        for &(k, x) in placed {
            let item = &items[k];
            let text_x = if item.mark == Mark::Words {
                x
            } else {
                swatch(&mut svg, item.mark, x, baseline - SWATCH_MM + 0.5);
                x + SWATCH_MM + 1.5
            };
            let _ = writeln!(
                svg,
                r#"<text class="legend" x="{text_x:.2}" y="{baseline:.2}" font-family="{FONT}" font-size="{:.2}">{}</text>"#,
                foot.font,
                escape(&item.words)
            );
        }
    }
    let _ = writeln!(
        svg,
        r#"<text class="footer" x="{:.2}" y="{:.2}" font-family="{FONT}" font-size="{LEGEND_FONT}" text-anchor="end">{}</text>"#,
        width - margin,
        top + foot.height_lines() as f64 * LINE_MM - 1.0,
        escape(footer)
    );
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// A cell of the legend, at (`x`, `y`) in millimetres, showing `mark` as the grids draw it.
fn swatch(svg: &mut String, mark: Mark, x: f64, y: f64) {
    let scale = SWATCH_MM / CELL;
    let _ = write!(svg, r#"<g class="swatch" transform="translate({x:.2} {y:.2}) scale({scale})">"#);
    let (half, s) = (CELL / 2.0, CELL * (1.0 - 2.0 * EVEN_INSET));
    match mark {
        Mark::Even => {
            let inset = CELL * EVEN_INSET;
            let _ = write!(
                svg,
                r#"<rect x="{inset}" y="{inset}" width="{s}" height="{s}" fill="{PARITY_FILL}"/>"#
            );
        }
        Mark::Odd => {
            let r = CELL * ODD_RADIUS;
            let _ = write!(svg, r#"<circle cx="{half}" cy="{half}" r="{r}" fill="{PARITY_FILL}"/>"#);
        }
        Mark::Window => {
            let _ = write!(svg, r#"<rect width="{CELL}" height="{CELL}" fill="{WINDOW_FILL}"/>"#);
        }
        Mark::Diagonal => {
            let _ = write!(
                svg,
                r#"<path d="M0 0L{CELL} {CELL}" stroke="{DIAGONAL_STROKE}" stroke-width="0.5" stroke-dasharray="2 1.2"/>"#
            );
        }
        Mark::Cage => {
            let (a, b) = (CELL * 0.1, CELL * 0.9);
            let _ = write!(
                svg,
                r#"<path d="M{a} {a}H{b}V{b}H{a}Z" stroke="black" stroke-width="0.3" stroke-dasharray="0.9 0.6" fill="none"/>"#
            );
        }
        Mark::Words => {}
    }
    let _ = writeln!(
        svg,
        r##"<rect width="{CELL}" height="{CELL}" stroke="#808080" stroke-width="0.3" fill="none"/></g>"##
    );
}

/// Text made safe inside an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
