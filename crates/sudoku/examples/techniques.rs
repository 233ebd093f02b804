//! Finds generated puzzles whose hardest technique is each technique in turn (for fixtures):
//! `cargo run --release -p dlx-sudoku --example techniques -- [SEEDS]`.

use dlx_sudoku::{Generator, Matrix, Symmetry, Technique, Variant, solve_logically};

fn main() {
    let seeds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let matrix = Matrix::new(Variant::Classic);
    let mut generator = Generator::new(&matrix);
    let mut found = [const { None }; 9];
    let mut levels = [0u32; 4];
    for seed in 0..seeds {
        let g = generator.generate(Symmetry::None, seed);
        let logic = solve_logically(&g.puzzle, Variant::Classic, &Technique::ALL).expect("valid");
        levels[logic.level() as usize] += 1;
        if let (true, Some(t)) = (logic.solved, logic.hardest()) {
            found[t as usize].get_or_insert((seed, g.puzzle.to_line()));
        }
    }
    println!("levels easy/medium/hard/expert: {levels:?}");
    for t in Technique::ALL {
        println!("{t}: {:?}", found[t as usize]);
    }
}
