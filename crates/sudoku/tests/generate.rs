//! Generated puzzles: unique (engine and independent counter), symmetric, minimal, valid,
//! reproducible.

mod common;

use dlx_sudoku::nine::{Generator as NineGenerator, Matrix as NineMatrix, Puzzle as NinePuzzle};
use dlx_sudoku::{Symmetry, Variant};

/// The number of solutions up to 2, by the engine.
fn engine_count(matrix: &NineMatrix, p: &NinePuzzle) -> u64 {
    matrix.solver().count(p, Some(2)).unwrap()
}

fn check_generated(matrix: &NineMatrix, symmetry: Symmetry, seed: u64) -> NinePuzzle {
    let variant = matrix.variant();
    let g = NineGenerator::new(matrix).generate(symmetry, seed);
    let p = g.puzzle;
    assert!(p.check(variant).is_ok(), "{p:?} breaks the rules");
    assert!(p.is_solved_by(&g.solution, variant), "{p:?}");
    assert_eq!(engine_count(matrix, &p), 1, "{p:?} is not unique");
    assert_eq!(common::count(&p, variant, 2), 1, "{p:?} is not unique by the independent counter");
    // The givens are symmetric; even markers are kept only where needed, so they need not be.
    assert!(
        NinePuzzle::from_cells(*p.cells()).unwrap().has_symmetry(symmetry),
        "{p:?} lacks {symmetry} symmetry"
    );
    // Minimal: taking away any clue group (or any even marker) makes it ambiguous.
    for orbit in symmetry.orbits() {
        if p.get(orbit[0]) == 0 {
            assert!(orbit.iter().all(|&c| p.get(c) == 0), "{p:?}: half an orbit given");
            continue;
        }
        // Without the group's clues (and no marker in their place) the solution is not unique.
        let mut fewer = p;
        for &cell in &orbit {
            fewer.set(cell, 0);
            fewer.set_even_cell(cell, false);
        }
        assert_eq!(engine_count(matrix, &fewer), 2, "{p:?}: clues {orbit:?} are not needed");
    }
    for cell in (0..81).filter(|&c| p.is_even_cell(c)) {
        let mut fewer = p;
        fewer.set_even_cell(cell, false);
        assert_eq!(engine_count(matrix, &fewer), 2, "{p:?}: marker at {cell} is not needed");
    }
    p
}

#[test]
fn every_symmetry_classic() {
    let matrix = NineMatrix::new(Variant::Classic);
    for symmetry in Symmetry::ALL {
        for seed in 0..3 {
            check_generated(&matrix, symmetry, seed);
        }
    }
}

#[test]
fn diagonal_and_even_variants() {
    for variant in [Variant::Diagonal, Variant::Even] {
        let matrix = NineMatrix::new(variant);
        for (seed, symmetry) in [(1, Symmetry::Rotational), (2, Symmetry::None), (3, Symmetry::Mirror)] {
            check_generated(&matrix, symmetry, seed);
        }
    }
}

/// Even-cell markers over many seeds and symmetries: each puzzle is unique and minimal in clues
/// and in markers (every marker is needed: `check_generated`), its markers stand on empty cells,
/// and markers are used at all: nearly every puzzle needs some (297 to 300 of 300 when measured
/// with `dlx generate`).
#[test]
fn even_cell_markers_over_many_seeds() {
    let matrix = NineMatrix::new(Variant::Even);
    let mut with_markers = 0;
    let mut cases = 0;
    for seed in 10..18 {
        for symmetry in [Symmetry::None, Symmetry::Rotational, Symmetry::Dihedral] {
            let p = check_generated(&matrix, symmetry, seed);
            for cell in (0..81).filter(|&c| p.is_even_cell(c)) {
                assert_eq!(p.get(cell), 0, "{p:?}: a marker on a given cell {cell}");
            }
            with_markers += usize::from(p.has_even_cells());
            cases += 1;
        }
    }
    assert!(with_markers + 2 >= cases, "only {with_markers} of {cases} puzzles have markers");
}

#[test]
fn same_seed_same_puzzle() {
    let matrix = NineMatrix::new(Variant::Classic);
    let mut a = NineGenerator::new(&matrix);
    let mut b = NineGenerator::new(&matrix);
    let first = a.generate(Symmetry::Rotational, 42);
    let _ = b.generate(Symmetry::Rotational, 7);
    assert_eq!(b.generate(Symmetry::Rotational, 42), first, "no state leaks between puzzles");
    assert_ne!(a.generate(Symmetry::Rotational, 43), first);
}

