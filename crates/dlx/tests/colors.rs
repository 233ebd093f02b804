//! Problems with colors (Knuth's XCC, Algorithm C): the engine against brute force on random
//! small problems, Knuth's example, forcing and excluding, and the `.dlx` round trip.

mod common;

use std::collections::BTreeSet;

use common::{all, subsets};

use dlx_engine::{Budget, ItemId, OptionId, Problem, ProblemBuilder, Solver, TieBreak};
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

fn build(spec: &Spec) -> Problem {
    let mut b = ProblemBuilder::new();
    let mut ids: Vec<ItemId> = (0..spec.primary).map(|k| b.primary(format!("p{k}")).unwrap()).collect();
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
            prop_assert!(e.solutions <= expected.len() as u64);
        }
        solver.verify_links().unwrap();
        solver.set_budget(Budget::default());
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
        solver.verify_links().unwrap();
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
        let excluded = solver.exclude(oj).unwrap();
        if j == k {
            // The forced option itself is not available to exclude.
            prop_assert!(!excluded);
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
    }
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
