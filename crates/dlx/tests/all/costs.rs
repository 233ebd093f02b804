//! Costs (Knuth's DLX5): `|n` in `.dlx` options, the builder's `set_cost`, and `best(k)` against
//! the cheapest solutions of a brute force, with colors and with multiplicities.

use dlx_engine::{Budget, Counting, ItemId, OptionId, ParseErrorKind, Problem, ProblemBuilder, Solver};
use proptest::prelude::*;

#[test]
fn costs_are_read_summed_written_and_checked() {
    let problem: Problem = "a b | x\na |3 x |4\nb |5\na b\n".parse().unwrap();
    assert!(problem.has_costs());
    let costs: Vec<u64> = problem.options().map(|o| problem.option_cost(o)).collect();
    assert_eq!(costs, [7, 5, 0]);
    assert_eq!(problem.to_dlx(), "a b | x\na x |7\nb |5\na b\n");
    assert_eq!(problem.to_dlx().parse::<Problem>().unwrap(), problem);
    // Costs count for equality; all 0 is no cost at all.
    assert_ne!("a\na |1\n".parse::<Problem>().unwrap(), "a\na |2\n".parse::<Problem>().unwrap());
    let free: Problem = "a\na |0\n".parse().unwrap();
    assert!(!free.has_costs());
    assert_eq!(free, "a\na\n".parse::<Problem>().unwrap());

    for (text, column, token) in [
        ("a\na |x\n", 3, "|x"),
        ("a\na |-1\n", 3, "|-1"),
        ("a\na |+1\n", 3, "|+1"),
        ("a\na |18446744073709551615 |1\n", 25, "|1"),
    ] {
        let e = text.parse::<Problem>().unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (2, column, ParseErrorKind::Cost(token.into())), "{text:?}");
    }
    // A name with a bar inside, or a lone bar, is still refused as a name.
    let e = "a\na|1\n".parse::<Problem>().unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::Bar("a|1".into()));
    let e = "a\na |\n".parse::<Problem>().unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::Bar("|".into()));
}

#[test]
fn best_finds_the_cheapest_first_and_ties_in_order_found() {
    let problem: Problem = "a b\na |3\nb |4\na b |5\na |1\n".parse().unwrap();
    // Solutions: {a|3, b|4} = 7, {a b|5} = 5, {a|1, b|4} = 5.
    let best = Solver::new(&problem).best(3).unwrap();
    let costs: Vec<u128> = best.iter().map(|(c, _)| *c).collect();
    assert_eq!(costs, [5, 5, 7]);
    let mut all = Solver::new(&problem);
    let order: Vec<Vec<OptionId>> = all.solutions().map(Result::unwrap).collect();
    let (first, second) = (&best[0].1, &best[1].1);
    let at = |s: &Vec<OptionId>| order.iter().position(|o| o == s).unwrap();
    assert!(at(first) < at(second), "ties in the order found");
    assert_eq!(Solver::new(&problem).best(10).unwrap().len(), 3);
    assert!(Solver::new(&problem).best(0).unwrap().is_empty());
    // Counting ignores costs.
    assert_eq!(Solver::new(&problem).count().unwrap(), 3);
}

/// A random problem with costs: `primary` items (some with bounds), `secondary` ones (colors
/// 1-2 in options), each option a list of `(item, color)` and a cost.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub(crate) primary: usize,
    secondary: usize,
    bounds: Vec<(u32, u32)>,
    options: Vec<(Vec<(usize, u8)>, u64)>,
}

pub(crate) fn spec() -> impl Strategy<Value = Spec> {
    (1usize..=4, 0usize..=2, any::<bool>()).prop_flat_map(|(primary, secondary, bounded)| {
        let n = primary + secondary;
        let bound = if bounded { (0u32..=1, 1u32..=2).boxed() } else { Just((1, 1)).boxed() };
        let option = (
            proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(3)),
            0..primary,
            0u8..=2,
            0u64..=9,
        )
            .prop_map(move |(mut items, extra, color, cost)| {
                if !items.iter().any(|&i| i < primary) {
                    items.push(extra);
                }
                (
                    items.into_iter().map(|i| (i, if i < primary { 0 } else { color })).collect::<Vec<_>>(),
                    cost,
                )
            });
        (proptest::collection::vec(bound, primary), proptest::collection::vec(option, 0..=10))
            .prop_map(move |(bounds, options)| Spec { primary, secondary, bounds, options })
    })
}

pub(crate) fn build(spec: &Spec) -> Problem {
    let mut b = ProblemBuilder::new();
    let mut ids: Vec<ItemId> = (0..spec.primary)
        .map(|k| {
            let (lo, hi) = spec.bounds[k];
            b.primary_with_bounds(format!("p{k}"), lo..=hi.max(lo)).unwrap()
        })
        .collect();
    ids.extend((0..spec.secondary).map(|k| b.secondary(format!("s{k}")).unwrap()));
    let colors = [None, Some("a"), Some("b")];
    for (items, cost) in &spec.options {
        let o = b.option_with_colors(items.iter().map(|&(i, c)| (ids[i], colors[usize::from(c)]))).unwrap();
        b.set_cost(o, *cost).unwrap();
    }
    b.build()
}

