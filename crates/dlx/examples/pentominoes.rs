//! Packing the twelve pentominoes into a rectangle, as exact cover.
//!
//! Items: one per piece (`F I L N P T U V W X Y Z`, primary), then one per cell (`r.c`, primary).
//! Options: every placement of every piece in every orientation. The 6x10 rectangle has 9356
//! packings; with the X piece kept to one quadrant (which breaks the rectangle's four symmetries,
//! X being symmetric itself) 2339 remain.
//!
//! `cargo run --release -p dlx-engine --example pentominoes -- 6 10 [--break-symmetry] [--dlx]`

use dlx_engine::{BuildError, Problem, ProblemBuilder, Solver};

/// The pieces, each as cells `(row, column)` in one orientation.
const PIECES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each shifted to touch the
/// top and left edges and sorted.
fn orientations(cells: &[(i32, i32); 5]) -> Vec<[(i32, i32); 5]> {
    let mut seen = Vec::new();
    for k in 0..8 {
        let mut shape = cells.map(|(r, c)| {
            let (r, c) = if k & 4 != 0 { (r, -c) } else { (r, c) };
            match k & 3 {
                0 => (r, c),
                1 => (c, -r),
                2 => (-r, -c),
                _ => (-c, r),
            }
        });
        let (min_r, min_c) = (shape.iter().map(|p| p.0).min(), shape.iter().map(|p| p.1).min());
        let (min_r, min_c) = (min_r.unwrap_or(0), min_c.unwrap_or(0));
        for cell in &mut shape {
            *cell = (cell.0 - min_r, cell.1 - min_c);
        }
        shape.sort_unstable();
        if !seen.contains(&shape) {
            seen.push(shape);
        }
    }
    seen
}

/// Pentominoes in a `rows` x `cols` rectangle (60 cells for a packing to exist). With
/// `break_symmetry`, the X piece's centre is kept in the top-left quadrant (rows `2r <= rows-1`,
/// columns `2c <= cols-1`), which divides the count by 4 when both sides are even.
pub fn pentominoes(rows: i32, cols: i32, break_symmetry: bool) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let pieces: Vec<_> =
        PIECES.iter().map(|(name, _)| b.primary(name.to_string())).collect::<Result<_, _>>()?;
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            cells.push(b.primary(format!("{r}.{c}"))?);
        }
    }
    for (piece, (name, shape)) in pieces.iter().zip(PIECES.iter()) {
        for shape in orientations(shape) {
            let height = shape.iter().map(|p| p.0).max().unwrap_or(0) + 1;
            let width = shape.iter().map(|p| p.1).max().unwrap_or(0) + 1;
            for r in 0..=rows - height {
                for c in 0..=cols - width {
                    if break_symmetry && *name == 'X' && (2 * (r + 1) > rows - 1 || 2 * (c + 1) > cols - 1) {
                        continue;
                    }
                    let cell = |(dr, dc): (i32, i32)| {
                        cells[usize::try_from((r + dr) * cols + c + dc).expect("inside")]
                    };
                    b.option(std::iter::once(*piece).chain(shape.iter().map(|&p| cell(p))))?;
                }
            }
        }
    }
    Ok(b.build())
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    // Written through a lock with `?`, so a closed pipe (`| head`) ends the example with an error
    // message instead of a panic.
    let mut out = std::io::stdout().lock();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rows = args.first().map_or(Ok(6), |s| s.parse())?;
    let cols = args.get(1).map_or(Ok(10), |s| s.parse())?;
    let break_symmetry = args.iter().any(|a| a == "--break-symmetry");
    let problem = pentominoes(rows, cols, break_symmetry)?;
    if std::env::args().any(|a| a == "--dlx") {
        problem.write_dlx(&mut out)?;
        return Ok(());
    }
    let mut solver = Solver::new(&problem);
    let count = solver.count()?;
    writeln!(out, "{rows}x{cols} pentominoes: {count} packings, {:?}", solver.stats())?;
    if let Some(solution) = solver.first()? {
        let mut board = vec![vec!['.'; usize::try_from(cols)?]; usize::try_from(rows)?];
        for option in solution {
            let mut items = option_names(&problem, option);
            let piece = items.next().and_then(|n| n.chars().next()).unwrap_or('?');
            for cell in items {
                let (r, c) = cell.split_once('.').ok_or("cell name")?;
                board[r.parse::<usize>()?][c.parse::<usize>()?] = piece;
            }
        }
        for row in board {
            writeln!(out, "{}", row.into_iter().collect::<String>())?;
        }
    }
    Ok(())
}

fn option_names(problem: &Problem, option: dlx_engine::OptionId) -> impl Iterator<Item = &str> + '_ {
    problem.option_items(option).map(|i| problem.item_name(i))
}
