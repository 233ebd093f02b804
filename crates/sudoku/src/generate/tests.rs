//! The generator's tests: the fills of every rule combination, the made-up regions and cages,
//! and the thinning's searches.

use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::extras::{closure, connected_without, keeps, moved_map, random_cages};
use super::orbits::{box_shifts, symmetric_grid_under};
use super::*;
use crate::logic::grid::candidates;
use crate::model::{Constraint, Size};

/// Made-up killer cages tile the grid with cages of 2 to 4 connected cells of distinct
/// digits, none of one cell, their sums the full grid's; up to 9x9 most puzzles need no
/// given digit at all.
#[test]
fn killer_cages_are_of_two_to_four_cells() {
    for shape in ["2x2", "2x3", "3x3", "4x4"] {
        let rules = Rules::new(shape.parse().expect("a size"));
        let side = rules.size().side();
        let matrix = Matrix::new(&rules);
        for seed in 0..40 {
            let full = Generator::general(&matrix).full_grid(seed).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let cages = random_cages(side, &full, &mut rng);
            let mut covered = vec![0; side * side];
            for (cage, sum) in &cages {
                assert!((2..=4).contains(&cage.len()), "{shape} seed {seed}: a cage of {}", cage.len());
                assert!(connected_without(cage, usize::MAX, side), "{shape}: {cage:?} connected");
                let mut digits: Vec<u8> = cage.iter().map(|&c| full.get(c)).collect();
                assert_eq!(*sum, digits.iter().map(|&d| u32::from(d)).sum::<u32>());
                digits.sort_unstable();
                digits.dedup();
                assert_eq!(digits.len(), cage.len(), "{shape}: distinct digits");
                cage.iter().for_each(|&c| covered[c] += 1);
            }
            assert!(covered.iter().all(|&n| n == 1), "{shape} seed {seed}: each cell once");
        }
    }
    let base = Rules::new("3x3".parse().expect("a size"));
    let extras = Extras { killer: true, ..Extras::default() };
    let givens_free = (0..10)
        .filter(|&seed| {
            let made =
                generate_with_extras(&base, extras, Symmetry::None, seed, &mut |_, _| {}, None).unwrap();
            made.puzzle.cells().iter().all(|&d| d == 0)
        })
        .count();
    assert!(givens_free >= 3, "{givens_free} of 10 killer puzzles without givens");
}

/// Every side of 4 to 16 with every set of diagonal, windoku, anti-king and anti-knight has a
/// full grid found, or one proved not to exist, within the fill's node budget
/// ([`FILL_TOTAL`]): never a budget run out. The grids found obey their rules, and the
/// rules proved without grids are exactly those listed (each proof is a whole search with
/// the first row's digits fixed, which the renaming makes complete). Left out: sets of which
/// a subset has no grid (they cannot have any). Five tests, which run side
/// by side (10x10 in two: with windoku and without).
fn sweep(sides: &[usize], windoku: Option<bool>) -> Vec<String> {
    use Constraint::Windows as W;
    let mut none: Vec<(usize, Vec<Constraint>)> = Vec::new();
    let mut proved = Vec::new();
    for &side in sides {
        for mask in 1..16u32 {
            let set: Vec<Constraint> = Constraint::ALL
                .into_iter()
                .enumerate()
                .filter(|(k, _)| mask & 1 << k != 0)
                .map(|(_, c)| c)
                .collect();
            let within = |small: &[Constraint]| small.iter().all(|c| set.contains(c));
            if windoku.is_some_and(|w| w != set.contains(&W))
                || none.iter().any(|(s, n)| *s == side && within(n))
            {
                continue;
            }
            let mut rules = Rules::new(Size::of_side(side).expect("a side"));
            set.iter().for_each(|&c| rules.add(c));
            let matrix = Matrix::new(&rules);
            let mut generator = Generator::general(&matrix);
            // One seed for every set: a fill's time varies much with the seed (figures in
            // `benches/RESULTS.md`), and the budget must hold for each.
            match generator.full_grid(0) {
                Ok(grid) => {
                    assert_eq!(grid.givens(), side * side, "{}: a full grid", rules.describe());
                    assert_eq!(grid.check(), Ok(()), "{}: {}", rules.describe(), grid.to_text());
                    assert_eq!(matrix.solver().count(&grid, Some(2)).unwrap(), 1);
                }
                Err(GenerateError::NoGrid(_)) => {
                    proved.push(rules.describe());
                    none.push((side, set));
                }
                Err(e) => panic!("{}: {e}", rules.describe()),
            }
        }
    }
    proved
}

