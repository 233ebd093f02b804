//! The answer policy of `Solvers::answer`: what a record's answer says for each task, and what
//! it checks.

use dlx_sudoku::{Matrices, Status, Task, Uniqueness, Variant, parse_all};

const PUZZLE: &str = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
const SOLUTION: &str = "145327698839654127672918543496185372218473956753296481367542819984761235521839764";

#[test]
fn each_task_answers_the_record() {
    let matrices = Matrices::new();
    let mut solvers = matrices.solvers();
    let record = &parse_all(PUZZLE)[0];
    let solved = solvers.answer(record.clone(), None, Task::Solve { first: false }, None);
    assert_eq!(solved.status, Status::Unique);
    assert_eq!(solved.solution.as_ref().map(|s| s.to_line()), Some(SOLUTION.to_owned()));
    assert!(solved.nodes >= solved.guesses && solved.nodes > 0);
    let json = solved.to_json(Task::Solve { first: false }, Some("p.txt"));
    assert_eq!(json["status"], "unique");
    assert_eq!(json["solution"], SOLUTION);
    assert_eq!((&json["file"], &json["line"], &json["rules"]), (&"p.txt".into(), &1.into(), &"9x9".into()));
    let counted = solvers.answer(record.clone(), None, Task::Count { limit: Some(5), puzzles: false }, None);
    let json = counted.to_json(Task::Count { limit: Some(5), puzzles: false }, None);
    assert_eq!((&json["count"], &json["complete"]), (&1.into(), &true.into()));
    let capped = counted.to_json(Task::Count { limit: Some(1), puzzles: false }, None);
    assert_eq!(capped["complete"], false, "a count that reached its limit may not be all");
    assert_eq!((counted.status, counted.count), (Status::Counted, Some(1)));
    let rated = solvers.answer(record.clone(), None, Task::Rate { explain: true }, None);
    assert_eq!(rated.status, Status::Rated);
    assert_eq!(rated.rating.as_ref().map(|r| r.solutions), Some(1));
    assert!(!rated.steps.is_empty(), "the steps are described");
    let json = rated.to_json(Task::Rate { explain: true }, None);
    let rating = rated.rating.as_ref().unwrap();
    assert_eq!(json["level"], rating.logic.level().name());
    assert_eq!(json["technique"], rating.logic.hardest_name());
    assert_eq!(json["steps"].as_array().map(Vec::len), Some(rated.steps.len()));
    assert!(json["techniques"].as_object().is_some_and(|t| !t.is_empty()));
    let encoded = solvers.answer(record.clone(), None, Task::Encode, None);
    assert_eq!(encoded.status, Status::Encoded);
    let text = encoded.encoding.expect("a .dlx text");
    let problem = dlx_engine::Problem::parse_dlx(&text).unwrap();
    assert_eq!(dlx_engine::Solver::new(&problem).count().unwrap(), 1);
}

/// Givens that break a rule are invalid, and the error names the rule and cells; a record that
/// is malformed says where; a wrong solution given beside a puzzle is named cell by cell.
#[test]
fn what_is_checked_is_said() {
    let matrices = Matrices::new();
    let mut solvers = matrices.solvers();
    let twice = format!("55{}", &PUZZLE[2..]);
    // After a search on the same solver, whose figures must not be reported again.
    assert!(solvers.answer(parse_all(PUZZLE).remove(0), None, Task::Solve { first: false }, None).nodes > 0);
    let a = solvers.answer(parse_all(&twice).remove(0), None, Task::Solve { first: false }, None);
    assert_eq!(a.status, Status::Invalid);
    assert_eq!(a.error.as_deref(), Some("digit 5 appears twice in row 1 (r1c1, r1c2)"));
    assert_eq!((a.nodes, a.guesses), (0, 0), "refused before any search");
    let short = solvers.answer(parse_all("123").remove(0), None, Task::Solve { first: false }, None);
    assert_eq!((short.status, short.error_at), (Status::Invalid, Some((1, None))));
    let wrong = format!("{PUZZLE},{}", SOLUTION.replace("145", "154"));
    let a = solvers.answer(
        parse_all(&format!("puzzle,solution\n{wrong}\n")).remove(0),
        None,
        Task::Solve { first: false },
        None,
    );
    assert_eq!(a.status, Status::Unique);
    let given = a.given.expect("a solution was given").unwrap_err();
    assert!(given.contains("differs from the solution in r1c2, r1c3"), "{given}");
}

/// A classic puzzle with several solutions names a variant as which it is unique, when its rules
/// were not named; named rules are answered as named.
#[test]
fn a_classic_reading_of_a_variants_puzzle_gets_the_hint() {
    let matrices = Matrices::new();
    let mut solvers = matrices.solvers();
    let rules = dlx_sudoku::Rules::from(Variant::Diagonal);
    let matrix = dlx_sudoku::Matrix::new(&rules);
    let made = dlx_sudoku::Generator::for_variant(&matrix, Variant::Diagonal)
        .unwrap()
        .generate(dlx_sudoku::Symmetry::Rotational, 7, &mut |_, _| {})
        .unwrap();
    let line = made.puzzle.to_line();
    let record = &parse_all(&line)[0];
    let classic = solvers.answer(record.clone(), None, Task::Solve { first: false }, None);
    assert_eq!(classic.status, Status::Multiple);
    assert_eq!(classic.unique_as, Some(Variant::Diagonal));
    let named = solvers.answer(record.clone(), Some(Variant::Diagonal), Task::Solve { first: false }, None);
    assert_eq!(
        (named.status, named.unique_as, named.variant),
        (Status::Unique, None, Some(Variant::Diagonal))
    );
    assert!(matches!(matrix.solver().check_unique(&made.puzzle).unwrap(), Uniqueness::Unique(_)));
}

/// Rules other than a variant's (a forbidden move, a 4x4 grid, cages) have their givens checked
/// by the solver, as a variant's are: every task that searches, on either search, names the rule
/// they break, reports no effort, and the same solvers answer the next record.
#[test]
fn other_rules_givens_are_checked_by_every_search() {
    use dlx_sudoku::Search;
    let cases = [
        ("..2.2........... variant=anti-knight", "digit 2 given at r1c3 and r2c1, a knight's move apart"),
        ("1....1..........", "digit 1 appears twice in box 1 (r1c1, r2c2)"),
        ("34.............. cage=5:r1c1,r1c2", "the givens of cage 1 add up to 7, its sum is 5"),
    ];
    let tasks = [
        Task::Solve { first: true },
        Task::Solve { first: false },
        Task::Count { limit: Some(2), puzzles: false },
        Task::Count { limit: None, puzzles: false },
        Task::Rate { explain: false },
    ];
    let matrices = Matrices::new();
    for search in [Search::Auto, Search::Engine] {
        let mut solvers = matrices.solvers();
        solvers.set_search(search);
        for (text, message) in cases {
            let fine = text.replacen(|c: char| c.is_ascii_digit(), ".", 1);
            for task in tasks {
                let a = solvers.answer(parse_all(text).remove(0), None, task, None);
                assert_eq!(
                    (a.status, a.error.as_deref()),
                    (Status::Invalid, Some(message)),
                    "{text} {task:?}"
                );
                assert_eq!((a.nodes, a.guesses), (0, 0), "{text} {task:?}: refused before any search");
                let a = solvers.answer(parse_all(&fine).remove(0), None, task, None);
                assert_eq!(a.error, None, "{fine} {task:?}");
                let searched = if let Task::Rate { .. } = task { a.rating.is_some() } else { a.nodes > 0 };
                assert!(searched, "{fine} {task:?}: answered");
            }
        }
    }
}
