//! Writes a generated puzzle of each variant as SVG into a folder:
//! `cargo run -p dlx-sudoku --example svg -- DIR`.

use dlx_sudoku::{Generator, Matrix, Symmetry, Variant, svg_page, to_svg};

fn main() -> std::io::Result<()> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let mut all = Vec::new();
    for variant in Variant::ALL {
        let matrix = Matrix::new(variant);
        let g = Generator::new(&matrix).generate(Symmetry::Rotational, 1);
        std::fs::write(dir.join(format!("{variant}.svg")), to_svg(&g.puzzle, variant))?;
        all.push((g.puzzle, variant));
    }
    std::fs::write(dir.join("page.svg"), svg_page(&all, 2))?;
    Ok(())
}
