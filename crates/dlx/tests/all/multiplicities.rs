//! Problems with multiplicities (Knuth's MCC, Algorithm M), with and without colors: the engine
//! against brute force on random small problems, DLX3's example, the row-and-column-sums counts,
//! forcing and excluding, and the `.dlx` round trip.

use crate::common;
use std::collections::BTreeSet;

use crate::common::{all, sorted, subsets};

use dlx_engine::{
    Budget, BuildError, ForceError, ItemId, Memo, OptionId, Problem, ProblemBuilder, Solver, StopReason,
    TieBreak,
};
use proptest::prelude::*;

/// A random problem with multiplicities: `bounds.len()` primary items, each with its bounds, and
/// `secondary` items; each option a list of `(item, color)`, colors (1-3) on secondary items only
/// (none at all unless `colored`).
#[derive(Debug, Clone)]
struct Spec {
    bounds: Vec<(u32, u32)>,
    secondary: usize,
    options: Vec<Vec<(usize, Option<u8>)>>,
}

fn spec() -> impl Strategy<Value = Spec> {
    let bounds = (0u32..=2, 0u32..=2).prop_map(|(lower, extra)| (lower, (lower + extra).max(1)));
    (proptest::collection::vec(bounds, 1..=4), 0usize..=2, any::<bool>()).prop_flat_map(
        |(bounds, secondary, colored)| {
            let primary = bounds.len();
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
                        .map(|(i, c)| (i, if i < primary || !colored { None } else { c }))
                        .collect::<Vec<_>>()
                })
                .prop_shuffle();
            proptest::collection::vec(option, 0..=14).prop_map(move |options| Spec {
                bounds: bounds.clone(),
                secondary,
                options,
            })
        },
    )
}

fn build(spec: &Spec) -> Problem {
    let mut b = ProblemBuilder::new();
    let mut ids: Vec<ItemId> = spec
        .bounds
        .iter()
        .enumerate()
        .map(|(k, &(lower, upper))| b.primary_with_bounds(format!("p{k}"), lower..=upper).unwrap())
        .collect();
    ids.extend((0..spec.secondary).map(|k| b.secondary(format!("s{k}")).unwrap()));
    let names = ["", "red", "green", "blue"];
    for option in &spec.options {
        b.option_with_colors(option.iter().map(|&(i, c)| (ids[i], c.map(|c| names[usize::from(c)]))))
            .unwrap();
    }
    b.build()
}

