//! SVG pictures of puzzles of any size and rules: thick lines between regions (boxes or jigsaw
//! pieces alike), windows shaded, even cells as grey squares and odd cells as grey circles,
//! diagonals dashed, killer cages as dashed outlines with their sums in a corner, and a caption
//! naming the rules.

use std::fmt::Write;

use super::puzzle::Grid;
use super::rules::{Constraint, Parity};
use crate::variant::Unit;

/// Side of a cell, in SVG user units.
const CELL: f64 = 32.0;
/// Blank margin around each grid, and room for its caption below.
const MARGIN: f64 = 16.0;
const CAPTION: f64 = 22.0;
const SHADE: &str = "#e4e4e4";
const MARK: &str = "#d0d0d0";

/// Puzzles on one page, `columns` grids per row, each with its caption; with a solution beside a
/// puzzle, the digits it adds are drawn in grey.
///
/// ```
/// use dlx_sudoku::{GridDefaults, parse_grid};
/// use dlx_sudoku::grid::grids_svg;
/// let line = ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1";
/// let grid = parse_grid(line, &GridDefaults::default()).unwrap();
/// let svg = grids_svg(&[(grid, None)], 1);
/// assert!(svg.starts_with("<svg") && svg.contains("stroke-dasharray"));
/// assert!(svg.ends_with("</svg>\n"));
/// ```
pub fn grids_svg(grids: &[(Grid, Option<Grid>)], columns: usize) -> String {
    let captions: Vec<String> = grids.iter().map(|(g, _)| g.rules().describe()).collect();
    sheet(grids, &captions, columns, None)
}

/// A page of paper (`Layout`'s paper, margins and places a row) of puzzles of any size, each
/// with its caption below (`3 · easy · 6x6 jigsaw`, say), scaled to fit inside the margins; with
/// a solution beside a puzzle, the digits it adds are drawn in grey (answer pages).
pub fn grids_paper_page(
    grids: &[(Grid, Option<Grid>)],
    captions: &[String],
    layout: &crate::Layout,
) -> String {
    sheet(grids, captions, layout.columns(), Some(layout))
}

