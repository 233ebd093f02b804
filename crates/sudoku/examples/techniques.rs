//! Finds puzzles whose hardest technique is each technique in turn, and that no easier
//! techniques solve (for fixtures): generated ones, then those of any files given.
//! `cargo run --release -p dlx-sudoku --example techniques -- [SEEDS] [FILE...]`.

use dlx_sudoku::{
    Generator, Matrix, Puzzle, Rules, Symmetry, Technique, Variant, parse_all, solve_logically,
    solve_logically_with,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut generator = Generator::new(&matrix);
    let mut found = [const { None }; Technique::COUNT];
    let mut levels = [0u32; 4];
    let mut consider = |puzzle: &Puzzle, origin: String| {
        let logic = solve_logically(puzzle);
        levels[logic.level() as usize] += 1;
        if let (true, Some(t)) = (logic.solved, logic.hardest()) {
            let easier: Vec<Technique> = Technique::ALL.iter().copied().filter(|&e| e < t).collect();
            if found[t as usize].is_none() && !solve_logically_with(puzzle, &easier).solved {
                found[t as usize] = Some((origin, puzzle.to_line()));
            }
        }
    };
    for seed in 0..seeds {
        let g = generator.generate(Symmetry::None, seed, &mut |_, _| {}).expect("a puzzle");
        consider(&g.puzzle, format!("seed {seed}"));
    }
    for file in args {
        let text = std::fs::read_to_string(&file).expect("a readable file");
        for record in parse_all(&text) {
            let classic = |p: &Puzzle| p.rules().variant() == Some(Variant::Classic);
            if let Some(puzzle) = record.puzzle.ok().filter(classic) {
                consider(&puzzle, format!("{file}:{}", record.line));
            }
        }
    }
    println!("levels easy/medium/hard/expert: {levels:?}");
    for t in Technique::ALL {
        println!("{t}: {:?}", found[t as usize]);
    }
}
