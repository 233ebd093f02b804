//! The bit sets' search against the engine's: the same verdicts, counts and solutions on the
//! shared puzzle sets and on random puzzles of every rule set it takes.

use std::path::Path;

use dlx_engine::Budget;
use dlx_sudoku::{
    Constraint, Matrix, Parity, Puzzle, Rules, Search, Size, SolveError, SudokuSolver, Uniqueness, Variant,
    parse_puzzle,
};
use proptest::prelude::*;

/// A solver of `matrix` that takes `search`.
fn solver(matrix: &Matrix, search: Search) -> SudokuSolver<'_> {
    let mut solver = matrix.solver();
    solver.set_search(search);
    solver
}

/// Checks a verdict's solutions: full, obeying the rules, keeping the givens.
fn check_solutions(grid: &Puzzle, verdict: &Uniqueness) {
    let solutions = match verdict {
        Uniqueness::None => vec![],
        Uniqueness::Unique(a) => vec![a],
        Uniqueness::Multiple(a, b) => {
            assert_ne!(a, b, "{}", grid.to_line());
            vec![a, b]
        }
    };
    for s in solutions {
        assert!(s.cells().iter().all(|&d| d != 0), "{} is not full", s.to_line());
        assert!(s.check().is_ok(), "{} breaks the rules", s.to_line());
        let kept = grid.cells().iter().zip(s.cells()).all(|(&g, &d)| g == 0 || g == d);
        assert!(kept, "{} does not keep the givens of {}", s.to_line(), grid.to_line());
    }
}

/// The most nodes the engine's side of a comparison may take. A debug build checks each of the
/// engine's choices against a full scan of the items, so a random sparse puzzle's count can take
/// minutes there; the rare puzzle past this is checked by the bit sets' own checks alone.
const ENGINE_NODES: u64 = 50_000;

/// Both searches on one puzzle: the same verdict (the same solution when unique), valid
/// witnesses, the same count up to `limit`, and the same first solution's validity. Whether the
/// engine's side finished within its budget (else only the bit sets' own checks were made).
fn agree(matrix: &Matrix, grid: &Puzzle, limit: u64) -> bool {
    let (mut bits, mut engine) = (solver(matrix, Search::Bits), solver(matrix, Search::Engine));
    engine.set_budget(Budget { nodes: Some(ENGINE_NODES), updates: None });
    let verdict = bits.check_unique(grid).unwrap();
    check_solutions(grid, &verdict);
    let mut compared = true;
    match engine.check_unique(grid) {
        Err(SolveError::Interrupted(_)) => compared = false,
        theirs => match (&verdict, theirs.unwrap()) {
            (Uniqueness::None, Uniqueness::None) | (Uniqueness::Multiple(..), Uniqueness::Multiple(..)) => {}
            (Uniqueness::Unique(a), Uniqueness::Unique(b)) => assert_eq!(a, &b, "{}", grid.to_line()),
            (a, b) => panic!("{}: bits {a:?}, engine {b:?}", grid.to_line()),
        },
    }
    assert!(bits.effort().nodes > 0 || grid.cells().iter().all(|&d| d != 0));
    let count = bits.count(grid, Some(limit)).unwrap();
    match engine.count(grid, Some(limit)) {
        Err(SolveError::Interrupted(_)) => compared = false,
        theirs => assert_eq!(count, theirs.unwrap(), "{}", grid.to_line()),
    }
    let first = bits.first(grid).unwrap();
    assert_eq!(first.is_some(), count > 0);
    if let Some(first) = first {
        check_solutions(grid, &Uniqueness::Unique(first));
    }
    compared
}

/// The first puzzles of each shared set (skipped when the sets are absent), and each with its
/// first given left out (often several solutions): the same answers from both searches.
#[test]
fn the_bit_sets_answer_as_the_engine_on_the_shared_sets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku");
    let sets = ["puzzles2_17_clue.txt", "puzzles5_forum_hardest_1905_11plus.txt", "norvig_top95.txt"];
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut read = 0;
    for name in sets {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            eprintln!("skipped: {} is absent", dir.join(name).display());
            continue;
        };
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).take(150) {
            let grid = parse_puzzle(line, &Default::default()).unwrap();
            assert!(agree(&matrix, &grid, 2), "the engine ran out of budget on {line}");
            let mut fewer = grid.clone();
            let first = (0..81).find(|&c| grid.get(c) != 0).unwrap();
            fewer.set(first, 0);
            assert!(agree(&matrix, &fewer, 20), "the engine ran out of budget on {}", fewer.to_line());
            read += 1;
        }
    }
    eprintln!("{read} puzzles of the shared sets compared");
}

/// The rule sets of the random puzzles: sizes, 9x9 variants, anti-knight, a jigsaw.
fn rules_of(kind: usize) -> Rules {
    let size = |s: &str| Rules::new(s.parse::<Size>().unwrap());
    match kind {
        0 => size("2x2"),
        1 => size("2x3"),
        2 => size("2x4"),
        3 => size("3x4"),
        4 => size("4x4"),
        5..=9 => Rules::from(Variant::ALL[kind - 5]),
        10 => {
            let mut rules = Rules::from(Variant::Classic);
            rules.add(Constraint::AntiKnight);
            rules
        }
        _ => {
            let mut rules = size("3x3");
            // The boxes, with r3c3 and r4c1 traded between the first two regions of column 1.
            let map = "AAABBBCCCAAABBBCCCAADBBBCCCADDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
            rules.set_regions(map).unwrap();
            rules
        }
    }
}

