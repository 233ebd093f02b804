//! Random problems for the crate's unit tests.

use proptest::prelude::*;

use crate::{Problem, ProblemBuilder};

/// A random problem of `primary` + `secondary` items, colors `a` and `b` on secondary ones.
pub(crate) fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=10, 0usize..=4).prop_flat_map(|(primary, secondary)| {
        let n = primary + secondary;
        let option =
            (proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(5)), 0..primary, 0u8..3)
                .prop_map(move |(mut items, extra, color)| {
                    if !items.iter().any(|&i| i < primary) {
                        items.push(extra);
                    }
                    items.into_iter().map(|i| (i, if i < primary { 0 } else { color })).collect::<Vec<_>>()
                })
                .prop_shuffle();
        proptest::collection::vec(option, 0..=100).prop_map(move |options| {
            let mut b = ProblemBuilder::new();
            let mut ids: Vec<_> = (0..primary).map(|k| b.primary(format!("p{k}")).unwrap()).collect();
            ids.extend((0..secondary).map(|k| b.secondary(format!("s{k}")).unwrap()));
            for option in options {
                let colors = [None, Some("a"), Some("b")];
                b.option_with_colors(option.iter().map(|&(i, c)| (ids[i], colors[usize::from(c)]))).unwrap();
            }
            b.build()
        })
    })
}