#[test]
fn a_used_generator_makes_what_a_fresh_one_makes() {
    // A generator keeps its solver and scratch space from one puzzle to the next: none of it may
    // change a puzzle.
    for variant in Variant::ALL {
        let matrix = NineMatrix::new(variant);
        let mut seasoned = NineGenerator::new(&matrix);
        for seed in 0..20 {
            seasoned.generate(Symmetry::Rotational, seed);
        }
        for seed in 100..104 {
            let fresh = NineGenerator::new(&matrix).generate(Symmetry::Rotational, seed);
            assert_eq!(seasoned.generate(Symmetry::Rotational, seed), fresh, "{variant}: seed {seed}");
        }
    }
}

#[test]
fn orbits_partition_the_grid() {
    for symmetry in Symmetry::ALL {
        let orbits = symmetry.orbits();
        let mut cells: Vec<usize> = orbits.iter().flatten().copied().collect();
        cells.sort_unstable();
        assert_eq!(cells, (0..81).collect::<Vec<_>>());
        let sizes: std::collections::BTreeSet<usize> = orbits.iter().map(Vec::len).collect();
        let max = match symmetry {
            Symmetry::None => 1,
            Symmetry::Rotate90 => 4,
            Symmetry::Dihedral => 8,
            _ => 2,
        };
        assert_eq!(sizes.iter().max(), Some(&max), "{symmetry}");
    }
}

#[test]
fn random_full_grids_are_valid_and_reproducible() {
    // Diagonal fills often use up their budget of options and start over from a new seed (the
    // search effort is heavy-tailed): the grid must still be complete, valid and the same for the
    // same seed.
    for variant in Variant::ALL {
        let matrix = NineMatrix::new(variant);
        let mut generator = NineGenerator::new(&matrix);
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..40 {
            let grid = generator.full_grid(seed);
            assert_eq!(grid.given_count(), 81, "{variant}: seed {seed} left cells empty");
            assert!(grid.check(variant).is_ok(), "{variant}: seed {seed} gave {grid:?}");
            assert_eq!(generator.full_grid(seed), grid, "{variant}: seed {seed} is not reproducible");
            distinct.insert(grid.to_line());
        }
        assert_eq!(distinct.len(), 40, "{variant}: 40 seeds gave only {} grids", distinct.len());
    }
}

/// The one generator makes a 9x9 variant's puzzles with the 9x9 machinery, whatever way its
/// rules were given: puzzle `i` of a run over the rules of a variant (`generate --constraint
/// diagonal`, `--size 9`) is the 9x9 generator's (`generate --variant diagonal`), and so is the
/// even-cell variant's through `for_variant`.
#[test]
fn the_one_generator_makes_a_variants_puzzles_as_the_9x9_one() {
    use dlx_sudoku::Generator;
    use dlx_sudoku::{Level, Matrix, Rules, Run};
    for variant in Variant::ALL {
        let grid_matrix = Matrix::new(&Rules::from(variant));
        let mut one = Generator::for_variant(&grid_matrix, variant).expect("the variant's matrix");
        let nine_matrix = NineMatrix::new(variant);
        let mut nine = NineGenerator::new(&nine_matrix);
        for run in [Run::new(3), Run { level: Some(Level::Medium), ..Run::new(4) }] {
            for index in 0..4 {
                let made = one.generate_in(&run, index, &mut |_, _| {}).unwrap();
                let expected = nine.generate_in(&run, index).unwrap();
                let (puzzle, solution) = (made.generated.puzzle.to_nine(), made.generated.solution.to_nine());
                assert_eq!(puzzle, Some(expected.generated.puzzle), "{variant} {run:?} {index}");
                assert_eq!(solution, Some(expected.generated.solution), "{variant} {run:?} {index}");
                assert_eq!(made.logic.map(|l| l.level()), expected.logic.map(|l| l.level()));
            }
        }
        // Without naming the variant, the rules say it (but the even cells, which are markers
        // the even-cell generator places).
        if variant != Variant::Even {
            let mut by_rules = Generator::new(&grid_matrix);
            let made = by_rules.generate_in(&Run::new(3), 0, &mut |_, _| {}).unwrap();
            let expected = nine.generate_in(&Run::new(3), 0).unwrap();
            assert_eq!(made.generated.puzzle.to_nine(), Some(expected.generated.puzzle), "{variant}");
        }
    }
}