/// Whether a set of options is a solution, checked against the definition: each primary item
/// covered a number of times within its bounds; each secondary item either at most once without a
/// color, or only with one color.
fn is_solution(spec: &Spec, chosen: &[usize]) -> bool {
    let primary = spec.bounds.len();
    let mut uses = vec![Vec::new(); primary + spec.secondary];
    for &k in chosen {
        for &(i, c) in &spec.options[k] {
            uses[i].push(c);
        }
    }
    uses[..primary]
        .iter()
        .zip(&spec.bounds)
        .all(|(u, &(lower, upper))| u32::try_from(u.len()).is_ok_and(|n| (lower..=upper).contains(&n)))
        && uses[primary..].iter().all(|u| match u.as_slice() {
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

    /// The same solutions as brute force, by the iterator, the visitor, the count and seeded runs,
    /// under every tie-break; the links come back as they were, also after a run paused at a
    /// solution or cut short by its budget.
    #[test]
    fn same_solutions_as_brute_force(spec in spec(), seed in any::<u64>()) {
        let problem = build(&spec);
        let expected = brute_force(&spec);
        let mut solver = Solver::new(&problem);
        solver.set_memo(Memo::Never);
        for tie_break in TieBreak::ALL {
            solver.set_tie_break(tie_break);
            prop_assert_eq!(&all(&mut solver), &expected);
            solver.verify_links().unwrap();
        }
        let mut seen = BTreeSet::new();
        solver.for_each(|s| {
            assert!(seen.insert(sorted(s.to_vec())), "a solution is visited twice");
            std::ops::ControlFlow::Continue(())
        }).unwrap();
        prop_assert_eq!(&seen, &expected);
        // With multiplicities, a count makes the visit's nodes and updates, though it takes the
        // null moves that end a solution at once. (Without, a colored count takes the last
        // levels at once, with fewer updates: see `tests/all/split.rs`.)
        let visited = solver.stats();
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
        if problem.has_multiplicities() {
            prop_assert_eq!(solver.stats(), visited);
        }
        // A budget cuts the search short without harm: an error, then the same answer.
        solver.set_budget(Budget { nodes: Some(2), updates: None });
        if let Err(e) = solver.count() {
            prop_assert!(e.solutions <= expected.len() as u128);
            solver.verify_links().unwrap();
        }
        solver.set_budget(Budget::default());
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
        prop_assert_eq!(solver.count_up_to(1).unwrap(), expected.len().min(1) as u64);
        solver.verify_links().unwrap();
        let first = solver.first().unwrap();
        prop_assert_eq!(first.is_some(), !expected.is_empty());
        if let Some(first) = first {
            prop_assert!(expected.contains(&sorted(first)));
        }
        // Paused at its first solution.
        solver.verify_links().unwrap();
        // Preferring a solution's options changes no solution or count.
        if let Some(preferred) = expected.iter().next() {
            solver.set_preferred(preferred).unwrap();
            prop_assert_eq!(&all(&mut solver), &expected);
            prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
            solver.verify_links().unwrap();
            solver.set_preferred(&[]).unwrap();
        }
        for random_ties in [true, false] {
            solver.set_seed(Some(seed));
            solver.set_random_ties(random_ties);
            prop_assert_eq!(&all(&mut solver), &expected);
            prop_assert_eq!(solver.count().unwrap(), expected.len() as u64);
            solver.verify_links().unwrap();
            let mut solutions = solver.solutions();
            let first = solutions.next();
            drop(solutions);
            prop_assert_eq!(first.is_some(), !expected.is_empty());
            solver.verify_links().unwrap();
        }
        // With the memo (the subproblems' remaining bounds in their signatures), the same count;
        // one cut short by a budget leaves the table exact for the next.
        let mut memo = Solver::new(&problem);
        memo.set_memo(Memo::Always);
        memo.set_budget(Budget { nodes: Some(3), updates: None });
        if let Err(e) = memo.count_exact() {
            prop_assert_eq!(e.reason, StopReason::Budget);
        }
        memo.set_budget(Budget::default());
        prop_assert_eq!(memo.count_exact().unwrap(), expected.len() as u128);
        prop_assert!(memo.memo_stats().is_some(), "the memo was taken");
        prop_assert_eq!(memo.zdd().is_err(), problem.has_multiplicities(), "no ZDD with multiplicities");
        // Written and read back, the problem is the same.
        let text = problem.to_dlx();
        let back = Problem::parse_dlx(&text).unwrap();
        prop_assert_eq!(&back, &problem);
        prop_assert_eq!(back.to_dlx(), text);
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
        // A single option can always be forced (every upper bound is 1 or more), but only once.
        solver.force(ok).unwrap();
        prop_assert!(solver.force(ok).is_err());
        let with_k: BTreeSet<_> = expected.iter().filter(|s| s.contains(&ok)).cloned().collect();
        prop_assert_eq!(&all(&mut solver), &with_k);
        // The memo counts from the forced option's bounds.
        let mut memo = Solver::new(&problem);
        memo.set_memo(Memo::Always);
        memo.force(ok).unwrap();
        prop_assert_eq!(memo.count_exact().unwrap(), with_k.len() as u128);
        if j != k && memo.exclude(oj).is_ok() {
            let without_j = with_k.iter().filter(|s| !s.contains(&oj)).count();
            prop_assert_eq!(memo.count_exact().unwrap(), without_j as u128);
        }
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
        if excluded {
            solver.undo();
        }
        let both: BTreeSet<_> = with_k.iter().filter(|s| s.contains(&oj)).cloned().collect();
        if j != k {
            match solver.force(oj) {
                Ok(()) => {
                    prop_assert_eq!(&all(&mut solver), &both);
                    solver.verify_links().unwrap();
                    // Undone by copying the links afresh and forcing k again.
                    solver.undo_to(1);
                    prop_assert_eq!(&all(&mut solver), &with_k);
                }
                // Refused: j would cover an item once too often, or gives an item of k another
                // color.
                Err(_) => prop_assert!(both.is_empty()),
            }
        }
        solver.reset();
        prop_assert_eq!(&all(&mut solver), &expected);
        solver.verify_links().unwrap();
    }
}

/// DLX3's own example: one solution, and the effort DLX3 reports (14 updates, 7 cleansings; DLX3
/// counts 6 nodes, the root among them).
#[test]
fn knuths_example() {
    let text = std::fs::read_to_string(common::fixture("knuth-multiplicities.dlx")).unwrap();
    let problem = Problem::parse_dlx(&text).unwrap();
    assert!(problem.has_multiplicities() && problem.has_colors());
    let c = problem.item("C").unwrap();
    assert_eq!(problem.item_bounds(c), 2..=3);
    assert_eq!(problem.item_bounds(problem.item("A").unwrap()), 1..=1);
    assert_eq!(problem.item_bounds(problem.item("X").unwrap()), 0..=1);
    let mut solver = Solver::new(&problem);
    let solutions: Vec<Vec<OptionId>> = solver.solutions().map(Result::unwrap).collect();
    assert_eq!(solutions.len(), 1);
    let mut lines: Vec<String> =
        solutions[0].iter().map(|&o| problem.display_option(o).to_string()).collect();
    lines.sort();
    assert_eq!(lines, ["A C X:1 Y:1", "B X:1", "C Y:1"]);
    let stats = solver.stats();
    assert_eq!((stats.nodes, stats.updates, stats.cleansings), (5, 14, 7));
}

/// The `n` x `n` 0-1 matrices whose rows and columns all sum to 2, for n = 0..=6, with the
/// effort DLX3 reports for n = 6 (715,151 updates; 198,658 nodes with the root).
#[test]
fn line_sums_two() {
    let known = [1, 0, 1, 6, 90, 2040, 67950];
    for (n, &want) in known.iter().enumerate() {
        let mut b = ProblemBuilder::new();
        let rows: Vec<_> = (0..n).map(|i| b.primary_with_bounds(format!("r{i}"), 2..=2).unwrap()).collect();
        let columns: Vec<_> =
            (0..n).map(|j| b.primary_with_bounds(format!("c{j}"), 2..=2).unwrap()).collect();
        for &r in &rows {
            for &c in &columns {
                b.option([r, c]).unwrap();
            }
        }
        let problem = b.build();
        let mut solver = Solver::new(&problem);
        solver.set_memo(Memo::Never);
        assert_eq!(solver.count().unwrap(), want, "n = {n}");
        let mut memo = Solver::new(&problem);
        memo.set_memo(Memo::Always);
        assert_eq!(memo.count().unwrap(), want, "n = {n}, with the memo");
        if n == 6 {
            let stats = solver.stats();
            assert_eq!((stats.nodes, stats.updates), (198_657, 715_151));
        }
        if n <= 4 {
            for solution in solver.solutions() {
                let solution = solution.unwrap();
                assert_eq!(solution.len(), 2 * n, "two ones per row");
            }
        }
        solver.verify_links().unwrap();
    }
}

/// The packings of a 5x5 square by rectangles 1x2 (2 to 5 of them), 1x3 (1 to 4), 2x2 (1 to 3),
/// 2x3 (at most 2) and 1x4 (at most 2), each size an item with those bounds: 30,532 packings,
/// with the effort DLX3 reports (2,707,687 updates; 224,645 nodes with the root), by a count
/// (which takes the null moves after the last rectangle at once) and by a visit alike.
#[test]
fn packings_of_rectangles() {
    let mut b = ProblemBuilder::new();
    let sizes = [((1, 2), 2..=5), ((1, 3), 1..=4), ((2, 2), 1..=3), ((2, 3), 0..=2), ((1, 4), 0..=2)];
    let items: Vec<_> = sizes
        .iter()
        .map(|((h, w), bounds)| b.primary_with_bounds(format!("s{h}x{w}"), bounds.clone()).unwrap())
        .collect();
    let cells: Vec<_> = (0..25).map(|k| b.primary(format!("c{}_{}", k / 5, k % 5)).unwrap()).collect();
    for (&item, &((h, w), _)) in items.iter().zip(&sizes) {
        let shapes = if h == w { vec![(h, w)] } else { vec![(h, w), (w, h)] };
        for (h, w) in shapes {
            for r in 0..=5 - h {
                for c in 0..=5 - w {
                    let cells = &cells;
                    let covered = (0..h).flat_map(|i| (0..w).map(move |j| cells[(r + i) * 5 + c + j]));
                    b.option(std::iter::once(item).chain(covered)).unwrap();
                }
            }
        }
    }
    let problem = b.build();
    let mut solver = Solver::new(&problem);
    solver.set_memo(Memo::Never);
    assert_eq!(solver.count().unwrap(), 30_532);
    let counted = solver.stats();
    let mut memo = Solver::new(&problem);
    memo.set_memo(Memo::Always);
    assert_eq!(memo.count().unwrap(), 30_532);
    assert_eq!((counted.nodes, counted.updates), (224_644, 2_707_687));
    let mut seen = 0;
    solver
        .for_each(|s| {
            // Every cell once, and each size within its bounds.
            let mut uses = vec![0; problem.item_count()];
            for o in s.to_vec() {
                problem.option_items(o).for_each(|i| uses[i.index()] += 1);
            }
            assert!(cells.iter().all(|c| uses[c.index()] == 1));
            assert!(items.iter().all(|&i| problem.item_bounds(i).contains(&uses[i.index()])));
            seen += 1;
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!((seen, solver.stats()), (30_532, counted));
}

/// The fixture of n = 7: 3,110,940 matrices.
#[test]
fn line_sums_seven_from_the_fixture() {
    let text = std::fs::read_to_string(common::fixture("line-sums7.dlx")).unwrap();
    let problem = Problem::parse_dlx(&text).unwrap();
    assert_eq!(Solver::new(&problem).count().unwrap(), 3_110_940);
    let mut memo = Solver::new(&problem);
    memo.set_memo(Memo::Always);
    assert_eq!(memo.count().unwrap(), 3_110_940);
}

/// Each bound that cannot hold is refused with its reason; the builder is left unchanged.
#[test]
fn bound_errors() {
    let mut b = ProblemBuilder::new();
    for (lower, upper, reason) in [
        (3, 2, "the lower bound exceeds the upper one"),
        (0, 0, "the upper bound is 0, so no option could cover the item"),
    ] {
        assert_eq!(
            b.primary_with_bounds("x", lower..=upper),
            Err(BuildError::InvalidBounds { name: "x".into(), lower, upper, reason })
        );
    }
    assert_eq!(b.item_count(), 0);
    let x = b.primary_with_bounds("x", 0..=u32::MAX).unwrap();
    let s = b.secondary("s").unwrap();
    assert!(matches!(b.option_with_colors([(x, Some("red"))]), Err(BuildError::ColoredPrimary { .. })));
    b.option_with_colors([(x, None), (s, Some("red"))]).unwrap();
    let problem = b.build();
    assert_eq!(problem.item_bounds(x), 0..=u32::MAX);
    assert_eq!(problem.to_dlx(), "0:4294967295|x | s\nx s:red\n");
    // Zero or one option: two solutions.
    assert_eq!(Solver::new(&problem).count().unwrap(), 2);
}

/// The worked example of the docs of `bitsets::multi`: `x` with bounds `1..=2`, `y` plain, the
/// options `x`, `x y`, `y`, `x`: six solutions, with the memo and without.
#[test]
fn the_memos_worked_example() {
    let problem = Problem::parse_dlx("1:2|x y\nx\nx y\ny\nx\n").unwrap();
    let expected = all(&mut Solver::new(&problem));
    assert_eq!(expected.len(), 6);
    for memo in [Memo::Always, Memo::Never] {
        let mut solver = Solver::new(&problem);
        solver.set_memo(memo);
        assert_eq!(solver.count_exact().unwrap(), 6);
    }
    let mut solver = Solver::new(&problem);
    solver.set_memo(Memo::Always);
    solver.count_exact().unwrap();
    assert!(solver.memo_stats().is_some_and(|m| m.entries > 0), "the memo stored subproblems");
}

/// Counts past 2^128 with multiplicities: 150 items with two options of their own each, and
/// one of bounds `0..=2` with three (none of them, one, or two: seven ways), have 7 * 2^150
/// solutions; the memo counts them exactly, and again from its table.
#[test]
fn counts_past_two_to_the_128() {
    let n = 150;
    let mut text: String = (0..n).map(|k| format!("i{k} ")).collect();
    text.push_str("0:2|z\nz\nz\nz\n");
    for k in 0..n {
        text.push_str(&format!("i{k}\ni{k}\n"));
    }
    let problem = Problem::parse_dlx(&text).unwrap();
    let want = (0..n).fold(dlx_engine::Count::from(7u64), |c, _| c.clone() + c);
    assert_eq!(want.bits(), 153);
    let mut solver = Solver::new(&problem);
    solver.set_memo(Memo::Always);
    assert_eq!(solver.count_exact().unwrap(), want);
    assert_eq!(solver.count_exact().unwrap(), want, "again, from the table");
    assert_eq!(Solver::new(&problem).count_exact().unwrap(), want, "auto");
}