/// The grids in rows of `columns`, each captioned: a document sized by them, or a page of paper
/// with the drawing scaled into its margins.
fn sheet(
    grids: &[(Grid, Option<Grid>)],
    captions: &[String],
    columns: usize,
    paper: Option<&crate::Layout>,
) -> String {
    let columns = columns.max(1).min(grids.len().max(1));
    let tile = |g: &Grid| g.size().side() as f64 * CELL + 2.0 * MARGIN;
    let width_of = grids.iter().map(|(g, _)| tile(g)).fold(0.0, f64::max);
    let height_of = width_of + CAPTION;
    let rows = grids.len().div_ceil(columns).max(1);
    let (width, height) = (width_of * columns as f64, height_of * rows as f64);
    let mut svg = String::new();
    match paper {
        Some(layout) => {
            // The drawing, in its own units, scaled into the paper's margins (in millimetres).
            let (pw, ph) = layout.paper.size_mm();
            let m = layout.margin_mm;
            let _ = writeln!(
                svg,
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pw}mm" height="{ph}mm" viewBox="0 0 {pw} {ph}">"#
            );
            let _ = writeln!(svg, r#"<rect width="{pw}" height="{ph}" fill="white"/>"#);
            let _ = writeln!(
                svg,
                r#"<svg x="{m}" y="{m}" width="{}" height="{}" viewBox="0 0 {width} {height}" preserveAspectRatio="xMidYMin meet">"#,
                pw - 2.0 * m,
                ph - 2.0 * m
            );
        }
        None => {
            let _ = writeln!(
                svg,
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
            );
            let _ = writeln!(svg, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
        }
    }
    let place = width_of - 2.0 * MARGIN;
    for (k, (grid, solution)) in grids.iter().enumerate() {
        let x = MARGIN + width_of * (k % columns) as f64;
        let y = MARGIN + height_of * (k / columns) as f64;
        // On paper, every grid fills its place, whatever its side; on screen, cells keep their
        // size. The caption, below, keeps its own.
        let full = grid.size().side() as f64 * CELL;
        let scale = if paper.is_some() { place / full } else { 1.0 };
        let _ = writeln!(svg, r#"<g transform="translate({x} {y}) scale({scale})">"#);
        body(&mut svg, grid, solution.as_ref());
        svg.push_str("</g>\n");
        let caption = captions.get(k).map_or("", String::as_str);
        let wide = full * scale;
        let size = (wide / (0.55 * caption.chars().count().max(1) as f64)).min(13.0);
        let _ = writeln!(
            svg,
            r#"<text x="{x}" y="{}" font-family="sans-serif" font-size="{size:.1}">{caption}</text>"#,
            y + wide + 16.0
        );
    }
    if paper.is_some() {
        svg.push_str("</svg>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

fn body(svg: &mut String, grid: &Grid, solution: Option<&Grid>) {
    let rules = grid.rules();
    let side = grid.size().side();
    let full = side as f64 * CELL;
    let at = |cell: usize| ((cell % side) as f64 * CELL, (cell / side) as f64 * CELL);
    // Shades first, lines over them, digits last.
    for (unit, cells) in rules.units() {
        if let Unit::Window(_) = unit {
            for &c in &cells {
                let (x, y) = at(c);
                let _ =
                    writeln!(svg, r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{SHADE}"/>"#);
            }
        }
    }
    for cell in 0..side * side {
        let (x, y) = at(cell);
        match rules.parity(cell) {
            Parity::Even => {
                let (inset, s) = (CELL * 0.12, CELL * 0.76);
                let _ = writeln!(
                    svg,
                    r#"<rect x="{}" y="{}" width="{s}" height="{s}" fill="{MARK}"/>"#,
                    x + inset,
                    y + inset
                );
            }
            Parity::Odd => {
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{MARK}"/>"#,
                    x + CELL / 2.0,
                    y + CELL / 2.0,
                    CELL * 0.4
                );
            }
            Parity::Any => {}
        }
    }
    if rules.has(Constraint::Diagonals) {
        let _ = writeln!(
            svg,
            r##"<path d="M0 0L{full} {full}M{full} 0L0 {full}" stroke="#b0b0b0" stroke-width="1.5" stroke-dasharray="6 4"/>"##
        );
    }
    // Thin lines between all cells, thick ones between regions and around the grid.
    let mut thin = String::new();
    let mut thick = String::new();
    let regions = rules.regions();
    for r in 0..side {
        for c in 0..side {
            let cell = r * side + c;
            let (x, y) = at(cell);
            if c + 1 < side {
                let path = if regions[cell] == regions[cell + 1] { &mut thin } else { &mut thick };
                let _ = write!(path, "M{} {y}v{CELL}", x + CELL);
            }
            if r + 1 < side {
                let path = if regions[cell] == regions[cell + side] { &mut thin } else { &mut thick };
                let _ = write!(path, "M{x} {}h{CELL}", y + CELL);
            }
        }
    }
    let _ = writeln!(svg, r##"<path d="{thin}" stroke="#808080" stroke-width="1" fill="none"/>"##);
    let _ = writeln!(
        svg,
        r##"<path d="{thick}" stroke="black" stroke-width="3" stroke-linecap="square" fill="none"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{full}" height="{full}" stroke="black" stroke-width="3" fill="none"/>"#
    );
    // Cages: each cell's sides that face another cage (or none), drawn a little inside the cell.
    let inset = CELL * 0.1;
    for cage in rules.cages() {
        let mut path = String::new();
        let inside = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < side
                && (c as usize) < side
                && cage.cells.binary_search(&(r as usize * side + c as usize)).is_ok()
        };
        for &cell in &cage.cells {
            let (x, y) = at(cell);
            let (r, c) = ((cell / side) as isize, (cell % side) as isize);
            let (x0, y0, x1, y1) = (x + inset, y + inset, x + CELL - inset, y + CELL - inset);
            // Each side runs to the cell's edge where the cage goes on past that corner.
            let (left, right) =
                (if inside(r, c - 1) { x } else { x0 }, if inside(r, c + 1) { x + CELL } else { x1 });
            let (top, bottom) =
                (if inside(r - 1, c) { y } else { y0 }, if inside(r + 1, c) { y + CELL } else { y1 });
            if !inside(r - 1, c) {
                let _ = write!(path, "M{left} {y0}H{right}");
            }
            if !inside(r + 1, c) {
                let _ = write!(path, "M{left} {y1}H{right}");
            }
            if !inside(r, c - 1) {
                let _ = write!(path, "M{x0} {top}V{bottom}");
            }
            if !inside(r, c + 1) {
                let _ = write!(path, "M{x1} {top}V{bottom}");
            }
        }
        let _ = writeln!(
            svg,
            r#"<path d="{path}" stroke="black" stroke-width="1" stroke-dasharray="3 2" fill="none"/>"#
        );
        let (x, y) = at(cage.cells[0]);
        let font = CELL * 0.3;
        let _ = writeln!(
            svg,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="white"/><text x="{}" y="{}" font-family="sans-serif" font-size="{font}">{}</text>"#,
            x + 1.0,
            y + 1.0,
            font * 0.62 * cage.sum.to_string().len() as f64 + 2.0,
            font + 1.0,
            x + 2.0,
            y + font,
            cage.sum
        );
    }
    let font = CELL * 0.6;
    let symbols = grid.symbols();
    for cell in 0..side * side {
        let (given, found) = (grid.get(cell), solution.map_or(0, |s| s.get(cell)));
        let (digit, colour) = if given != 0 { (given, "black") } else { (found, "#808080") };
        if digit != 0 {
            let (x, y) = at(cell);
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" font-family="sans-serif" font-size="{font}" text-anchor="middle" fill="{colour}">{}</text>"#,
                x + CELL / 2.0,
                y + CELL * 0.72,
                symbols.symbol(digit)
            );
        }
    }
}