/// A cancel flag stops the one generator on a 9x9 variant's rules too: a cancelled run ends
/// with an interruption (not a puzzle, nor a puzzle missing), and the flag cleared, the same
/// puzzle comes as before.
#[test]
fn a_cancel_flag_stops_a_variants_run() {
    use dlx_engine::{CancelFlag, StopReason};
    use dlx_sudoku::{GenerateError, Level, Matrix, Rules, Run, SolveError};
    let matrix = Matrix::new(&Rules::from(Variant::Diagonal));
    let mut generator = dlx_sudoku::Generator::new(&matrix);
    let flag = CancelFlag::new();
    generator.set_cancel_flag(Some(flag.clone()));
    let run = Run { level: Some(Level::Hard), ..Run::new(6) };
    let made = generator.generate_in(&run, 0, &mut |_, _| {}).unwrap();
    flag.cancel();
    match generator.generate_in(&run, 0, &mut |_, _| {}) {
        Err(GenerateError::Solve(SolveError::Interrupted(e))) => assert_eq!(e.reason, StopReason::Cancelled),
        other => panic!("expected an interruption, got {other:?}"),
    }
    flag.clear();
    assert_eq!(generator.generate_in(&run, 0, &mut |_, _| {}).unwrap(), made);
}

/// A run that eases: every puzzle has one solution, holds only its digits, keeps its symmetry,
/// and is solved by logic at the level asked; those that took givens back say so, and those
/// that did not are the minimal run's own. Killer puzzles, whose minimal forms all need guessing,
/// take givens back; so does a 16x16 one; classic ones made by the 9x9 path need none.
#[test]
fn runs_that_ease_land_on_logic_and_on_the_level() {
    use dlx_sudoku::{
        Extras, Generator, Level, Matrix, Rules, Run, Size, Uniqueness, generate_in_with_extras,
        solve_logically,
    };
    let killer = Extras { killer: true, ..Extras::default() };
    let jigsaw = Extras { jigsaw: true, ..Extras::default() };
    let sixteen = Rules::new("16".parse::<Size>().unwrap());
    let cases = [
        (
            "killer",
            Rules::new(Size::CLASSIC),
            killer,
            Symmetry::None,
            &[None, Some(Level::Easy), Some(Level::Medium)][..],
        ),
        ("jigsaw", Rules::new(Size::CLASSIC), jigsaw, Symmetry::Rotational, &[None, Some(Level::Easy)]),
        ("16x16", sixteen, Extras::default(), Symmetry::Rotational, &[None]),
        (
            "classic",
            Rules::new(Size::CLASSIC),
            Extras::default(),
            Symmetry::Rotational,
            &[None, Some(Level::Hard)],
        ),
    ];
    for (name, rules, extras, symmetry, levels) in cases {
        let matrix = Matrix::new(&rules);
        let mut eased = 0;
        for &level in levels {
            // Four attempts (after two, a puzzle may take givens back); classic puzzles, easier
            // than hard for the most part, get the attempts of a run.
            let max_attempts = if name == "classic" { Run::DEFAULT_ATTEMPTS } else { 4 };
            let run = Run { symmetry, level, ease: true, max_attempts, ..Run::new(9) };
            let minimal = Run { ease: false, ..run };
            for index in 0..2 {
                let make = |run: &Run| {
                    if extras.any() {
                        generate_in_with_extras(&rules, extras, run, index, &mut |_, _| {}, None)
                    } else {
                        Generator::new(&matrix).generate_in(run, index, &mut |_, _| {})
                    }
                };
                let made = make(&run).unwrap();
                let (puzzle, solution) = (&made.generated.puzzle, &made.generated.solution);
                let what = format!("{name} {level:?} {index}: {}", puzzle.to_line());
                let logic = solve_logically(puzzle);
                assert!(logic.solved, "{what}: logic does not solve it");
                if let Some(level) = level {
                    assert_eq!(logic.level(), level, "{what}");
                }
                assert_eq!(made.logic.map(|l| l.level()), Some(logic.level()), "{what}");
                assert!(puzzle.is_solved_by(solution), "{what}: a given not of the solution");
                let check = Matrix::new(puzzle.rules()).solver().check_unique(puzzle).unwrap();
                assert_eq!(check, Uniqueness::Unique(solution.clone()), "{what}");
                let side = puzzle.size().side();
                for orbit in symmetry.orbits_in(side) {
                    let given = orbit.iter().filter(|&&c| puzzle.get(c) != 0).count();
                    assert!(given == 0 || given == orbit.len(), "{what}: half of {orbit:?} given");
                }
                if made.added == 0 {
                    // Not eased: the minimal run's puzzle (any level: from the first attempt).
                    if level.is_none() {
                        assert_eq!(make(&minimal).unwrap().generated, made.generated, "{what}");
                    }
                } else {
                    eased += 1;
                }
            }
        }
        match name {
            "killer" | "16x16" => assert!(eased > 0, "{name}: no puzzle took givens back"),
            "classic" => assert_eq!(eased, 0, "classic puzzles need no givens back"),
            _ => {}
        }
    }
}