/// The number of rule sets of [`rules_of`].
const KINDS: usize = 12;

/// A solution of the empty grid of each rule set, found once (by the bit sets: the engine
/// takes seconds on the empty anti-knight grid, the bit sets one), and checked.
fn full_grid(kind: usize) -> &'static Puzzle {
    static GRIDS: [std::sync::OnceLock<Puzzle>; KINDS] = [const { std::sync::OnceLock::new() }; KINDS];
    GRIDS[kind].get_or_init(|| {
        let rules = rules_of(kind);
        let empty = Puzzle::new(rules.clone());
        let full = solver(&Matrix::new(&rules), Search::Bits).first(&empty).unwrap().expect("solutions");
        assert!(full.check().is_ok() && full.cells().iter().all(|&d| d != 0));
        full
    })
}

/// A random puzzle of rule set `kind`: a solution grid (the empty grid's, digits relabelled),
/// parity marks agreeing with it, and a random share of its cells as givens; both searches give
/// the same verdicts and counts, and valid solutions.
fn random_puzzle_agrees(kind: usize, seed: u64, share: u64, marks: u64) {
    let mut rules = rules_of(kind);
    let side = rules.size().side();
    let full = full_grid(kind);
    // A permutation of the digits and the draws, from the seed.
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut digits: Vec<u8> = (1..=u8::try_from(side).unwrap()).collect();
    for k in (1..side).rev() {
        digits.swap(k, usize::try_from(next() % (k as u64 + 1)).unwrap());
    }
    let solution: Vec<u8> = full.cells().iter().map(|&d| digits[usize::from(d) - 1]).collect();
    for (cell, &d) in solution.iter().enumerate() {
        if next() % 100 < marks {
            rules.set_parity(cell, if d % 2 == 0 { Parity::Even } else { Parity::Odd });
        }
    }
    let givens: Vec<u8> = solution.iter().map(|&d| if next() % 100 < share { d } else { 0 }).collect();
    let grid = Puzzle::with_cells(rules.clone(), givens).unwrap();
    let matrix = Matrix::new(&rules);
    // The rare sparse puzzle past the engine's budget keeps the bit sets' own checks.
    agree(&matrix, &grid, 20);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Random puzzles of every rule set (see [`random_puzzle_agrees`]).
    #[test]
    fn bit_sets_count_as_the_engine(kind in 0..KINDS, seed in any::<u64>(), share in 25u64..65, marks in 0u64..20) {
        random_puzzle_agrees(kind, seed, share, marks);
    }

    /// Random 16x16 puzzles, which have a layout of their own.
    #[test]
    fn bit_sets_count_as_the_engine_on_16x16(seed in any::<u64>(), share in 30u64..65, marks in 0u64..20) {
        random_puzzle_agrees(4, seed, share, marks);
    }
}

/// Puzzles of every 9x9 rule set with few givens, counted to 500 both ways: deep trees, where the
/// 9x9 layout's branching and its extra rules work far from the givens.
#[test]
fn few_givens_count_as_the_engine_on_every_9x9_rule_set() {
    for kind in 5..=10 {
        let full = full_grid(kind);
        let matrix = Matrix::new(full.rules());
        for keep in [14, 18, 22, 26] {
            let mut grid = full.clone();
            // 37 is prime to 81, so exactly `keep` cells are kept.
            for c in (0..81).filter(|c| (c * 37 + keep * 11) % 81 >= keep) {
                grid.set(c, 0);
            }
            assert!(agree(&matrix, &grid, 500), "the engine ran out of budget on {}", grid.to_line());
        }
    }
}

/// 16x16 puzzles with few givens, with and without parity marks, counted to 100 both ways: the
/// 16x16 layout's passes and branching far from the givens. (Here 90 to 120 givens leave from 3
/// to 100 solutions or more; the engine's debug build runs out of its budget on one of the eight.)
#[test]
fn few_givens_count_as_the_engine_on_16x16() {
    let full = full_grid(4);
    let mut compared = 0;
    for keep in [90, 100, 110, 120] {
        for marked in [false, true] {
            let mut rules = full.rules().clone();
            if marked {
                // Every seventh cell marked with its digit's parity.
                for c in (0..256).step_by(7) {
                    let even = full.cells()[c].is_multiple_of(2);
                    rules.set_parity(c, if even { Parity::Even } else { Parity::Odd });
                }
            }
            // 101 is prime to 256, so exactly `keep` cells are kept.
            let cells =
                (0..256).map(|c| if (c * 101 + keep * 13) % 256 < keep { full.cells()[c] } else { 0 });
            let grid = Puzzle::with_cells(rules.clone(), cells.collect()).unwrap();
            let matrix = Matrix::new(&rules);
            compared += usize::from(agree(&matrix, &grid, 100));
        }
    }
    assert!(compared >= 6, "the engine ran out of budget on {} of 8", 8 - compared);
}
