//! Puzzles of every size and rule set: known counts, every constraint kind against a brute-force
//! enumeration of 4x4 grids, the 9x9 fast path against the general one, and round trips.

use dlx_sudoku::{
    Constraint, Matrix, Parity, Puzzle, Rules, Size, Symmetry, Uniqueness, Variant, parse_puzzle,
};
use dlx_sudoku::{Defaults, parse_block};
use proptest::prelude::*;

fn count(grid: &Puzzle) -> u64 {
    Matrix::new(grid.rules()).solver().count(grid, None).unwrap()
}

#[test]
fn the_empty_4x4_grid_has_288_solutions() {
    assert_eq!(count(&Puzzle::new(Rules::new(Size::of_side(4).unwrap()))), 288);
}

/// The empty 6x6 grid has 28,200,960 solutions with boxes of 2x3 (and of 3x2, its transpose).
/// Relabelling the digits maps the solutions with any first row one to one onto those with first
/// row 123456, so the count is 6! times theirs; counting those keeps the test quick.
#[test]
fn the_empty_6x6_grid_has_28200960_solutions() {
    for shape in ["2x3", "3x2"] {
        let size: Size = shape.parse().unwrap();
        let mut grid = Puzzle::new(Rules::new(size));
        for c in 0..6 {
            grid.set(c, u8::try_from(c + 1).unwrap());
        }
        assert_eq!(count(&grid) * 720, 28_200_960, "{shape}");
    }
}

/// The rules of a 4x4 puzzle, written out independently of the library for the brute force.
#[derive(Clone, Debug)]
struct Spec {
    regions: Vec<usize>,
    diagonals: bool,
    window: bool,
    king: bool,
    knight: bool,
    parity: Vec<u8>, // 0 any, 1 even, 2 odd
    cages: Vec<(Vec<usize>, u32)>,
    givens: Vec<u8>,
}

const MAPS: [&str; 4] = ["AABBAABBCCDDCCDD", "AAABABBBCCCDCDDD", "AAAABBBBCCCCDDDD", "AAABACBBCCBDCDDD"];

impl Spec {
    fn rules(&self) -> Rules {
        let mut rules = Rules::new(Size::of_side(4).unwrap());
        let map: String = self.regions.iter().map(|&k| char::from(b'A' + u8::try_from(k).unwrap())).collect();
        rules.set_regions(&map).unwrap();
        for (on, c) in [
            (self.diagonals, Constraint::Diagonals),
            (self.window, Constraint::Windows),
            (self.king, Constraint::AntiKing),
            (self.knight, Constraint::AntiKnight),
        ] {
            if on {
                rules.add(c);
            }
        }
        for (cell, &p) in self.parity.iter().enumerate() {
            rules.set_parity(cell, [Parity::Any, Parity::Even, Parity::Odd][usize::from(p)]);
        }
        for (cells, sum) in &self.cages {
            rules.add_cage(cells.clone(), *sum).unwrap();
        }
        rules
    }

    fn grid(&self) -> Puzzle {
        Puzzle::with_cells(self.rules(), self.givens.clone()).unwrap()
    }

    /// Whether a full grid obeys every rule, checked directly.
    fn obeys(&self, g: &[u8]) -> bool {
        let distinct = |cells: &mut dyn Iterator<Item = usize>| {
            let mut seen = 0u32;
            for c in cells {
                if seen & 1 << g[c] != 0 {
                    return false;
                }
                seen |= 1 << g[c];
            }
            true
        };
        let rc = |r: usize, c: usize| r * 4 + c;
        (0..4).all(|r| distinct(&mut (0..4).map(|c| rc(r, c))))
            && (0..4).all(|c| distinct(&mut (0..4).map(|r| rc(r, c))))
            && (0..4).all(|k| distinct(&mut (0..16).filter(|&c| self.regions[c] == k)))
            && (!self.diagonals
                || (distinct(&mut (0..4).map(|k| rc(k, k))) && distinct(&mut (0..4).map(|k| rc(k, 3 - k)))))
            && (!self.window || distinct(&mut [5, 6, 9, 10].into_iter()))
            && (0..16usize).all(|a| {
                (0..16usize).all(|b| {
                    let (dr, dc) = ((a / 4).abs_diff(b / 4), (a % 4).abs_diff(b % 4));
                    let king = dr <= 1 && dc <= 1 && a != b;
                    let knight = (dr, dc) == (1, 2) || (dr, dc) == (2, 1);
                    !((self.king && king) || (self.knight && knight)) || g[a] != g[b]
                })
            })
            && (0..16).all(|c| match self.parity[c] {
                1 => g[c].is_multiple_of(2),
                2 => g[c] % 2 == 1,
                _ => true,
            })
            && self.cages.iter().all(|(cells, sum)| {
                distinct(&mut cells.iter().copied())
                    && cells.iter().map(|&c| u32::from(g[c])).sum::<u32>() == *sum
            })
            && (0..16).all(|c| self.givens[c] == 0 || self.givens[c] == g[c])
    }
}

