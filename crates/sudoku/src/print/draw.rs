//! The one drawing of a puzzle, whatever its size and rules: thick lines between regions (boxes
//! and jigsaw pieces alike), windows shaded whole, even cells as grey squares inside the cell and
//! odd cells as grey circles, diagonals dashed, killer cages as dashed outlines with their sums
//! in a corner, givens in black and the digits of an answer in grey. The pages place it
//! ([`super::screen`], [`super::paper`]); the legend draws its marks with the same constants.

use std::fmt::Write;

use crate::model::variant::Unit;
use crate::model::{Constraint, Parity, Puzzle};

/// Side of a cell, in the drawing's units.
pub(super) const CELL: f64 = 10.0;
/// The fonts of every text: DejaVu Sans, which the PDF and PNG printers carry, first.
pub(super) const FONT: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
/// A windoku window: each of its cells shaded whole, pale.
pub(super) const WINDOW_FILL: &str = "#e6e6e6";
/// An even cell's square and an odd cell's circle: darker than a window, and inside the cell.
pub(super) const PARITY_FILL: &str = "#bdbdbd";
/// The digits an answer adds to the givens.
pub(super) const FOUND_FILL: &str = "#707070";
/// The dashes of a diagonal.
pub(super) const DIAGONAL_STROKE: &str = "#9a9a9a";
/// An even cell's square: this far inside the cell, on each side, in cells.
pub(super) const EVEN_INSET: f64 = 0.14;
/// An odd cell's circle: its radius, in cells.
pub(super) const ODD_RADIUS: f64 = 0.38;

/// The side of a puzzle's drawing by [`draw`], in its units.
pub(super) fn drawn_side(grid: &Puzzle) -> f64 {
    grid.size().side() as f64 * CELL
}

/// A puzzle's drawing at the origin, [`drawn_side`] units on a side; with `solution`, the digits
/// it adds to the givens, in grey. Texts carry a class: `given`, `found` or `cage`.
pub(super) fn draw(svg: &mut String, grid: &Puzzle, solution: Option<&Puzzle>) {
    let rules = grid.rules();
    let side = grid.size().side();
    let full = side as f64 * CELL;
    let at = |cell: usize| ((cell % side) as f64 * CELL, (cell / side) as f64 * CELL);
    // Shades first, lines over them, digits last.
    for (unit, cells) in rules.units() {
        if let Unit::Window(_) = unit {
            for &c in &cells {
                let (x, y) = at(c);
                let _ = writeln!(
                    svg,
                    r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{WINDOW_FILL}"/>"#
                );
            }
        }
    }
    for cell in 0..side * side {
        let (x, y) = at(cell);
        match rules.parity(cell) {
            Parity::Even => {
                let (inset, s) = (CELL * EVEN_INSET, CELL * (1.0 - 2.0 * EVEN_INSET));
                let _ = writeln!(
                    svg,
                    r#"<rect x="{:.2}" y="{:.2}" width="{s:.2}" height="{s:.2}" fill="{PARITY_FILL}"/>"#,
                    x + inset,
                    y + inset
                );
            }
            Parity::Odd => {
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{}" cy="{}" r="{:.2}" fill="{PARITY_FILL}"/>"#,
                    x + CELL / 2.0,
                    y + CELL / 2.0,
                    CELL * ODD_RADIUS
                );
            }
            Parity::Any => {}
        }
    }
    if rules.has(Constraint::Diagonals) {
        let _ = writeln!(
            svg,
            r#"<path d="M0 0L{full} {full}M{full} 0L0 {full}" stroke="{DIAGONAL_STROKE}" stroke-width="0.5" stroke-dasharray="2 1.2"/>"#
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
    let _ = writeln!(svg, r##"<path d="{thin}" stroke="#808080" stroke-width="0.3" fill="none"/>"##);
    let _ = writeln!(
        svg,
        r#"<path d="{thick}" stroke="black" stroke-width="0.9" stroke-linecap="square" fill="none"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{full}" height="{full}" stroke="black" stroke-width="0.9" fill="none"/>"#
    );
    draw_cages(svg, grid, &at);
    let font = CELL * 0.62;
    let symbols = grid.symbols();
    for cell in 0..side * side {
        let (given, found) = (grid.get(cell), solution.map_or(0, |s| s.get(cell)));
        let (digit, class, fill) =
            if given != 0 { (given, "given", "black") } else { (found, "found", FOUND_FILL) };
        if digit != 0 {
            let (x, y) = at(cell);
            // The baseline a little below the centre: digits look centred in every renderer,
            // without relying on `dominant-baseline`.
            let _ = writeln!(
                svg,
                r#"<text class="{class}" x="{}" y="{:.2}" font-family="{FONT}" font-size="{font:.2}" text-anchor="middle" fill="{fill}">{}</text>"#,
                x + CELL / 2.0,
                y + CELL * 0.72,
                symbols.symbol(digit)
            );
        }
    }
}

/// Each cage: the sides of its cells that face another cage (or none), drawn a little inside the
/// cell, and its sum on white in the corner of its first cell.
fn draw_cages(svg: &mut String, grid: &Puzzle, at: &dyn Fn(usize) -> (f64, f64)) {
    let side = grid.size().side();
    let inset = CELL * 0.1;
    for cage in grid.rules().cages() {
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
            r#"<path d="{path}" stroke="black" stroke-width="0.3" stroke-dasharray="0.9 0.6" fill="none"/>"#
        );
        let (x, y) = at(cage.cells[0]);
        let font = CELL * 0.3;
        let _ = writeln!(
            svg,
            r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="white"/><text class="cage" x="{:.2}" y="{:.2}" font-family="{FONT}" font-size="{font}">{}</text>"#,
            x + 0.3,
            y + 0.3,
            font * 0.64 * cage.sum.to_string().len() as f64 + 0.6,
            font + 0.3,
            x + 0.6,
            y + font,
            cage.sum
        );
    }
}
