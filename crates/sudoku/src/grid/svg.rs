//! The drawing of a puzzle of any size and rules: thick lines between regions (boxes or jigsaw
//! pieces alike), windows shaded, even cells as grey squares and odd cells as grey circles,
//! diagonals dashed, killer cages as dashed outlines with their sums in a corner. The pages
//! (`crate::svg`) place it.

use std::fmt::Write;

use super::puzzle::Puzzle;
use super::rules::{Constraint, Parity};
use crate::variant::Unit;

/// Side of a cell, in SVG user units.
const CELL: f64 = 32.0;
const SHADE: &str = "#e4e4e4";
const MARK: &str = "#d0d0d0";

/// The side of a grid's drawing by [`draw`], in SVG user units.
pub(crate) fn drawn_side(grid: &Puzzle) -> f64 {
    grid.size().side() as f64 * CELL
}

/// A grid's drawing at the origin, [`drawn_side`] units on a side; with `solution`, the digits it
/// adds to the givens, in grey.
pub(crate) fn draw(svg: &mut String, grid: &Puzzle, solution: Option<&Puzzle>) {
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
