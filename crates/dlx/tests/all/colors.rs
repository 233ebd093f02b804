//! Problems with colors (Knuth's XCC, Algorithm C): the engine against brute force on random
//! small problems, Knuth's example, forcing and excluding, and the `.dlx` round trip.

use crate::common;
use std::collections::BTreeSet;

use crate::common::{all, subsets};

use std::ops::ControlFlow;

use dlx_engine::{
    Branching, Budget, Counting, ForceError, ItemId, Memo, OptionId, Problem, ProblemBuilder, Solution,
    Solver, TieBreak,
};
use proptest::prelude::*;

/// A random problem with colors: `primary` + `secondary` items; each option a list of
/// `(item, color)`, colors (1-3) only on secondary items.
#[derive(Debug, Clone)]
struct Spec {
    primary: usize,
    secondary: usize,
    options: Vec<Vec<(usize, Option<u8>)>>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..=5, 1usize..=3).prop_flat_map(|(primary, secondary)| {
        let n = primary + secondary;
        let option = (
            proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(4)),
            0..primary,
            proptest::collection::vec(prop_oneof![Just(None), (1u8..=3).prop_map(Some)], 4),
        )
            .prop_map(move |(mut items, extra_primary, colors)| {
                if !items.iter().any(|&i| i < primary) {
                    items.push(extra_primary);
                }
                items
                    .into_iter()
                    .zip(colors.into_iter().cycle())
                    .map(|(i, c)| (i, if i < primary { None } else { c }))
                    .collect::<Vec<_>>()
            })
            .prop_shuffle();
        proptest::collection::vec(option, 0..=14).prop_map(move |options| Spec {
            primary,
            secondary,
            options,
        })
    })
}

/// A wider random problem with colors: 2-6 primary items and 60-80 secondary ones (so that sets
/// of options and of secondary items take more than one word on bit sets), 40-150 options of one
/// or two primary items and two to five secondary ones, with two colors (or none), so that
/// options often agree.
fn wide_spec() -> impl Strategy<Value = Spec> {
    (2usize..=6, 60usize..=80).prop_flat_map(|(primary, secondary)| {
        let option = (
            proptest::sample::subsequence((0..primary).collect::<Vec<_>>(), 1..=2),
            proptest::collection::vec(
                (0..secondary, prop_oneof![Just(None), (1u8..=2).prop_map(Some)]),
                2..=5,
            ),
        )
            .prop_map(move |(primaries, secondaries)| {
                let mut items: Vec<_> = primaries.into_iter().map(|i| (i, None)).collect();
                for (i, c) in secondaries {
                    if !items.iter().any(|&(j, _)| j == primary + i) {
                        items.push((primary + i, c));
                    }
                }
                items
            })
            .prop_shuffle();
        proptest::collection::vec(option, 40..=150).prop_map(move |options| Spec {
            primary,
            secondary,
            options,
        })
    })
}

fn build(spec: &Spec) -> Problem {
    let mut b = ProblemBuilder::new();
    // Every other primary item named for Knuth's `#` convention.
    let name = |k: usize| if k % 2 == 1 { format!("#p{k}") } else { format!("p{k}") };
    let mut ids: Vec<ItemId> = (0..spec.primary).map(|k| b.primary(name(k)).unwrap()).collect();
    ids.extend((0..spec.secondary).map(|k| b.secondary(format!("s{k}")).unwrap()));
    let names = ["", "red", "green", "blue"];
    for option in &spec.options {
        b.option_with_colors(option.iter().map(|&(i, c)| (ids[i], c.map(|c| names[usize::from(c)]))))
            .unwrap();
    }
    b.build()
}

/// Whether a set of options is a solution, checked against the definition: each primary item
/// exactly once; each secondary item either at most once without a color, or only with one color.
fn is_solution(spec: &Spec, chosen: &[usize]) -> bool {
    let n = spec.primary + spec.secondary;
    let mut uses = vec![Vec::new(); n];
    for &k in chosen {
        for &(i, c) in &spec.options[k] {
            uses[i].push(c);
        }
    }
    uses[..spec.primary].iter().all(|u| u.len() == 1)
        && uses[spec.primary..].iter().all(|u| match u.as_slice() {
            [] | [_] => true,
            [first, rest @ ..] => first.is_some() && rest.iter().all(|c| c == first),
        })
}

