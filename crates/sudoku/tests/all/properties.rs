//! Property tests: random grids of each variant with clues removed, checked against a plain
//! backtracking counter written here, the `.dlx` output, and print-then-parse round trips.

use crate::common;
use dlx_sudoku::{
    Defaults, Generator, Matrix, Parity, Puzzle, RuleError, Rules, SolveError, Variant, parse_block,
    parse_puzzle,
};
use proptest::prelude::*;

/// A random puzzle of `variant`: a full grid relabelled by a random digit permutation, some
/// clues removed, and (even-cell variant) some empty cells holding even digits marked.
fn puzzle(variant: Variant) -> impl Strategy<Value = Puzzle> {
    // A random full grid.
    let base = Generator::new(&Matrix::new(&Rules::from(variant))).full_grid(1).expect("a full grid");
    (Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(), proptest::collection::vec(0u8..4, 81)).prop_map(
        move |(perm, fate)| {
            let mut p = Puzzle::new(Rules::from(variant));
            for cell in 0..81 {
                let digit = perm[usize::from(base.get(cell)) - 1];
                match fate[cell] {
                    0 => {} // removed
                    1 if variant == Variant::Even && digit % 2 == 0 => {
                        p.rules_mut().set_parity(cell, Parity::Even)
                    }
                    _ => p.set(cell, digit),
                }
            }
            p
        },
    )
}

fn check(variant: Variant, p: Puzzle) -> Result<(), TestCaseError> {
    const LIMIT: u64 = 40;
    let matrix = Matrix::new(p.rules());
    let mut solver = matrix.solver();
    let count = solver.count(&p, Some(LIMIT)).unwrap();
    prop_assert_eq!(count, common::count(&p, variant, LIMIT));
    prop_assert!(count >= 1, "a puzzle cut from a full grid has a solution");
    for s in solver.solutions(&p).unwrap().take(5) {
        let s = s.unwrap();
        prop_assert!(p.is_solved_by(&s), "{:?} does not solve {:?}", s, p);
    }
    let text = matrix.puzzle_to_dlx(&p);
    let problem = dlx_engine::Problem::parse_dlx(&text).unwrap();
    prop_assert_eq!(dlx_engine::Solver::new(&problem).count_up_to(LIMIT).unwrap(), count);
    prop_assert_eq!(&p.to_text().parse::<Puzzle>().unwrap(), &p);
    let block = parse_block(p.to_block().lines(), &Defaults { size: Some(p.size()), ..Default::default() });
    prop_assert_eq!(block.map(|b| b.cells().to_vec()), Ok(p.cells().to_vec()));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn classic_counts_agree(p in puzzle(Variant::Classic)) {
        check(Variant::Classic, p)?;
    }

    #[test]
    fn diagonal_counts_agree(p in puzzle(Variant::Diagonal)) {
        check(Variant::Diagonal, p)?;
    }

    #[test]
    fn even_counts_agree(p in puzzle(Variant::Even)) {
        check(Variant::Even, p)?;
    }

    #[test]
    fn windoku_counts_agree(p in puzzle(Variant::Windoku)) {
        check(Variant::Windoku, p)?;
    }

    #[test]
    fn anti_king_counts_agree(p in puzzle(Variant::AntiKing)) {
        check(Variant::AntiKing, p)?;
    }
}