#[test]
fn every_rule_combination_has_a_grid_or_a_proof_of_none_to_9x9() {
    let proved = sweep(&[4, 6, 8, 9], None);
    let expected = [
        "4x4 anti-king",
        "4x4 diagonal anti-knight",
        "6x6 diagonal windoku",
        "6x6 diagonal anti-king",
        "6x6 diagonal anti-knight",
        "6x6 anti-king anti-knight",
        "8x8 windoku anti-knight",
        "8x8 diagonal anti-king anti-knight",
        "9x9 diagonal windoku anti-knight",
        "9x9 diagonal anti-king anti-knight",
        "9x9 windoku anti-king anti-knight",
    ];
    assert_eq!(proved, expected);
}

#[test]
fn every_rule_combination_has_a_grid_or_a_proof_of_none_on_10x10() {
    assert_eq!(sweep(&[10], Some(false)), ["10x10 diagonal anti-king anti-knight"]);
}

#[test]
fn every_rule_combination_with_windoku_has_a_grid_or_a_proof_of_none_on_10x10() {
    let expected = ["10x10 diagonal windoku anti-knight", "10x10 windoku anti-king anti-knight"];
    assert_eq!(sweep(&[10], Some(true)), expected);
}

#[test]
fn every_rule_combination_has_a_grid_or_a_proof_of_none_on_12x12_and_14x14() {
    assert_eq!(sweep(&[12, 14], None), Vec::<String>::new());
}

#[test]
fn every_rule_combination_has_a_grid_or_a_proof_of_none_on_15x15_and_16x16() {
    assert_eq!(sweep(&[15, 16], None), Vec::<String>::new());
}

/// A full grid is a function of the rules and the seed: the matrix remembers the last one
/// found, a second generator on it takes that one for the same seed, and a generator on a
/// new matrix of the rules finds the same again.
#[test]
fn full_grids_are_remembered_by_seed() {
    let mut rules = Rules::new(Size::of_side(12).expect("a side"));
    rules.add(Constraint::AntiKnight);
    let matrix = Matrix::new(&rules);
    let first = Generator::general(&matrix).full_grid(7).unwrap();
    assert_eq!(matrix.remembered_grid(7), Some(first.clone()));
    assert_eq!(matrix.remembered_grid(8), None);
    assert_eq!(Generator::general(&matrix).full_grid(7).unwrap(), first);
    assert_eq!(Generator::general(&Matrix::new(&rules)).full_grid(7).unwrap(), first);
    assert_ne!(Generator::general(&matrix).full_grid(8).unwrap(), first);
    assert_eq!(matrix.remembered_grid(7), None, "the last grid only");
}

/// Jigsaw maps that a box shift (and the half turn) keeps: the map is kept by every element
/// of the group, a quarter of the cells or more left their box, and a grid the same shift
/// keeps is found for 16x16 anti-knight, where free maps find none (`benches/RESULTS.md`),
/// and obeys the map.
#[test]
fn maps_a_shift_keeps_have_grids_the_shift_keeps() {
    let mut base = Rules::new(Size::of_side(16).expect("a side"));
    base.add(Constraint::AntiKnight);
    let (side, cells) = (16, 256);
    let half_turn: Vec<usize> = (0..cells).rev().collect();
    let mut found = 0;
    for seed in 0..3 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (down, right) = *box_shifts(base.size()).choose(&mut rng).unwrap();
        let shift: Vec<usize> =
            (0..cells).map(|c| ((c / side + down) % side) * side + (c % side + right) % side).collect();
        let group = closure(cells, &[shift, half_turn.clone()]);
        assert!(group.len() >= 3, "the half turn, the shift and their product at least");
        let Some(rules) = moved_map(&base, &group, &mut rng) else { continue };
        assert!(group.iter().all(|g| keeps(rules.regions(), g)));
        let moved = rules.regions().iter().zip(base.regions()).filter(|(a, b)| a != b).count();
        assert!(moved >= cells / 8, "{moved} cells out of their box");
        let matrix = Matrix::new(&rules);
        let rules = Arc::new(rules);
        if let Some(grid) = symmetric_grid_under(&matrix, &rules, &[(down, right)], &mut rng, None).unwrap() {
            assert_eq!(grid.check(), Ok(()));
            assert_eq!(matrix.solver().count(&grid, Some(2)).unwrap(), 1);
            found += 1;
        }
    }
    assert!(found > 0, "no grid on three maps");
}