/// Every solution's cost, by trying every set of options against the rules.
pub(crate) fn brute_force(spec: &Spec) -> Vec<(u128, Vec<usize>)> {
    let m = spec.options.len();
    let mut found = Vec::new();
    for mask in 0u32..1 << m {
        let chosen: Vec<usize> = (0..m).filter(|&k| mask >> k & 1 == 1).collect();
        let mut uses = vec![Vec::new(); spec.primary + spec.secondary];
        for &k in &chosen {
            for &(i, c) in &spec.options[k].0 {
                uses[i].push(c);
            }
        }
        let primary_ok = (0..spec.primary).all(|i| {
            let (lo, hi) = spec.bounds[i];
            u32::try_from(uses[i].len()).is_ok_and(|n| (lo..=hi.max(lo)).contains(&n))
        });
        let secondary_ok = uses[spec.primary..].iter().all(|u| match u.as_slice() {
            [] | [_] => true,
            [first, rest @ ..] => *first != 0 && rest.iter().all(|c| c == first),
        });
        if primary_ok && secondary_ok {
            let cost = chosen.iter().map(|&k| u128::from(spec.options[k].1)).sum();
            found.push((cost, chosen));
        }
    }
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The `k` best are `k` solutions of the problem, each of its cost, and their costs are the
    /// `k` least of a full enumeration's, with colors and multiplicities.
    #[test]
    fn the_k_best_are_the_k_cheapest_of_all(spec in spec(), k in 1usize..=6, budget in 1u64..=6) {
        let problem = build(&spec);
        let all = brute_force(&spec);
        let mut costs: Vec<u128> = all.iter().map(|(c, _)| *c).collect();
        costs.sort_unstable();
        costs.truncate(k);
        // A search cut short by a budget leaves the links as they were, and the next finds all;
        // on the links and on bit sets (where the problem allows them) alike.
        let mut best = Vec::new();
        for counting in [Counting::Links, Counting::BitSets, Counting::Auto] {
            let mut solver = Solver::new(&problem);
            solver.set_counting(counting);
            solver.set_budget(Budget { nodes: Some(budget), updates: None });
            let _ = solver.best(k);
            solver.verify_links().unwrap();
            solver.set_budget(Budget::default());
            best = solver.best(k).unwrap();
            solver.verify_links().unwrap();
            prop_assert_eq!(best.iter().map(|(c, _)| *c).collect::<Vec<_>>(), costs.clone(), "{:?}", counting);
        }
        for (cost, options) in &best {
            let mut chosen: Vec<usize> = options.iter().map(|o| o.index()).collect();
            chosen.sort_unstable();
            prop_assert!(all.contains(&(*cost, chosen)), "{:?} is no solution of cost {}", options, cost);
        }
        // The text form keeps the costs.
        prop_assert_eq!(&problem.to_dlx().parse::<Problem>().unwrap(), &problem);
        // With the first option forced: the cheapest of the solutions that hold it (its cost is
        // counted, before the search's levels).
        if !spec.options.is_empty() {
            let mut solver = Solver::new(&problem);
            solver.force(OptionId::from_u32(0)).unwrap();
            let mut holding: Vec<u128> =
                all.iter().filter(|(_, chosen)| chosen.contains(&0)).map(|(c, _)| *c).collect();
            holding.sort_unstable();
            holding.truncate(k);
            let best = solver.best(k).unwrap();
            prop_assert_eq!(best.iter().map(|(c, _)| *c).collect::<Vec<_>>(), holding);
        }
    }
}

/// A random problem without colors or multiplicities, larger than brute force allows: `primary`
/// + `secondary` items, options of up to five items, costs up to `dear`.
fn plain_with_costs() -> impl Strategy<Value = Problem> {
    (1usize..=9, 0usize..=3, 1u64..=60).prop_flat_map(|(primary, secondary, dear)| {
        let n = primary + secondary;
        let option =
            (proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(5)), 0..primary, 0..=dear)
                .prop_map(move |(mut items, extra, cost)| {
                    if !items.iter().any(|&i| i < primary) {
                        items.push(extra);
                    }
                    (items, cost)
                });
        proptest::collection::vec(option, 0..=60).prop_map(move |options| {
            let mut b = ProblemBuilder::new();
            let mut ids: Vec<ItemId> = (0..primary).map(|k| b.primary(format!("p{k}")).unwrap()).collect();
            ids.extend((0..secondary).map(|k| b.secondary(format!("s{k}")).unwrap()));
            for (items, cost) in options {
                let o = b.option(items.iter().map(|&i| ids[i])).unwrap();
                b.set_cost(o, cost).unwrap();
            }
            b.build()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On bit sets, DLX5's search walks the links' tree: the same solutions in the same order
    /// (ties too), the same nodes, guesses and solutions met; below a forced option, and cut
    /// short by a budget at the same node.
    #[test]
    fn bit_sets_walk_the_links_tree(problem in plain_with_costs(), k in 1usize..=8, budget in 1u64..=40) {
        let run = |counting: Counting, force: bool, budget: Budget| {
            let mut solver = Solver::new(&problem);
            solver.set_counting(counting);
            if force && problem.option_count() > 0 {
                solver.force(OptionId::from_u32(0)).unwrap();
            }
            solver.set_budget(budget);
            let best = solver.best(k).map_err(|e| e.reason);
            let stats = solver.stats();
            (best, stats.nodes, stats.guesses, stats.solutions)
        };
        // (A budget of updates keeps the search on the links, which count them.)
        let updates = Budget { nodes: None, updates: Some(budget * 10) };
        for force in [false, true] {
            for budget in [Budget::default(), Budget { nodes: Some(budget), updates: None }, updates] {
                prop_assert_eq!(
                    run(Counting::BitSets, force, budget),
                    run(Counting::Links, force, budget),
                    "force {}, {:?}", force, budget
                );
            }
        }
    }
}
