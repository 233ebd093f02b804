//! Generates puzzles and prints them with their clue counts:
//! `cargo run --release -p dlx-sudoku --example generate -- [COUNT] [classic|diagonal|even]`.

use dlx_sudoku::{Generator, Matrix, Rules, Symmetry, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let variant = match args.next().map(|name| name.parse::<Variant>()).transpose() {
        Ok(variant) => variant.unwrap_or(Variant::Classic),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let matrix = Matrix::new(&Rules::from(variant));
    let mut generator = Generator::for_variant(&matrix, variant).expect("the variant's matrix");
    let start = std::time::Instant::now();
    let mut clues = 0;
    for seed in 0..count {
        let g = match generator.generate(Symmetry::Rotational, seed, &mut |_, _| {}) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                std::process::exit(1);
            }
        };
        clues += g.puzzle.givens();
        if count <= 20 {
            println!("{} {}", g.puzzle.to_text(), g.puzzle.givens());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{count} {variant} puzzles, {:.1} clues on average, {:.0} per second",
        clues as f64 / count as f64,
        count as f64 / secs
    );
}
