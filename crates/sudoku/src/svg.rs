//! Printable SVG pictures of puzzles: thick box lines, centred givens, shaded even cells, and the
//! diagonals marked for the diagonal variant.

use std::fmt::Write;

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
    let columns = columns.max(1);
    let rows = puzzles.len().div_ceil(columns).max(1);
    let (width, height) = (TILE * columns.min(puzzles.len().max(1)) as f64, TILE * rows as f64);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(svg, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    for (k, (puzzle, variant)) in puzzles.iter().enumerate() {
        let x = MARGIN + TILE * (k % columns) as f64;
        let y = MARGIN + TILE * (k / columns) as f64;
        grid(&mut svg, puzzle, *variant, x, y);
    }
    svg.push_str("</svg>\n");
    svg
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