/// Every 4x4 Latin square (576), for the brute force to filter.
fn latin_squares() -> Vec<[u8; 16]> {
    fn fill(g: &mut [u8; 16], cell: usize, out: &mut Vec<[u8; 16]>) {
        if cell == 16 {
            out.push(*g);
            return;
        }
        for d in 1..=4 {
            let (r, c) = (cell / 4, cell % 4);
            if (0..c).all(|k| g[r * 4 + k] != d) && (0..r).all(|k| g[k * 4 + c] != d) {
                g[cell] = d;
                fill(g, cell + 1, out);
            }
        }
        g[cell] = 0;
    }
    let mut out = Vec::new();
    fill(&mut [0; 16], 0, &mut out);
    out
}

fn spec() -> impl Strategy<Value = Spec> {
    // Cages: up to three, each two or three cells in a row or column from a random start.
    let cage = (0usize..16, any::<bool>(), 2usize..=3, 3u32..=9);
    (
        0..MAPS.len(),
        any::<[bool; 4]>(),
        proptest::collection::vec(prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)], 16),
        proptest::collection::vec(cage, 0..=3),
        proptest::collection::vec(prop_oneof![4 => Just(0u8), 1 => 1u8..=4], 16),
    )
        .prop_map(|(map, [diagonals, window, king, knight], parity, cages, givens)| {
            let regions = MAPS[map].bytes().map(|b| usize::from(b - b'A')).collect();
            let mut used = [false; 16];
            let mut kept = Vec::new();
            for (start, across, len, sum) in cages {
                let (r, c) = (start / 4, start % 4);
                let cells: Vec<usize> = (0..len)
                    .map(|k| if across { (r, c + k) } else { (r + k, c) })
                    .filter(|&(r, c)| r < 4 && c < 4)
                    .map(|(r, c)| r * 4 + c)
                    .collect();
                let fits = !cells.is_empty() && dlx_sum_exists(cells.len(), sum);
                if fits && cells.iter().all(|&c| !used[c]) {
                    for &c in &cells {
                        used[c] = true;
                    }
                    kept.push((cells, sum));
                }
            }
            Spec { regions, diagonals, window, king, knight, parity, cages: kept, givens }
        })
}