/// Every solution, by trying all subsets of options.
fn brute_force(spec: &Spec) -> BTreeSet<Vec<OptionId>> {
    subsets(spec.options.len(), |chosen| is_solution(spec, chosen))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The same solutions as brute force, by the iterator, the count and seeded runs; the links
    /// come back as they were.
    #[test]
    fn same_solutions_as_brute_force(spec in spec(), seed in any::<u64>()) {
        let problem = build(&spec);
        let expected = brute_force(&spec);
        let mut solver = Solver::new(&problem);
        for tie_break in TieBreak::ALL {
            solver.set_tie_break(tie_break);
            prop_assert_eq!(&all(&mut solver), &expected);
            solver.verify_links().unwrap();
        }
        // A budget cuts the search short without harm: an error, then the same answer.
        solver.set_budget(Budget { nodes: Some(2), updates: None });
        if let Err(e) = solver.count() {
            prop_assert!(e.solutions <= expected.len() as u128);
        }
        solver.verify_links().unwrap();
        solver.set_budget(Budget::default());
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
        solver.verify_links().unwrap();
        // With the memo: the same count, also with a budget that stops it first (a table of
        // the levels it finished, exact, that the next count takes up).
        let mut memo = Solver::new(&problem);
        memo.set_memo(Memo::Always);
        memo.set_budget(Budget { nodes: Some(3), updates: None });
        let _ = memo.count_exact();
        memo.set_budget(Budget::default());
        prop_assert_eq!(memo.count_exact().unwrap(), expected.len() as u128);
        prop_assert!(memo.memo_stats().is_some(), "the memo was taken");
        // Its ZDD: every solution, no other (colors agreeing), counted by size.
        common::check_zdd(&mut memo, &expected);
        // Draws at random: each a solution, colors agreeing.
        for s in memo.sample(20, seed).unwrap() {
            prop_assert!(expected.contains(&common::sorted(s)));
        }
        prop_assert_eq!(solver.first().unwrap().is_some(), !expected.is_empty());
        solver.verify_links().unwrap();
        solver.set_seed(Some(seed));
        prop_assert_eq!(&all(&mut solver), &expected);
        solver.verify_links().unwrap();
        // Written and read back, the problem is the same.
        prop_assert_eq!(&Problem::parse_dlx(&problem.to_dlx()).unwrap(), &problem);
    }

    /// Forcing one option and excluding another gives the solutions that contain the one and not
    /// the other; undoing both gives back every solution.
    #[test]
    fn forcing_and_excluding(spec in spec(), k in any::<prop::sample::Index>(), j in any::<prop::sample::Index>()) {
        prop_assume!(!spec.options.is_empty());
        let problem = build(&spec);
        let expected = brute_force(&spec);
        let (k, j) = (k.index(spec.options.len()), j.index(spec.options.len()));
        let (ok, oj) = (OptionId::new(k).unwrap(), OptionId::new(j).unwrap());
        let mut solver = Solver::new(&problem);
        // A single option can always be forced (it conflicts with nothing yet).
        solver.force(ok).unwrap();
        let with_k: BTreeSet<_> = expected.iter().filter(|s| s.contains(&ok)).cloned().collect();
        prop_assert_eq!(&all(&mut solver), &with_k);
        solver.verify_links().unwrap();
        let excluded = if j == k {
            // The forced option itself cannot be excluded: a contradiction, refused (issue 49).
            prop_assert_eq!(solver.exclude(oj), Err(ForceError::Forced(oj)));
            false
        } else {
            solver.exclude(oj).unwrap()
        };
        if j == k {
            prop_assert_eq!(&all(&mut solver), &with_k);
        } else {
            let without_j: BTreeSet<_> = with_k.iter().filter(|s| !s.contains(&oj)).cloned().collect();
            prop_assert_eq!(&all(&mut solver), &without_j);
            // Unavailable only when no solution with k has it.
            prop_assert!(excluded || without_j == with_k);
        }
        solver.verify_links().unwrap();
        // Forcing j too: refused exactly when no solution has both.
        if excluded {
            solver.undo();
        }
        let both: BTreeSet<_> = with_k.iter().filter(|s| s.contains(&oj)).cloned().collect();
        if j != k {
            match solver.force(oj) {
                Ok(()) => {
                    prop_assert_eq!(&all(&mut solver), &both);
                    solver.undo();
                }
                // Refused: j shares an item with k, or gives an item of k another color.
                Err(_) => prop_assert!(both.is_empty()),
            }
        }
        solver.reset();
        prop_assert_eq!(&all(&mut solver), &expected);
        solver.verify_links().unwrap();
        // With the memo, one table over every state: k forced, j excluded, neither.
        solver.set_memo(Memo::Always);
        solver.force(ok).unwrap();
        prop_assert_eq!(solver.count().unwrap(), with_k.len() as u64);
        if j != k && solver.exclude(oj).unwrap() {
            let without_j = with_k.iter().filter(|s| !s.contains(&oj)).count();
            prop_assert_eq!(solver.count().unwrap(), without_j as u64);
        }
        solver.reset();
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
        solver.verify_links().unwrap();
    }
}

