//! Helpers shared by the engine's integration tests.
#![allow(dead_code, unreachable_pub)]

use dlx_engine::{OptionId, Problem, Solver};

#[path = "../../../examples/queens.rs"]
pub mod queens;

#[path = "../../../examples/langford.rs"]
pub mod langford;

#[path = "../../../examples/pentominoes.rs"]
pub mod pentominoes;

#[path = "../../../examples/dominoes.rs"]
pub mod dominoes;

/// Asserts that `solution` is an exact cover: every primary item exactly once, every secondary at
/// most once.
pub fn assert_exact_cover(problem: &Problem, solution: &[OptionId]) {
    let mut seen = vec![0u32; problem.item_count()];
    for &option in solution {
        for item in problem.option_items(option) {
            seen[item.index()] += 1;
        }
    }
    for item in problem.items() {
        let n = seen[item.index()];
        if problem.is_primary(item) {
            assert_eq!(n, 1, "primary item {} covered {n} times", problem.item_name(item));
        } else {
            assert!(n <= 1, "secondary item {} covered {n} times", problem.item_name(item));
        }
    }
}

/// Every solution, each sorted, the whole list sorted; each checked to be an exact cover.
pub fn all_solutions(solver: &mut Solver<'_>) -> Vec<Vec<OptionId>> {
    let problem = solver.problem();
    let mut all: Vec<Vec<OptionId>> = solver
        .solutions()
        .map(Result::unwrap)
        .map(|mut s| {
            assert_exact_cover(problem, &s);
            s.sort();
            s
        })
        .collect();
    all.sort();
    all
}

/// The path of a file in the project's `fixtures` folder.
pub fn fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(name)
}

/// Every set of options that `is_solution` accepts among `m` options, by trying all `2^m`.
pub fn subsets(
    m: usize,
    is_solution: impl Fn(&[usize]) -> bool,
) -> std::collections::BTreeSet<Vec<OptionId>> {
    (0u32..1 << m)
        .map(|mask| (0..m).filter(|k| mask & (1 << k) != 0).collect::<Vec<_>>())
        .filter(|chosen| is_solution(chosen))
        .map(|chosen| chosen.into_iter().map(|k| OptionId::new(k).unwrap()).collect())
        .collect()
}

/// A solution with its options in increasing order.
pub fn sorted(mut solution: Vec<OptionId>) -> Vec<OptionId> {
    solution.sort();
    solution
}

/// Every solution the solver's iterator gives, each sorted and checked to be found once.
pub fn all(solver: &mut Solver<'_>) -> std::collections::BTreeSet<Vec<OptionId>> {
    let list: Vec<Vec<OptionId>> = solver.solutions().map(|s| sorted(s.unwrap())).collect();
    let set: std::collections::BTreeSet<_> = list.iter().cloned().collect();
    assert_eq!(set.len(), list.len(), "a solution is found twice");
    set
}

/// Every solution of a run through the visitor, in the order found.
pub fn in_order(solver: &mut Solver<'_>) -> Vec<Vec<OptionId>> {
    let mut found = Vec::new();
    solver
        .for_each(|s| {
            found.push(s.to_vec());
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    found
}

/// The solutions a ZDD represents, each sorted, with the forced options: by expanding every path
/// to the unit sink (for small problems).
pub fn zdd_family(zdd: &dlx_engine::Zdd) -> std::collections::BTreeSet<Vec<OptionId>> {
    fn expand(
        zdd: &dlx_engine::Zdd,
        at: u32,
        path: &mut Vec<OptionId>,
        out: &mut std::collections::BTreeSet<Vec<OptionId>>,
    ) {
        match at {
            dlx_engine::Zdd::EMPTY => {}
            dlx_engine::Zdd::UNIT => {
                out.insert(sorted(path.clone()));
            }
            _ => {
                let node = *zdd.node(at).expect("a node of the diagram");
                assert!(node.lo < at && node.hi < at && node.hi != dlx_engine::Zdd::EMPTY, "{at}: {node:?}");
                expand(zdd, node.lo, path, out);
                path.push(node.option);
                expand(zdd, node.hi, path, out);
                path.pop();
            }
        }
    }
    let mut out = std::collections::BTreeSet::new();
    expand(zdd, zdd.root(), &mut zdd.forced().to_vec(), &mut out);
    out
}

/// Checks the ZDD of `problem` (below `solver`'s restrictions) against its solutions: the same
/// family, the same count and counts by size, and a smallest and a largest solution of the
/// right sizes.
pub fn check_zdd(solver: &mut Solver<'_>, expected: &std::collections::BTreeSet<Vec<OptionId>>) {
    let zdd = solver.zdd().unwrap();
    assert_eq!(&zdd_family(&zdd), expected);
    assert_eq!(zdd.count(), expected.len() as u128);
    let mut by_size = vec![0u128; expected.iter().map(Vec::len).max().map_or(0, |m| m + 1)];
    for s in expected {
        by_size[s.len()] += 1;
    }
    assert_eq!(zdd.counts_by_size(), by_size);
    let smallest = zdd.smallest().map(sorted);
    let largest = zdd.largest().map(sorted);
    assert_eq!(smallest.as_ref().map(Vec::len), expected.iter().map(Vec::len).min());
    assert_eq!(largest.as_ref().map(Vec::len), expected.iter().map(Vec::len).max());
    assert!(smallest.iter().chain(&largest).all(|s| expected.contains(s)));
}