/// Whether `count` different digits 1-4 add up to `sum` (written out for the strategy).
fn dlx_sum_exists(count: usize, sum: u32) -> bool {
    (0u32..16).any(|set| {
        set.count_ones() as usize == count && (1..=4).filter(|d| set & 1 << (d - 1) != 0).sum::<u32>() == sum
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every constraint kind, alone and combined, counted by the engine and by filtering every
    /// 4x4 Latin square; the witnesses of a uniqueness check obey the rules.
    #[test]
    fn small_grids_match_brute_force(spec in spec()) {
        let squares = latin_squares();
        let brute = squares.iter().filter(|g| spec.obeys(&g[..])).count() as u64;
        let grid = spec.grid();
        let matrix = Matrix::new(grid.rules());
        let mut solver = matrix.solver();
        match solver.count(&grid, None) {
            Ok(n) => prop_assert_eq!(n, brute, "{}", grid.to_text()),
            // Givens that break a rule: no square obeys them.
            Err(e) => prop_assert_eq!(brute, 0, "{}: {}", grid.to_text(), e),
        }
        // One matrix serves puzzles whose even and odd marks differ: one built without them
        // counts the same.
        let mut unmarked = grid.rules().clone();
        for cell in 0..16 {
            unmarked.set_parity(cell, Parity::Any);
        }
        let shared = Matrix::new(&unmarked);
        prop_assert!(shared.fits(grid.rules()));
        match shared.solver().count(&grid, None) {
            Ok(n) => prop_assert_eq!(n, brute, "{}", grid.to_text()),
            Err(e) => prop_assert_eq!(brute, 0, "{}: {}", grid.to_text(), e),
        }
        // The `.dlx` form, counted by the engine alone.
        if grid.check().is_ok() {
            let problem = dlx_engine::Problem::parse_dlx(&shared.puzzle_to_dlx(&grid)).unwrap();
            prop_assert_eq!(dlx_engine::Solver::new(&problem).count().unwrap(), brute, "{}", grid.to_text());
        }
        if let Ok(verdict) = solver.check_unique(&grid) {
            let witnesses = match verdict {
                Uniqueness::None => vec![],
                Uniqueness::Unique(a) => vec![a],
                Uniqueness::Multiple(a, b) => { prop_assert_ne!(&a, &b); vec![a, b] }
            };
            prop_assert_eq!(witnesses.len() as u64, brute.min(2));
            for w in witnesses {
                prop_assert!(spec.obeys(w.cells()), "{} does not obey {}", w.to_line(), grid.to_text());
            }
        }
        // The iterator lists every solution once, each obeying the rules.
        if grid.check().is_ok() {
            let listed: Vec<Puzzle> = solver.solutions(&grid).unwrap().map(Result::unwrap).collect();
            prop_assert_eq!(listed.len() as u64, brute, "{}", grid.to_text());
            let distinct: std::collections::BTreeSet<Vec<u8>> = listed.iter().map(|g| g.cells().to_vec()).collect();
            prop_assert_eq!(distinct.len(), listed.len());
            for w in &listed {
                prop_assert!(spec.obeys(w.cells()), "{} does not obey {}", w.to_line(), grid.to_text());
            }
        }
        // The text form reads back to the same puzzle.
        prop_assert_eq!(parse_puzzle(&grid.to_text(), &Defaults::default()), Ok(grid.clone()));
    }
}

/// The 9x9 generator's puzzles (what a 9x9 variant's rules take inside [`Generator`]) against the
/// engine on their `.dlx` text, an independent path: unique, with the solver's solution, and
/// with one clue fewer, the same count up to 50, for every variant.
#[test]
fn the_9x9_generators_puzzles_agree_with_the_engine() {
    for variant in Variant::ALL {
        let matrix = Matrix::new(&Rules::from(variant));
        let mut generator = dlx_sudoku::Generator::for_variant(&matrix, variant).unwrap();
        for seed in 0..3 {
            let grid = generator.generate(Symmetry::Rotational, seed, &mut |_, _| {}).unwrap().puzzle;
            let general = Matrix::new(grid.rules());
            let Uniqueness::Unique(solution) = general.solver().check_unique(&grid).unwrap() else {
                panic!("{variant}: a generated puzzle is unique")
            };
            assert!(grid.is_solved_by(&solution), "{variant}");
            let engine = |g: &Puzzle, limit: u64| {
                let problem = dlx_engine::Problem::parse_dlx(&general.puzzle_to_dlx(g)).unwrap();
                dlx_engine::Solver::new(&problem).count_up_to(limit).unwrap()
            };
            assert_eq!(engine(&grid, 2), 1, "{variant} {}", grid.to_text());
            // One clue fewer: both count the same, up to 50.
            let cell = (0..81).find(|&c| grid.get(c) != 0).unwrap();
            let mut g = grid.clone();
            g.set(cell, 0);
            let b = general.solver().count(&g, Some(50)).unwrap();
            assert_eq!(engine(&g, 50), b, "{variant} {}", g.to_text());
        }
    }
}

#[test]
fn every_usual_size_solves_and_writes_blocks_that_read_back() {
    for size in Size::USUAL {
        let rules = Rules::new(size);
        let matrix = Matrix::new(&rules);
        let full = matrix.solver().first(&Puzzle::new(rules)).unwrap().expect("a full grid exists");
        assert!(full.is_full());
        assert_eq!(full.check(), Ok(()));
        let back = parse_block(full.to_block().lines(), &Defaults { size: Some(size), ..Default::default() });
        assert_eq!(back, Ok(full.clone()), "{size}");
        let back = parse_puzzle(&full.to_text(), &Defaults::default()).unwrap();
        assert_eq!(back, full);
    }
}

#[test]
fn bad_givens_are_named() {
    let d = Defaults::default();
    let cases = [
        ("11..............", "digit 1 appears twice in row 1 (r1c1, r1c2)"),
        ("1....1..........", "digit 1 appears twice in box 1 (r1c1, r2c2)"),
        ("34.............. cage=5:r1c1,r1c2", "the givens of cage 1 add up to 7, its sum is 5"),
        ("1.........1..... variant=diagonal", "digit 1 appears twice in the main diagonal (r1c1, r3c3)"),
    ];
    for (text, message) in cases {
        let grid = parse_puzzle(text, &d).unwrap();
        let e = Matrix::new(grid.rules()).solver().count(&grid, None);
        assert_eq!(e.unwrap_err().to_string(), message, "{text}");
    }
    let grid = parse_puzzle("..2.2........... variant=anti-knight", &d).unwrap();
    // r1c3 and r2c1 are a knight's move apart.
    let e = Matrix::new(grid.rules()).solver().first(&grid).unwrap_err();
    assert_eq!(e.to_string(), "digit 2 given at r1c3 and r2c1, a knight's move apart");
    let grid = parse_puzzle("......1......... marks=......e.........", &d).unwrap();
    let e = Matrix::new(grid.rules()).solver().first(&grid).unwrap_err();
    assert_eq!(e.to_string(), "odd digit 1 given in even cell r2c3");
}

/// Checks a generated puzzle: its solution is unique and obeys the rules, the clues are the
/// solution's and have the symmetry, and taking away any clue group leaves several solutions.
fn check_generated(rules: &Rules, symmetry: Symmetry, seed: u64) {
    use dlx_sudoku::Generator;
    let matrix = Matrix::new(rules);
    let made = Generator::new(&matrix).generate(symmetry, seed, &mut |_, _| {}).unwrap();
    check_made(&made, symmetry, seed);
}

fn check_made(made: &dlx_sudoku::Generated, symmetry: Symmetry, seed: u64) {
    let rules = made.puzzle.rules();
    let matrix = Matrix::new(rules);
    let (puzzle, solution) = (&made.puzzle, &made.solution);
    let what = format!("{} {symmetry} seed {seed}: {}", rules.describe(), puzzle.to_text());
    let mut solver = matrix.solver();
    assert_eq!(solver.check_unique(puzzle).unwrap(), Uniqueness::Unique(solution.clone()), "{what}");
    assert!(solution.is_full() && solution.check().is_ok(), "{what}");
    let side = rules.size().side();
    for orbit in symmetry.orbits_in(side) {
        let given: Vec<bool> = orbit.iter().map(|&c| puzzle.get(c) != 0).collect();
        assert!(given.iter().all(|&g| g == given[0]), "{what}: not symmetric at {orbit:?}");
        if given[0] {
            assert!(orbit.iter().all(|&c| puzzle.get(c) == solution.get(c)), "{what}");
            let mut fewer = puzzle.clone();
            for &c in &orbit {
                fewer.set(c, 0);
            }
            assert_eq!(solver.count(&fewer, Some(2)).unwrap(), 2, "{what}: not minimal at {orbit:?}");
        }
    }
}

#[test]
fn generated_puzzles_of_every_size_are_unique_minimal_and_symmetric() {
    for (shape, symmetry) in [
        ("2x2", Symmetry::Dihedral),
        ("2x3", Symmetry::Rotational),
        ("3x2", Symmetry::Rotational),
        ("2x4", Symmetry::Mirror),
        ("2x5", Symmetry::Rotational),
        ("3x4", Symmetry::None),
        ("4x4", Symmetry::Rotate90),
    ] {
        let rules = Rules::new(shape.parse().unwrap());
        check_generated(&rules, symmetry, 1);
    }
}

#[test]
fn generated_puzzles_of_every_constraint_obey_it() {
    let six: Size = "2x3".parse().unwrap();
    let eight: Size = "2x4".parse().unwrap();
    let cases: Vec<(Size, Vec<Constraint>)> = vec![
        (six, vec![Constraint::Diagonals]),
        (Size::CLASSIC, vec![Constraint::Windows]),
        (eight, vec![Constraint::AntiKing]),
        (six, vec![Constraint::AntiKnight]),
        (Size::of_side(4).unwrap(), vec![Constraint::Windows, Constraint::Diagonals]),
    ];
    for (size, constraints) in cases {
        let mut rules = Rules::new(size);
        for c in constraints {
            rules.add(c);
        }
        check_generated(&rules, Symmetry::Rotational, 2);
    }
    // Jigsaw regions, marks and cages given by the rules: the puzzle obeys them too.
    let mut rules = Rules::new(six);
    rules.set_regions("AAABBB AACBBB ACCCDD ECCDDD EEEFFD EEFFFF").unwrap_or_else(|e| panic!("{e}"));
    check_generated(&rules, Symmetry::None, 3);
}

#[test]
fn symmetries_that_do_not_fit_the_rules_are_refused() {
    use dlx_sudoku::Generator;
    let rules = Rules::new("2x3".parse().unwrap());
    for (symmetry, fits) in [
        (Symmetry::Rotational, true),
        (Symmetry::Mirror, true),
        (Symmetry::Flip, true),
        (Symmetry::Diagonal, false),
        (Symmetry::Rotate90, false),
    ] {
        let verdict = Generator::check_symmetry(&rules, symmetry);
        assert_eq!(verdict.is_ok(), fits, "{symmetry}: {verdict:?}");
    }
    let mut marked = Rules::new(Size::of_side(4).unwrap());
    marked.set_parity(0, Parity::Even);
    let e = Generator::check_symmetry(&marked, Symmetry::Rotational).unwrap_err();
    assert_eq!(
        e.to_string(),
        "rotational symmetry does not fit a 4x4 even grid: it maps its even and odd cells onto others"
    );
}

#[test]
fn made_up_regions_cages_and_marks_are_obeyed_and_the_puzzles_unique_and_minimal() {
    use dlx_sudoku::{Extras, generate_with_extras};
    let none = &mut |_: usize, _: usize| {};
    let six = Rules::new("2x3".parse().unwrap());
    let nine = Rules::new(Size::CLASSIC);
    // Jigsaw, with and without symmetry: regions that are not the boxes, kept by the symmetry.
    for (rules, symmetry) in [(&six, Symmetry::None), (&nine, Symmetry::Rotational)] {
        let jigsaw = Extras { jigsaw: true, ..Extras::default() };
        let made = generate_with_extras(rules, jigsaw, symmetry, 4, none, None).unwrap();
        assert!(made.puzzle.rules().is_jigsaw());
        assert_ne!(made.puzzle.rules().regions(), rules.regions(), "the regions moved");
        check_made(&made, symmetry, 4);
    }
    // Killer: cages cover the grid, each of different digits adding up to its sum.
    let killer = Extras { killer: true, ..Extras::default() };
    let made = generate_with_extras(&six, killer, Symmetry::None, 5, none, None).unwrap();
    let cages = made.puzzle.rules().cages();
    assert_eq!(cages.iter().map(|c| c.cells.len()).sum::<usize>(), 36);
    for cage in cages {
        let digits: Vec<u8> = cage.cells.iter().map(|&c| made.solution.get(c)).collect();
        assert_eq!(digits.iter().map(|&d| u32::from(d)).sum::<u32>(), cage.sum);
    }
    check_made(&made, Symmetry::None, 5);
    let refused = generate_with_extras(&six, killer, Symmetry::Rotational, 5, none, None);
    assert!(refused.is_err());
    // Even and odd marks: some cells marked, each with its digit's parity.
    let parity = Extras { parity: true, ..Extras::default() };
    let made = generate_with_extras(&nine, parity, Symmetry::Rotational, 6, none, None).unwrap();
    let rules = made.puzzle.rules();
    assert!(rules.has_parity());
    for cell in 0..81 {
        assert!(rules.parity(cell).allows(made.solution.get(cell)));
    }
    check_made(&made, Symmetry::Rotational, 6);
}

/// Every step of an explained solution, for puzzles of several sizes and rules (jigsaw regions,
/// cages and parity marks made up for them too): each placement is the solution's digit, no
/// removed candidate is, and a solved explanation ends on the solution. The steps reach the
/// techniques beyond the levels' on grids other than 9x9.
#[test]
fn every_explained_step_keeps_to_the_solution() {
    use dlx_sudoku::Technique;
    use dlx_sudoku::{Extras, Generated, Generator, explain, generate_with_extras};
    let mut cases: Vec<Rules> = ["2x2", "2x3", "2x4", "3x3", "2x5", "3x4", "4x4"]
        .iter()
        .map(|s| Rules::new(s.parse().unwrap()))
        .collect();
    // (9x9 anti-knight puzzles take long to make: 6x6 ones stand for them.)
    for (size, c) in
        [("3x3", Constraint::Diagonals), ("3x3", Constraint::Windows), ("2x3", Constraint::AntiKnight)]
    {
        let mut rules = Rules::new(size.parse().unwrap());
        rules.add(c);
        cases.push(rules);
    }
    let mut made: Vec<Generated> = Vec::new();
    for rules in &cases {
        let matrix = Matrix::new(rules);
        let mut generator = Generator::new(&matrix);
        for seed in 0..3 {
            made.push(generator.generate(Symmetry::Rotational, seed, &mut |_, _| {}).unwrap());
        }
    }
    for (size, jigsaw, killer, parity) in [
        ("2x3", true, true, false),
        ("2x4", false, true, true),
        ("3x3", false, true, false),
        ("3x3", true, false, true),
    ] {
        let extras = Extras { jigsaw, killer, parity };
        for seed in 0..3 {
            let rules = Rules::new(size.parse().unwrap());
            made.push(
                generate_with_extras(&rules, extras, Symmetry::None, seed, &mut |_, _| {}, None).unwrap(),
            );
        }
    }
    let mut techniques = std::collections::BTreeSet::new();
    let mut beyond = std::collections::BTreeSet::new();
    for made in made {
        {
            let (logic, steps) = explain(&made.puzzle);
            if made.puzzle.size().side() != 9 {
                beyond.extend(steps.iter().map(|s| s.technique).filter(|t| !Technique::LEVELLED.contains(t)));
            }
            for step in &steps {
                techniques.insert(step.technique);
                let line = step.describe(&made.puzzle);
                assert!(!step.placed.is_empty() || !step.removed.is_empty(), "{line}");
                for &(cell, digit) in &step.placed {
                    assert_eq!(made.solution.get(cell), digit, "{line}");
                }
                for &(cell, mask) in &step.removed {
                    assert_eq!(mask & 1 << (made.solution.get(cell) - 1), 0, "{line}");
                }
            }
            if logic.solved {
                assert_eq!(logic.grid, made.solution);
            }
            let counted: u32 = logic.counts.iter().sum();
            assert_eq!(counted as usize, steps.len());
        }
    }
    // The steps reach beyond singles, and beyond the levels' techniques.
    assert!(techniques.len() > 2, "{techniques:?}");
    assert!(beyond.len() >= 2, "{beyond:?}");
}

/// A batch of puzzles of one set of rules holds the rules once: each record read shares the
/// previous one's when they are equal (its solution too), and a record of other rules starts a
/// new copy; changing a puzzle's rules copies them first, leaving the others' as they were.
#[test]
fn puzzles_of_one_batch_share_their_rules() {
    use std::sync::Arc;
    let text = "\
.6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1
.6..4.3.4.....1.3..4.5.....6.4.1..2. 165243324156651432243561532614416325 cage=4:r1c1,r2c1
.6..4.3.4.....1.3..4.5.....6.4.1..2. cage=5:r1c1,r2c2
.6..4.3.4.....1.3..4.5.....6.4.1..2. cage=5:r1c1,r2c2
";
    let records = dlx_sudoku::parse_all(text);
    let grids: Vec<&Puzzle> = records.iter().map(|r| r.puzzle.as_ref().expect("a grid record")).collect();
    let shared = |a: &Puzzle, b: &Puzzle| Arc::ptr_eq(a.shared_rules(), b.shared_rules());
    assert!(shared(grids[0], grids[1]));
    let solution = records[1].solution.as_ref().expect("a solution beside the puzzle");
    assert!(shared(grids[1], solution));
    assert!(!shared(grids[1], grids[2]), "other cages");
    assert!(shared(grids[2], grids[3]));
    let mut changed = grids[3].clone();
    changed.rules_mut().add(Constraint::Diagonals);
    assert!(!shared(&changed, grids[2]) && !grids[2].rules().has(Constraint::Diagonals));
}

/// A budget or a cancel flag stops a search of either solver with an error, never a partial
/// answer, and the solver answers in full once they are lifted.
#[test]
fn a_budget_or_a_cancel_flag_stops_either_solver() {
    use dlx_engine::{Budget, CancelFlag, StopReason};
    use dlx_sudoku::SolveError;
    let tight = Budget { nodes: Some(1000), updates: None };
    // The empty 6x6 grid has 28,200,960 solutions: far more than a thousand nodes to count.
    let grid = Puzzle::new(Rules::new("2x3".parse().unwrap()));
    let matrix = Matrix::new(grid.rules());
    let mut solver = matrix.solver();
    solver.set_budget(tight);
    match solver.count(&grid, None) {
        Err(SolveError::Interrupted(e)) => assert_eq!(e.reason, StopReason::Budget),
        other => panic!("expected the budget to stop the count, got {other:?}"),
    }
    solver.set_budget(Budget::default());
    assert_eq!(solver.count(&grid, Some(5)).unwrap(), 5);
    let empty = Puzzle::new(Rules::from(Variant::Classic));
    let matrix = Matrix::new(empty.rules());
    let mut solver = matrix.solver();
    solver.set_budget(tight);
    match solver.count(&empty, None) {
        Err(SolveError::Interrupted(e)) => assert_eq!(e.reason, StopReason::Budget),
        other => panic!("expected the budget to stop the count, got {other:?}"),
    }
    solver.set_budget(Budget::default());
    let flag = CancelFlag::new();
    flag.cancel();
    solver.set_cancel_flag(Some(flag));
    match solver.count(&empty, None) {
        Err(SolveError::Interrupted(e)) => assert_eq!(e.reason, StopReason::Cancelled),
        other => panic!("expected the flag to stop the count, got {other:?}"),
    }
    solver.set_cancel_flag(None);
    assert_eq!(solver.count(&empty, Some(3)).unwrap(), 3);
}

/// A solution solves a puzzle when it is full, keeps the givens and obeys the puzzle's rules,
/// cages included, whatever rules it was read with.
#[test]
fn a_given_solution_is_checked_against_the_puzzles_rules() {
    let d = Defaults::default();
    let puzzle = parse_puzzle(".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1", &d).unwrap();
    let line = "165243324156651432243561532614416325";
    let solution = parse_puzzle(line, &d).unwrap();
    assert!(puzzle.is_solved_by(&solution));
    // The same grid with two rows exchanged: a Latin square of the boxes still, but not the
    // puzzle's (a given lost), and r1c1 + r2c1 no longer 4.
    let swapped = format!("{}{}{}", &line[6..12], &line[..6], &line[12..]);
    let other = parse_puzzle(&swapped, &d).unwrap();
    assert!(other.check().is_ok() && !puzzle.is_solved_by(&other));
    // A grid that obeys boxes but not the cage: the solution with 1 and 2 exchanged, whose
    // r1c1 + r2c1 is 5, against the cage alone.
    let empty = parse_puzzle(&format!("{} cage=4:r1c1,r2c1", ".".repeat(36)), &d).unwrap();
    let grid: String = line
        .chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect();
    let broken = parse_puzzle(&grid, &d).unwrap();
    assert!(broken.check().is_ok() && !empty.is_solved_by(&broken));
    assert!(empty.is_solved_by(&solution));
    // Not full: no solution.
    let partial = parse_puzzle(&format!(".{}", &line[1..]), &d).unwrap();
    assert!(!empty.is_solved_by(&partial));
}

/// What the writers of headers write, the readers read back: a block under its grid's
/// `# size:` line is the same puzzle (regions, marks and cages in the header), and the cells of
/// a line under its rules' `# size:` line are a puzzle of those rules.
#[test]
fn headers_read_back_to_the_same_puzzles() {
    use dlx_sudoku::{Extras, generate_with_extras};
    let none = &mut |_: usize, _: usize| {};
    let six = Rules::new("2x3".parse().unwrap());
    let all = Extras { jigsaw: true, killer: true, parity: true };
    let made = generate_with_extras(&six, all, Symmetry::None, 8, none, None).unwrap();
    let mut twelve = Rules::new("3x4".parse().unwrap());
    twelve.add(Constraint::AntiKnight);
    twelve.add(Constraint::Diagonals);
    for grid in [made.puzzle, made.solution, Puzzle::new(twelve.clone())] {
        let text = format!("{}\n{}", grid.block_header(), grid.to_block());
        let records = dlx_sudoku::parse_all(&text);
        assert_eq!(records.len(), 1, "{text}");
        assert_eq!(records[0].puzzle.as_ref(), Ok(&grid), "{text}");
    }
    let mut puzzle = Puzzle::new(twelve.clone());
    puzzle.set(0, 5);
    let text = format!("{}\n{}\n", twelve.size_line(), puzzle.to_line());
    assert_eq!(twelve.size_line(), "# size: 3x4 diagonal anti-knight");
    assert_eq!(dlx_sudoku::parse_all(&text)[0].puzzle.as_ref(), Ok(&puzzle), "{text}");
}

/// A variant's `# variant:` line names it to the records below.
#[test]
fn a_variant_line_reads_back() {
    let line = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
    for variant in Variant::ALL {
        let records = dlx_sudoku::parse_all(&format!("{}\n{line}\n", variant.header_line()));
        assert_eq!(records[0].variant, Some(variant));
    }
}

/// The caches a batch is answered with: a classic reading of a diagonal puzzle has several
/// solutions and is unique as diagonal (the hint `dlx solve` gives), and a thread's solvers
/// answer puzzles of any rules, 9x9 variants and others alike, as fresh solvers do.
#[test]
fn a_threads_solvers_answer_every_puzzle_and_give_the_hint() {
    use dlx_sudoku::Matrices;
    // A jigsaw map: the regions of the probe, one label per cell.
    const JIGSAW: &str = "111111222112222223133333333455666666445555566444444556777777778799999988999888888";
    let diagonal_matrix = Matrix::new(&Rules::from(Variant::Diagonal));
    let made = dlx_sudoku::Generator::new(&diagonal_matrix)
        .generate(Symmetry::Rotational, 7, &mut |_, _| {})
        .unwrap();
    let line = made.puzzle.to_line();
    let classic: Puzzle = line.parse().unwrap();
    let matrices = Matrices::new();
    let mut solvers = matrices.solvers();
    let several = solvers.with(&classic, |s| s.check_unique(&classic)).unwrap();
    assert!(matches!(several, Uniqueness::Multiple(..)), "{several:?}");
    assert_eq!(solvers.unique_as(&classic), Some(Variant::Diagonal));
    let jigsaw: Puzzle = format!("{} regions={}", ".".repeat(81), JIGSAW).parse().unwrap();
    for puzzle in [&classic, &jigsaw, &classic] {
        let fresh = Matrix::new(puzzle.rules()).solver().count(puzzle, Some(3)).unwrap();
        assert_eq!(solvers.with(puzzle, |s| s.count(puzzle, Some(3))).unwrap(), fresh);
    }
    let diagonal = Puzzle::with_cells(Rules::from(Variant::Diagonal), classic.cells().to_vec()).unwrap();
    assert_eq!(solvers.unique_as(&diagonal), None, "only classic puzzles get the hint");
}

/// The cells where two grids differ, named as the grid names them: the two witnesses of a
/// puzzle with several solutions differ somewhere, and only where the cell lists say.
#[test]
fn two_witnesses_differ_in_the_cells_listed() {
    let puzzle: Puzzle =
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......9...".parse().unwrap();
    let Uniqueness::Multiple(one, two) = Matrix::new(puzzle.rules()).solver().check_unique(&puzzle).unwrap()
    else {
        panic!("several solutions")
    };
    let listed = one.cells_differing_from(&two);
    assert!(!listed.is_empty());
    for cell in 0..81 {
        let named = listed.iter().any(|at| at.cell == cell);
        assert_eq!(named, one.get(cell) != two.get(cell), "cell {cell}");
    }
    assert!(one.cells_differing_from(&one).is_empty());
    assert_eq!(listed[0].to_string(), format!("r{}c{}", listed[0].cell / 9 + 1, listed[0].cell % 9 + 1));
}