/// The candidates the techniques leave keep every solution: counts over them equal plain
/// counts, and the full grid's digits are among them, on puzzles with few clues left.
#[test]
fn searching_over_the_candidates_left_counts_the_same() {
    for (shape, constraint) in [
        ("2x3", None),
        ("3x3", None),
        ("3x3", Some(Constraint::Windows)),
        ("2x4", Some(Constraint::AntiKnight)),
    ] {
        let mut rules = Rules::new(shape.parse().expect("a size"));
        if let Some(c) = constraint {
            rules.add(c);
        }
        let matrix = Matrix::new(&rules);
        let mut generator = Generator::new(&matrix);
        let logic = AnyShape::of(&rules);
        for seed in 0..3 {
            let full = generator.full_grid(seed).expect("a grid");
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut puzzle = full.clone();
            let cells = rules.size().cells();
            for cell in 0..cells {
                if rng.random_ratio(3 + u32::try_from(seed).expect("small"), 12) {
                    puzzle.set(cell, 0);
                }
            }
            let candidates = candidates(&logic, &puzzle).expect("the givens come from a full grid");
            for (cell, mask) in candidates.iter().enumerate() {
                assert_ne!(mask & 1 << (full.get(cell) - 1), 0, "{} at {cell}", puzzle.to_text());
            }
            let mut solver = matrix.solver();
            let plain = solver.count(&puzzle, Some(20)).expect("no budget");
            solver.load(&puzzle).expect("the givens of a full grid");
            for (cell, &mask) in candidates.iter().enumerate() {
                for digit in (1..=rules.size().side()).filter(|d| mask & 1 << (d - 1) == 0) {
                    let digit = u8::try_from(digit).expect("small");
                    solver.engine().exclude(matrix.option(cell, digit)).expect("an option of the matrix");
                }
            }
            let narrowed = solver.engine().count_up_to(20).expect("no budget");
            assert_eq!(plain, narrowed, "{}", puzzle.to_text());
        }
    }
}

/// The one generator hands a 9x9 variant's rules to the 9x9 generator: puzzle `i` of a run (with
/// a level and without; not easing) is the 9x9 generator's, its solution and its level too, and so
/// is the even-cell variant's through `for_variant`.
#[test]
fn a_variants_run_is_the_9x9_generators() {
    use crate::Level;
    for variant in Variant::ALL {
        let matrix = Matrix::new(&Rules::from(variant));
        let mut one = Generator::for_variant(&matrix, variant).expect("the variant's matrix");
        let mut nine = nine::Generator::over(matrix.problem(), variant);
        for run in [Run::new(3), Run { level: Some(Level::Medium), ..Run::new(4) }] {
            for index in 0..4 {
                let made = one.generate_in(&run, index, &mut |_, _| {}).unwrap();
                let expected = nine.generate_in_unless(&run, index, || false).expect("not stopped").unwrap();
                let (puzzle, solution) = (made.generated.puzzle.to_nine(), made.generated.solution.to_nine());
                assert_eq!(puzzle, Some(expected.generated.puzzle), "{variant} {run:?} {index}");
                assert_eq!(solution, Some(expected.generated.solution), "{variant} {run:?} {index}");
                assert_eq!(made.logic.map(|l| l.level()), expected.logic.map(|l| l.level()));
                assert_eq!((made.seed, made.attempts), (expected.seed, expected.attempts));
            }
        }
    }
}

/// The general machinery alone (what the one generator uses for every other rule set) makes
/// unique, minimal puzzles of a 9x9 variant's rules too, which the engine counts as one.
#[test]
fn the_general_machinery_makes_a_variants_puzzles() {
    for variant in Variant::ALL.into_iter().filter(|&v| v != Variant::Even) {
        let matrix = Matrix::new(&Rules::from(variant));
        let mut general = Generator::general(&matrix);
        for seed in 0..3 {
            let made = general.generate(Symmetry::Rotational, seed, &mut |_, _| {}).unwrap();
            let puzzle = &made.puzzle;
            assert!(puzzle.is_solved_by(&made.solution), "{variant}");
            assert_eq!(matrix.solver().count(puzzle, Some(2)).unwrap(), 1, "{variant} {}", puzzle.to_text());
            for orbit in Symmetry::Rotational.orbits() {
                if puzzle.get(orbit[0]) == 0 {
                    continue;
                }
                let mut fewer = puzzle.clone();
                for &cell in &orbit {
                    fewer.set(cell, 0);
                }
                assert_eq!(
                    matrix.solver().count(&fewer, Some(2)).unwrap(),
                    2,
                    "{variant}: {orbit:?} not needed"
                );
            }
        }
    }
}
