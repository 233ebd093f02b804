//! Writes a generated puzzle of each variant, and a 6x6 killer puzzle, as SVG into a folder, and
//! all of them on one page: `cargo run -p dlx-sudoku --example svg -- DIR`.

use dlx_sudoku::{Generator, Matrix, Puzzle, Rules, Symmetry, Variant, svg_page, to_svg};

fn main() -> std::io::Result<()> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let mut all = Vec::new();
    for variant in Variant::ALL {
        let matrix = Matrix::new(&Rules::from(variant));
        let mut generator = Generator::for_variant(&matrix, variant).expect("the variant's matrix");
        let puzzle = generator.generate(Symmetry::Rotational, 1, &mut |_, _| {}).expect("a puzzle").puzzle;
        std::fs::write(dir.join(format!("{variant}.svg")), to_svg(&puzzle))?;
        all.push(puzzle);
    }
    let killer: Puzzle = ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1".parse().expect("a puzzle");
    std::fs::write(dir.join("killer.svg"), to_svg(&killer))?;
    all.push(killer);
    std::fs::write(dir.join("page.svg"), svg_page(&all, 2))?;
    Ok(())
}
