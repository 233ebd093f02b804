//! Rating: technique fixtures, soundness of the logical solver, singles for easy puzzles.

use std::path::PathBuf;

#[path = "common/rank.rs"]
mod rank;
use rank::{ranks, spearman};

use dlx_sudoku::{
    Generator, Level, Matrix, Puzzle, Rules, Run, Symmetry, Technique, Uniqueness, Variant, explain,
    parse_all, solve_logically, solve_logically_with,
};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(name))
        .unwrap()
}

fn unique_solution(matrix: &Matrix, puzzle: &Puzzle) -> Puzzle {
    match matrix.solver().check_unique(puzzle).unwrap() {
        Uniqueness::Unique(s) => s,
        other => panic!("{puzzle:?}: {other:?}"),
    }
}

/// Every step of the explained solution agrees with the unique solution: each digit placed is
/// the solution's, and no candidate removed is.
fn assert_steps_sound(puzzle: &Puzzle, solution: &Puzzle) {
    let (logic, steps) = explain(puzzle);
    for (k, step) in steps.iter().enumerate() {
        let said = step.describe(puzzle);
        for &(cell, digit) in &step.placed {
            assert_eq!(digit, solution.get(cell), "{}: step {k}: {said}", puzzle.to_text());
        }
        for &(cell, removed) in &step.removed {
            assert_eq!(
                removed & (1 << (solution.get(cell) - 1)),
                0,
                "{}: step {k}: {said}",
                puzzle.to_text()
            );
        }
        assert!(!step.placed.is_empty() || !step.removed.is_empty(), "step {k} did nothing: {said}");
    }
    let counted: u32 = logic.counts.iter().sum();
    assert_eq!(counted as usize, steps.len());
}

/// Every cell the logical solver filled holds the digit of the unique solution, and every step
/// of its explanation is sound.
fn assert_sound(puzzle: &Puzzle, matrix: &Matrix) {
    let solution = unique_solution(matrix, puzzle);
    assert_steps_sound(puzzle, &solution);
    let logic = solve_logically(puzzle);
    for cell in 0..81 {
        let d = logic.grid.get(cell);
        assert!(d == 0 || d == solution.get(cell), "{puzzle:?}: wrong digit at cell {cell}");
    }
    if logic.solved {
        assert_eq!(logic.grid.cells(), solution.cells());
    }
}

#[test]
fn each_technique_fixture_needs_its_technique() {
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let records = parse_all(&fixture("techniques.txt"));
    assert_eq!(records.len(), Technique::ALL.len());
    for (record, technique) in records.iter().zip(Technique::ALL) {
        let puzzle = record.puzzle.clone().unwrap();
        let rating = matrix.solver().rate(&puzzle).unwrap();
        assert!(rating.logic.solved, "{technique}");
        assert_eq!(rating.logic.hardest(), Some(technique));
        assert_eq!(rating.logic.level(), technique.level());
        assert!(rating.nodes >= rating.guesses && rating.nodes > 0.0);
        let easier: Vec<Technique> = Technique::ALL.iter().copied().filter(|&t| t < technique).collect();
        assert!(!solve_logically_with(&puzzle, &easier).solved, "{technique} is needed");
        let up_to: Vec<Technique> = Technique::ALL.iter().copied().filter(|&t| t <= technique).collect();
        assert!(solve_logically_with(&puzzle, &up_to).solved);
        assert_sound(&puzzle, &matrix);
    }
}

#[test]
fn known_puzzles_are_rated_soundly() {
    for record in parse_all(&fixture("sudoku.txt")) {
        let p = record.puzzle.unwrap();
        assert_sound(&p, &Matrix::new(p.rules()));
    }
    // The hardest of them is beyond the techniques.
    let hard: Puzzle =
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..".parse().unwrap();
    let classic = Matrix::new(hard.rules());
    assert_eq!(classic.solver().rate(&hard).unwrap().logic.level(), Level::Expert);
}

#[test]
fn generated_puzzles_of_every_variant() {
    for variant in Variant::ALL {
        let matrix = Matrix::new(&Rules::from(variant));
        let mut generator = Generator::for_variant(&matrix, variant).expect("the variant's matrix");
        for seed in 0..12 {
            let g = generator.generate(Symmetry::None, seed, &mut |_, _| {}).unwrap();
            assert_sound(&g.puzzle, &Matrix::new(g.puzzle.rules()));
            let logic = solve_logically(&g.puzzle);
            if logic.level() == Level::Easy {
                let singles = [Technique::NakedSingle, Technique::HiddenSingle];
                assert!(solve_logically_with(&g.puzzle, &singles).solved);
            }
        }
    }
}

/// The logical solver is sound on hard puzzles, and they call on singles, locked candidates and
/// naked and hidden pairs at least: always on generated puzzles of the hard and expert levels,
/// and also on the first 200 of magictour's set when the public sets are beside the project (as
/// in CI), saying which.
#[test]
fn sound_on_hard_puzzles() {
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut puzzles = Vec::new();
    let mut generator = Generator::new(&matrix);
    for level in [Level::Hard, Level::Expert] {
        let run = Run { symmetry: Symmetry::None, level: Some(level), ..Run::new(11) };
        for index in 0..12 {
            let made = generator.generate_in(&run, index, &mut |_, _| {}).expect("a puzzle of the level");
            puzzles.push(made.generated.puzzle);
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/sudoku/puzzles3_magictour_top1465.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let records = parse_all(&text);
            assert!(records.len() >= 200);
            puzzles.extend(records.iter().take(200).map(|r| r.puzzle.clone().unwrap()));
            eprintln!("24 generated puzzles and 200 of {}", path.display());
        }
        Err(_) => eprintln!("24 generated puzzles; {} not found, so not those", path.display()),
    }
    let mut techniques_seen = [false; Technique::COUNT];
    for p in &puzzles {
        assert_sound(p, &matrix);
        let logic = solve_logically(p);
        for t in Technique::ALL {
            techniques_seen[t as usize] |= logic.counts[t as usize] > 0;
        }
    }
    assert!(techniques_seen[..5].iter().all(|&s| s), "{techniques_seen:?}");
}

#[test]
fn spearman_is_right_on_small_cases() {
    assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-12);
    assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
    assert_eq!(ranks(&[5.0, 1.0, 5.0]), [2.5, 1.0, 2.5]);
}

/// The numeric rating rises with the search effort on puzzles drawn without bias (the first 300
/// of the shared unbiased set, when it is beside the project): a strong rank correlation.
/// Every puzzle the techniques solve is solved soundly, step by step.
#[test]
fn ratings_rise_with_search_effort() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/sudoku/puzzles1_unbiased_first1000.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found: skipped", path.display());
        return;
    };
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut rater = matrix.solver();
    let (mut ratings, mut nodes) = (Vec::new(), Vec::new());
    for record in parse_all(&text).into_iter().take(300) {
        let puzzle = record.puzzle.unwrap();
        let rating = rater.rate(&puzzle).unwrap();
        assert!((1.0..=10.0).contains(&rating.logic.rating()));
        ratings.push(f64::from(rating.logic.rating()));
        nodes.push(rating.nodes);
    }
    let rho = spearman(&ratings, &nodes);
    eprintln!("Spearman's rho between rating and search nodes over 300 unbiased puzzles: {rho:.3}");
    assert!(rho > 0.6, "{rho}");
}
