//! Preprocessing (Knuth's DLX-PRE): his examples and figures, a second implementation of the same
//! reductions on random problems, and the solutions kept, mapped back to the original options.

use std::collections::BTreeSet;

use dlx_engine::{
    CancelFlag, ItemId, OptionId, PreprocessError, Preprocessing, Problem, ProblemBuilder, Reduced, Solver,
};
use proptest::prelude::*;

use crate::common::{all_solutions, fixture};

/// Every solution, each sorted, the whole set (colors allowed: no exact-cover check here, the
/// two problems' solutions are compared).
fn solutions(problem: &Problem, map: impl Fn(&[OptionId]) -> Vec<OptionId>) -> BTreeSet<Vec<OptionId>> {
    Solver::new(problem)
        .solutions()
        .map(|s| {
            let mut s = map(&s.unwrap());
            s.sort();
            s
        })
        .collect()
}

/// The reduced problem as DLX-PRE's `v9` writes it: the `.dlx` text, each option followed by its
/// original number.
fn tagged(reduced: &Reduced) -> String {
    let mut out = Vec::new();
    reduced.write_dlx(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// Knuth's two examples in dlx-pre.w, with the output DLX-PRE gives (`v9`), its counts of options
/// and items removed and of rounds.
#[test]
fn knuths_examples_reduce_as_dlx_pre_reduces_them() {
    let first: Problem =
        "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n".parse().unwrap();
    let reduced = first.preprocess().unwrap();
    assert_eq!(tagged(&reduced), "A B E\nE\n| (from 1)\nA\n| (from 4)\nB\n| (from 5)\n");
    assert_eq!((reduced.removed_options(), reduced.removed_items(), reduced.rounds()), (3, 4, 3));
    assert_eq!(reduced.infeasible(), None);

    // DLX-PRE skips the option without a primary item, as the reader does: options are numbered
    // without it.
    let read = Problem::read_dlx(b"A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n").unwrap();
    let reduced = read.problem.preprocess().unwrap();
    assert_eq!(tagged(&reduced), "A B | X Y\nA X:1 Y:1\n| (from 2)\nB X:1\n| (from 3)\n");
    assert_eq!((reduced.removed_options(), reduced.removed_items(), reduced.rounds()), (2, 1, 2));

    // One round (DLX-PRE's `t2`): 1 option and 2 items.
    let settings = Preprocessing { max_rounds: Some(1), ..Preprocessing::default() };
    let reduced = first.preprocess_with(&settings).unwrap();
    assert_eq!(reduced.problem().to_dlx(), "A B C E | G\nC E\nA G\nB C\nA\nB G\n");
    assert_eq!((reduced.removed_options(), reduced.removed_items(), reduced.rounds()), (1, 2, 1));
}

/// The 6x10 pentominoes: DLX-PRE removes 144 of the 2,056 options and no item, in 2 rounds; the
/// 3x20 rectangle keeps its 8 solutions.
#[test]
fn pentominoes_lose_what_dlx_pre_removes() {
    let text = std::fs::read_to_string(fixture("pentominoes6x10.dlx")).unwrap();
    let problem: Problem = text.parse().unwrap();
    let reduced = problem.preprocess().unwrap();
    assert_eq!((problem.option_count(), reduced.removed_options(), reduced.removed_items()), (2056, 144, 0));
    assert_eq!(reduced.rounds(), 2);

    let text = std::fs::read_to_string(fixture("pentominoes3x20.dlx")).unwrap();
    let problem: Problem = text.parse().unwrap();
    let reduced = problem.preprocess().unwrap();
    assert!(reduced.removed_options() > 0);
    let mut solver = Solver::new(reduced.problem());
    let mut mapped: Vec<Vec<OptionId>> = all_solutions(&mut solver)
        .iter()
        .map(|s| {
            let mut s = reduced.original_solution(s);
            s.sort();
            s
        })
        .collect();
    mapped.sort();
    assert_eq!(mapped.len(), 8);
    assert_eq!(mapped, all_solutions(&mut Solver::new(&problem)));
}

/// A primary item left without options: the reduced problem is that item alone, and everything
/// counts as removed.
#[test]
fn an_uncoverable_item_is_all_that_is_left() {
    // `a`'s one option clashes with `b`'s one option in `x`: it goes, and leaves `a` none (as
    // DLX-PRE finds, printing `a` alone).
    let problem: Problem = "a b c | x\na x\nb x\nc\n".parse().unwrap();
    let reduced = problem.preprocess().unwrap();
    assert_eq!(reduced.infeasible().map(|i| problem.item_name(i)), Some("a"));
    assert_eq!(reduced.problem().to_dlx(), "a\n");
    assert_eq!((reduced.removed_options(), reduced.removed_items()), (3, 3));
    assert_eq!(Solver::new(reduced.problem()).count().unwrap(), 0);

    // An item in no option at all: found before any round.
    let problem: Problem = "a b\na\n".parse().unwrap();
    let reduced = problem.preprocess().unwrap();
    assert_eq!(reduced.infeasible().map(|i| problem.item_name(i)), Some("b"));
    assert_eq!(reduced.rounds(), 0);
}

#[test]
fn multiplicities_are_refused_and_a_cancel_is_heard() {
    let problem: Problem = "2:3|a b\na\na b\n".parse().unwrap();
    let e = problem.preprocess().unwrap_err();
    assert_eq!(e, PreprocessError::Multiplicities { item: "a".into(), lower: 2, upper: 3 });
    assert!(e.to_string().starts_with("item a may be covered 2 to 3 times"), "{e}");

    let cancel = CancelFlag::new();
    cancel.cancel();
    let settings = Preprocessing { cancel: Some(cancel), ..Preprocessing::default() };
    let problem: Problem = "a b\na\nb\n".parse().unwrap();
    assert_eq!(problem.preprocess_with(&settings).unwrap_err(), PreprocessError::Cancelled);
}

/// A random problem with colors: `primary` + `secondary` items, each option a list of
/// `(item, color)`, colors (1-2) only on secondary items, at least one primary item in each.
#[derive(Debug, Clone)]
struct Spec {
    primary: usize,
    secondary: usize,
    options: Vec<Vec<(usize, u8)>>,
}

fn spec(max_primary: usize, max_options: usize) -> impl Strategy<Value = Spec> {
    (1usize..=max_primary, 0usize..=3).prop_flat_map(move |(primary, secondary)| {
        let n = primary + secondary;
        let option =
            (proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(4)), 0..primary, 0u8..=2)
                .prop_map(move |(mut items, extra, color)| {
                    if !items.iter().any(|&i| i < primary) {
                        items.push(extra);
                    }
                    items.into_iter().map(|i| (i, if i < primary { 0 } else { color })).collect::<Vec<_>>()
                })
                .prop_shuffle();
        proptest::collection::vec(option, 0..=max_options).prop_map(move |options| Spec {
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
    let colors = [None, Some("a"), Some("b")];
    for option in &spec.options {
        b.option_with_colors(option.iter().map(|&(i, c)| (ids[i], colors[usize::from(c)]))).unwrap();
    }
    b.build()
}

/// What the reference reduction leaves: each option kept (original number and entries left),
/// the items left, the uncoverable item, the counts removed and the rounds.
#[derive(Debug, PartialEq, Eq)]
struct Left {
    options: Vec<(usize, Vec<(usize, u8)>)>,
    items: Vec<usize>,
    infeasible: Option<usize>,
    removed: (usize, usize),
    rounds: usize,
}

/// DLX-PRE's reductions done the slow way: every length and every set of options recomputed
/// from the options' lists at each step, with no links, stamps or counters.
fn reference(spec: &Spec) -> Left {
    let n = spec.primary + spec.secondary;
    let opts = &spec.options;
    let mut alive = vec![true; opts.len()];
    let mut item_alive = vec![true; n];
    let primary = |i: usize| i < spec.primary;
    let holds = |alive: &[bool], item_alive: &[bool], o: usize, i: usize| {
        alive[o] && item_alive[i] && opts[o].iter().any(|&(j, _)| j == i)
    };
    let len = |alive: &[bool], item_alive: &[bool], i: usize| {
        (0..opts.len()).filter(|&o| holds(alive, item_alive, o, i)).count()
    };
    // Option `o`'s entries after the one of item `c`, around the cycle, then `c`'s when `last`.
    let cycle = |o: usize, c: usize, last: bool| {
        let at = opts[o].iter().position(|&(j, _)| j == c).unwrap();
        let k = opts[o].len();
        (1..k + usize::from(last)).map(move |d| opts[o][(at + d) % k])
    };
    let finish = |alive: &[bool], item_alive: &[bool], infeasible: Option<usize>, rounds: usize| {
        if let Some(p) = infeasible {
            return Left {
                options: vec![],
                items: vec![p],
                infeasible,
                removed: (opts.len(), n - 1),
                rounds,
            };
        }
        let items: Vec<usize> = (0..n).filter(|&i| len(alive, item_alive, i) > 0).collect();
        let options = (0..opts.len())
            .filter(|&o| alive[o])
            .map(|o| (o, opts[o].iter().copied().filter(|&(i, _)| items.contains(&i)).collect()))
            .collect();
        let removed = (alive.iter().filter(|a| !**a).count(), n - items.len());
        Left { options, items, infeasible: None, removed, rounds }
    };
    if let Some(p) = (0..n).find(|&i| primary(i) && len(&alive, &item_alive, i) == 0) {
        return finish(&alive, &item_alive, Some(p), 0);
    }
    for i in 0..n {
        item_alive[i] = len(&alive, &item_alive, i) > 0;
    }
    // Deletes option `o` (entries after `c`'s first, `c`'s last when `last`): the first
    // primary item left without options, if any.
    let delete = |alive: &mut Vec<bool>, item_alive: &mut Vec<bool>, o: usize, c: usize, last: bool| {
        alive[o] = false;
        for (i, _) in cycle(o, c, last) {
            if item_alive[i] && len(alive, item_alive, i) == 0 {
                if primary(i) {
                    return Some(i);
                }
                item_alive[i] = false;
            }
        }
        None
    };
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut changed = false;
        for c in 0..n {
            if !item_alive[c] {
                continue;
            }
            let list: Vec<usize> = (0..opts.len()).filter(|&o| holds(&alive, &item_alive, o, c)).collect();
            let color_at = |o: usize, i: usize| opts[o].iter().find(|&&(j, _)| j == i).map(|&(_, x)| x);
            let aside: Vec<usize> = list.iter().copied().filter(|&o| color_at(o, c) == Some(0)).collect();
            // Primary items whose options are all aside, keyed by when DLX-PRE's hiding empties
            // them: the last option of theirs aside, then their place after `c` in it.
            let brought = (0..spec.primary)
                .filter(|&p| p != c && item_alive[p])
                .filter(|&p| {
                    (0..opts.len()).filter(|&o| holds(&alive, &item_alive, o, p)).all(|o| aside.contains(&o))
                })
                .max_by_key(|&p| {
                    let last = (0..aside.len())
                        .rev()
                        .find(|&k| opts[aside[k]].iter().any(|&(j, _)| j == p))
                        .unwrap();
                    let place = cycle(aside[last], c, false).position(|(j, _)| j == p).unwrap();
                    (last, place)
                });
            if let Some(p) = brought {
                changed = true;
                for &o in &list {
                    if !opts[o].iter().any(|&(j, _)| j == p)
                        && let Some(q) = delete(&mut alive, &mut item_alive, o, c, false)
                    {
                        return finish(&alive, &item_alive, Some(q), rounds);
                    }
                }
                item_alive[c] = false;
                continue;
            }
            let mut blocked = Vec::new();
            for &r in &aside {
                let first = opts[r].iter().find(|&&(j, _)| item_alive[j]).map(|&(j, _)| j);
                if first != Some(c) {
                    continue;
                }
                let clashes = |o: usize| {
                    opts[r].iter().any(|&(cc, x)| {
                        cc != c && item_alive[cc] && color_at(o, cc).is_some_and(|y| x == 0 || y != x)
                    })
                };
                let blocks =
                    (0..spec.primary).filter(|&p| item_alive[p] && color_at(r, p).is_none()).any(|p| {
                        (0..opts.len())
                            .filter(|&o| holds(&alive, &item_alive, o, p))
                            .all(|o| aside.contains(&o) || clashes(o))
                    });
                if blocks {
                    blocked.push(r);
                }
            }
            changed |= !blocked.is_empty();
            while let Some(r) = blocked.pop() {
                if let Some(q) = delete(&mut alive, &mut item_alive, r, c, true) {
                    return finish(&alive, &item_alive, Some(q), rounds);
                }
            }
        }
        if !changed {
            return finish(&alive, &item_alive, None, rounds);
        }
    }
}

/// What the engine left, in the reference's terms.
fn left(spec: &Spec, problem: &Problem, reduced: &Reduced) -> Left {
    let item = |name: &str| {
        let k: usize = name[1..].parse().unwrap();
        if name.starts_with('p') { k } else { spec.primary + k }
    };
    let r = reduced.problem();
    let options = r
        .options()
        .map(|o| {
            let entries = r
                .option_items(o)
                .zip(r.option_colors(o))
                .map(|(i, c)| (item(r.item_name(i)), c.map_or(0, |c| if c == "a" { 1 } else { 2 })))
                .collect();
            (reduced.original_option(o).index(), entries)
        })
        .collect();
    let mut items: Vec<usize> = r.items().map(|i| item(r.item_name(i))).collect();
    items.sort_unstable();
    Left {
        options,
        items,
        infeasible: reduced.infeasible().map(|i| item(problem.item_name(i))),
        removed: (reduced.removed_options(), reduced.removed_items()),
        rounds: reduced.rounds(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The engine removes what the slow reference removes, in as many rounds; the solutions left
    /// are the original's, mapped back; and the items left are in the layout's order.
    #[test]
    fn reduces_as_the_reference_and_keeps_every_solution(spec in spec(6, 14)) {
        let problem = build(&spec);
        let reduced = problem.preprocess().unwrap();
        prop_assert_eq!(left(&spec, &problem, &reduced), reference(&spec));
        let original = solutions(&problem, <[OptionId]>::to_vec);
        prop_assert_eq!(solutions(reduced.problem(), |s| reduced.original_solution(s)), original);
    }

    /// Larger problems, where rounds remove more: the same as the reference, and the same count.
    #[test]
    fn larger_problems_reduce_as_the_reference(spec in spec(10, 40)) {
        let problem = build(&spec);
        let reduced = problem.preprocess().unwrap();
        prop_assert_eq!(left(&spec, &problem, &reduced), reference(&spec));
        prop_assert_eq!(
            Solver::new(reduced.problem()).count().unwrap(),
            Solver::new(&problem).count().unwrap()
        );
    }
}