/// A count (`Ok(count)`, or `Err` with its reason and the solutions so far) and its figures, then
/// a visit's solutions in order, outcome and figures.
type Runs =
    ((Result<u64, String>, dlx_engine::Stats), (Vec<Vec<OptionId>>, Result<bool, String>, dlx_engine::Stats));

/// Counts (to `limit`, if any), then visits (stopping after `limit` solutions, if any).
fn count_and_visit(solver: &mut Solver<'_>, limit: Option<u64>) -> Runs {
    let counted = match limit {
        None => solver.count(),
        Some(k) => solver.count_up_to(k),
    };
    let counted = (counted.map_err(|e| format!("{:?} {}", e.reason, e.solutions)), solver.stats());
    let mut seen = Vec::new();
    let visited = solver.visit(&mut |s: &Solution<'_>| {
        seen.push(s.to_vec());
        if limit.is_some_and(|k| seen.len() as u64 >= k) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let visited =
        visited.map(|f| f == dlx_engine::Finished::Exhausted).map_err(|e| format!("{:?}", e.reason));
    (counted, (seen, visited, solver.stats()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// Counts and visits on bit sets are those on the links, figure for figure (nodes, guesses,
    /// updates, cleansings) and solution for solution in the same order: to the end, to a limit,
    /// under a budget of nodes, with an option forced and another excluded, under each branching
    /// rule. On small problems
    /// (whose solutions brute force checks) and on wide ones, whose sets take several words.
    #[test]
    fn bit_sets_agree_with_the_links(
        spec in prop_oneof![spec(), wide_spec()],
        forced in any::<prop::sample::Index>(),
        excluded in any::<prop::sample::Index>(),
        limit in 1u64..4,
        nodes in 0u64..40,
        rule in proptest::sample::select(Branching::ALL.to_vec()),
    ) {
        let problem = build(&spec);
        let n = problem.option_count();
        let runs = |counting: Counting, restrict: bool| {
            let mut solver = Solver::new(&problem);
            solver.set_counting(counting);
            solver.set_branching(rule);
            // The figures of the search itself (the memo's are its own).
            solver.set_memo(Memo::Never);
            if restrict && n > 0 {
                let _ = solver.force(OptionId::new(forced.index(n)).unwrap());
                let _ = solver.exclude(OptionId::new(excluded.index(n)).unwrap());
            }
            let mut runs = Vec::new();
            for budget in [Budget::default(), Budget { nodes: Some(nodes), updates: None }] {
                solver.set_budget(budget);
                for limit in [None, Some(limit)] {
                    runs.push(count_and_visit(&mut solver, limit));
                    solver.verify_links().unwrap();
                }
            }
            runs
        };
        for restrict in [false, true] {
            let links = runs(Counting::Links, restrict);
            let bits = runs(Counting::BitSets, restrict);
            prop_assert_eq!(&links, &bits, "restricted: {}", restrict);
            if !restrict && spec.options.len() <= 14 {
                let expected = brute_force(&spec);
                prop_assert_eq!(&links[0].0.0, &Ok(expected.len() as u64));
                let seen: BTreeSet<_> = links[0].1.0.iter().cloned().map(common::sorted).collect();
                prop_assert_eq!(seen, expected);
            }
        }
    }
}

/// The word squares fixture (4x4, 17,460 squares) counted and visited on bit sets, as on the
/// links: every figure, and every solution in the same order; the same in subtrees of a split,
/// whose figures add up to the whole's.
#[test]
fn word_squares_on_bit_sets() {
    let text = std::fs::read_to_string(common::fixture("word-squares4.dlx")).unwrap();
    let problem = Problem::parse_dlx(&text).unwrap();
    let mut runs = Vec::new();
    for counting in [Counting::Links, Counting::BitSets] {
        let mut solver = Solver::new(&problem);
        solver.set_counting(counting);
        let whole = count_and_visit(&mut solver, None);
        assert_eq!(whole.0.0, Ok(17_460));
        let split = solver.split(64).unwrap();
        let mut sum = split.stats;
        let mut pieces = Vec::new();
        for subtree in &split.subtrees {
            let count = solver.count_subtree(subtree).unwrap();
            let stats = solver.stats();
            sum.add(&stats);
            pieces.push((count, stats));
        }
        assert_eq!(sum, whole.0.1, "{counting:?}");
        runs.push((whole, pieces));
    }
    assert_eq!(runs[0], runs[1]);
}

/// DLX2's own example (without its option that has no primary item): one solution.
#[test]
fn knuths_example() {
    let text = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\n";
    let problem = Problem::parse_dlx(text).unwrap();
    assert!(problem.has_colors());
    let mut solver = Solver::new(&problem);
    let solutions: Vec<Vec<String>> = solver
        .solutions()
        .map(|s| s.unwrap().into_iter().map(|o| problem.display_option(o).to_string()).collect())
        .collect();
    assert_eq!(solutions, [["A C X:1 Y:1", "B X:1"]]);
    // As DLX2 reports on this input: X:0, Y:0, X:1 and Y:1 each purified once, and `B X:1`
    // cleansed when `A C X:1 Y:1` gives X the color 1.
    assert_eq!(solver.stats().cleansings, 5);
    assert_eq!(problem.to_dlx(), "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\n");
    // The whole example has an option with no primary item: the strict reader refuses it, Knuth's
    // way skips it and says which line.
    let whole = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";
    let e = Problem::parse_dlx(whole).unwrap_err();
    assert_eq!((e.line, e.kind), (4, dlx_engine::ParseErrorKind::NoPrimaryItem));
    let read = Problem::read_dlx(whole.as_bytes()).unwrap();
    assert_eq!((read.problem, read.skipped), (problem, vec![4]));
}

/// The builder's errors for colors: on a primary item, or not a name.
#[test]
fn color_errors() {
    let mut b = ProblemBuilder::new();
    let (a, x) = (b.primary("a").unwrap(), b.secondary("x").unwrap());
    let e = b.option_with_colors([(a, Some("red")), (x, None)]).unwrap_err();
    assert_eq!(e.to_string(), "option 0 gives primary item `a` a color; only secondary items take colors");
    for bad in ["", "r d", "r:d", "r|d"] {
        assert!(b.option_with_colors([(a, None), (x, Some(bad))]).is_err(), "{bad:?}");
    }
    assert_eq!(b.option_count(), 0, "nothing was added");
    b.option_with_colors([(a, None), (x, Some("red"))]).unwrap();
    assert!(b.build().has_colors());
}