/// The windoku windows, written out here: the 3x3 squares whose top-left cells are r2c2, r2c6,
/// r6c2 and r6c6, as the library's units name them, and nothing else beyond the classic units.
#[test]
fn windoku_windows_are_the_four_squares() {
    use dlx_sudoku::Unit;
    let units = Variant::Windoku.units();
    assert_eq!(units.len(), 31);
    assert_eq!(&units[..27], Variant::Classic.units());
    for (w, (top, left)) in [(1, 1), (1, 5), (5, 1), (5, 5)].into_iter().enumerate() {
        let mut expected: Vec<usize> = Vec::new();
        for r in top..top + 3 {
            for c in left..left + 3 {
                expected.push(r * 9 + c);
            }
        }
        let unit = Unit::Window(u8::try_from(w).unwrap());
        assert_eq!(units[27 + w], unit);
        assert_eq!(unit.nine_cells().map(|c| c.to_vec()), Some(expected), "window {}", w + 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `check` finds a repeated digit exactly when some unit holds one, for every variant.
    #[test]
    fn check_finds_every_repeat(givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..14)) {
        for variant in [Variant::Classic, Variant::Diagonal] {
            let mut p = Puzzle::new(Rules::from(variant));
            for &(cell, digit) in &givens {
                p.set(cell, digit);
            }
            let repeated = variant.units().iter().filter_map(|u| u.nine_cells()).any(|cells| {
                let digits: Vec<u8> = cells.iter().map(|&c| p.get(c)).filter(|&d| d != 0).collect();
                (1..=9).any(|d| digits.iter().filter(|&&x| x == d).count() > 1)
            });
            match p.check() {
                Ok(()) => prop_assert!(!repeated, "{variant}: missed a repeat in {p:?}"),
                Err(RuleError::Repeated { digit, unit, first, second }) => {
                    prop_assert!(repeated);
                    let cells = unit.nine_cells().expect("a unit of the 9x9 grid");
                    prop_assert!(cells.contains(&first.cell) && cells.contains(&second.cell) && first != second);
                    let written = |cell: usize| char::from(b'0' + p.get(cell));
                    prop_assert_eq!((written(first.cell), written(second.cell)), (digit, digit));
                }
                Err(other) => prop_assert!(false, "unexpected {other}"),
            }
        }
    }

    /// The solver refuses a puzzle exactly when `check` does, with the same error: it checks
    /// only when the engine refuses a given, so this holds for repeats, forbidden moves and odd
    /// digits in cells marked even, for every variant.
    #[test]
    fn solver_reports_what_check_finds(
        givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..14),
        marks in proptest::collection::vec(0usize..81, 0..6),
    ) {
        for variant in Variant::ALL {
            let mut p = Puzzle::new(Rules::from(variant));
            for &(cell, digit) in &givens {
                p.set(cell, digit);
            }
            for &cell in &marks {
                p.rules_mut().set_parity(cell, Parity::Even);
            }
            let matrix = Matrix::new(p.rules());
            let mut solver = matrix.solver();
            // Loading the puzzle is what refuses it. A sparse grid's search (one with no
            // solution can take millions of nodes to prove it) is cut short: loaded is enough.
            solver.set_budget(dlx_engine::Budget { nodes: Some(10_000), updates: None });
            let got = solver.first(&p).map(|_| ());
            let got = match got {
                Err(SolveError::Interrupted(_)) => Ok(()),
                got => got,
            };
            match (p.check(), got) {
                (Ok(()), Ok(())) => {}
                (Err(want), Err(SolveError::Rules(got))) => prop_assert_eq!(got, want),
                (want, got) => prop_assert!(false, "{variant}: check {want:?}, solver {got:?}"),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text reads without a panic; each record is a puzzle of 81 cells that prints back to
    /// itself, or an error that names a line inside the text.
    #[test]
    fn reading_any_text_never_panics(
        noise in ".{0,300}",
        shaped in proptest::collection::vec("[0-9.e_|+\\- \\[\\],#x-]{0,90}", 0..14),
    ) {
        for text in [noise, shaped.join("\n")] {
            let lines = text.lines().count().max(1);
            for record in dlx_sudoku::parse_all(&text) {
                prop_assert!(record.line >= 1 && record.line <= lines);
                match record.puzzle {
                    Ok(p) => {
                        let text = p.to_text();
                        prop_assert_eq!(&parse_puzzle(&text, &Defaults::default()).unwrap(), &p, "{}", text);
                        // Solving it never panics either, whatever its givens.
                        let matrix = Matrix::new(p.rules());
                        let _ = matrix.solver().count(&p, Some(2));
                    }
                    Err(e) => prop_assert!(e.line >= 1 && e.line <= lines, "{e}"),
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The commonest lines (81 cells alone, or with a `marks=` field) are read by a path of
    /// their own; a space at the end sends the same line through the general one, and the two
    /// records are the same (the puzzle, its rules and marks, or the error).
    #[test]
    fn the_quick_reading_of_a_line_is_the_general_one(
        cells in "[1-9.]{81}|[0-9._e]{81}|[0-9._ex]{79,82}",
        marks in proptest::option::of("[.e]{81}|[.eoE_]{81}|[.e]{80}"),
        variant in proptest::option::of(prop_oneof![Just("diagonal"), Just("even")]),
    ) {
        let line = match marks {
            Some(marks) => format!("{cells} marks={marks}"),
            None => cells,
        };
        let text = match variant {
            Some(v) => format!("# variant: {v}\n{line}\n"),
            None => format!("{line}\n"),
        };
        let general = text.replace('\n', " \n");
        prop_assert_eq!(dlx_sudoku::parse_all(&text), dlx_sudoku::parse_all(&general), "{}", line);
    }
}
