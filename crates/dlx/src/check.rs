//! The link checker: verifies the invariants of the links (see `links`), for
//! [`Solver::verify_links`](crate::Solver::verify_links), tests and debugging. Every check
//! takes time in proportion to the size of the matrix.

use crate::index::to_u32;
use crate::layout::{COVERED, SECONDARY};
use crate::links::Links;
use crate::problem::Problem;

/// Checks:
/// * the primary list (headed by 0) and the secondary list (headed by N+1) are circular and
///   doubly linked, primaries in one and secondaries in the other, in increasing order;
/// * each active item's list is circular and doubly linked, every node in it names the item as
///   its `top`, its length is the item's `len`, and its nodes are in increasing order (options
///   keep their original order);
/// * the spacers are where the problem has them, with `top` 0, each `up` the first node of the
///   option before it and each `down` the last node of the option after it;
/// * the active primary items are as many as counted, and every item header carries the marks
///   of being covered and of being secondary exactly when it is.
pub(crate) fn check_links(problem: &Problem, links: &Links) -> Result<(), String> {
    let n = problem.item_count();
    let n1 = problem.primary_count();
    let items = links.item_links();
    let heads = [(0usize, 1..=n1), (n + 1, n1 + 1..=n)];
    for (head, range) in heads {
        let mut prev = head;
        let mut k = items[head].right as usize;
        let mut steps = 0;
        while k != head {
            if !range.contains(&k) {
                return Err(format!("item {k} is in the wrong item list (head {head})"));
            }
            if k <= prev && prev != head {
                return Err(format!("item list out of order at {prev} -> {k}"));
            }
            if items[k].left as usize != prev {
                return Err(format!("item {k}: left link {} but reached from {prev}", items[k].left));
            }
            check_item_list(links, k)?;
            prev = k;
            k = items[k].right as usize;
            steps += 1;
            if steps > n {
                return Err(format!("item list headed by {head} does not close"));
            }
        }
        if items[head].left as usize != prev {
            return Err(format!("head {head}: left link {} instead of {prev}", items[head].left));
        }
        if head == 0 && steps != links.active() as usize {
            return Err(format!("{steps} active primary items, but {} counted", links.active()));
        }
    }
    // The marks in the headers: covered items (for the choice of item), secondary items.
    for item in 1..=n {
        let top = links.tops()[item];
        let listed = links.is_listed(to_u32(item));
        if (top & COVERED != 0) == listed {
            return Err(format!("item {item}: covered mark {} but listed {listed}", top & COVERED != 0));
        }
        if (top & SECONDARY != 0) != (item > n1) {
            return Err(format!("item {item}: secondary mark {}", top & SECONDARY != 0));
        }
    }
    check_spacers(problem, links)
}

/// Checks item `item`'s vertical list.
fn check_item_list(links: &Links, item: usize) -> Result<(), String> {
    let (tops, uds) = (links.tops(), links.uds());
    let mut count = 0u32;
    let mut prev = item;
    let mut p = uds[item].down as usize;
    while p != item {
        if p <= prev && prev != item {
            return Err(format!("item {item}: list out of order at {prev} -> {p}"));
        }
        let Some(&top) = tops.get(p) else {
            return Err(format!("item {item}'s list reaches node {p}, beyond the last"));
        };
        if top as usize != item {
            return Err(format!("node {p} is in item {item}'s list but its top is {top}"));
        }
        if uds[p].up as usize != prev {
            return Err(format!("node {p}: up link {} but reached from {prev}", uds[p].up));
        }
        count += 1;
        if count as usize > tops.len() {
            return Err(format!("item {item}'s list does not close"));
        }
        prev = p;
        p = uds[p].down as usize;
    }
    if uds[item].up as usize != prev {
        return Err(format!("item {item}: up link {} instead of {prev}", uds[item].up));
    }
    let len = links.len_of(to_u32(item));
    if len != count {
        return Err(format!("item {item}: len {len} but {count} nodes in its list"));
    }
    Ok(())
}

/// Checks the spacers: one before the first option and one after each, with `top` 0 and the
/// links to the options beside them; no option node has `top` 0.
fn check_spacers(problem: &Problem, links: &Links) -> Result<(), String> {
    let (tops, uds) = (links.tops(), links.uds());
    let mut spacer = problem.item_count() + 1;
    // The first node of the option before the spacer (none before the first one).
    let mut first_before = None;
    for option in problem.options() {
        let first = problem.option_first_node(option).map_or(0, |p| p as usize);
        let end = first + problem.option_items(option).len();
        check_spacer(tops, uds, spacer, first_before, end - 1)?;
        if let Some(p) = (first..end).find(|&p| tops[p] == 0) {
            return Err(format!("option node {p} has top 0, as a spacer"));
        }
        first_before = Some(first);
        spacer = end;
    }
    if spacer + 1 != tops.len() {
        return Err(format!("the last spacer is node {spacer}, of {} nodes", tops.len()));
    }
    check_spacer(tops, uds, spacer, first_before, 0)
}

/// Checks spacer node `spacer`: `top` 0, `up` the first node of the option before it (when there
/// is one), `down` the last node of the option after it (0 for the last spacer).
fn check_spacer(
    tops: &[u32],
    uds: &[crate::layout::UpDown],
    spacer: usize,
    first_before: Option<usize>,
    last_after: usize,
) -> Result<(), String> {
    if tops[spacer] != 0 {
        return Err(format!("spacer {spacer} has top {}", tops[spacer]));
    }
    if first_before.is_some_and(|first| uds[spacer].up as usize != first) {
        return Err(format!("spacer {spacer}: up link {} instead of {first_before:?}", uds[spacer].up));
    }
    if uds[spacer].down as usize != last_after {
        return Err(format!("spacer {spacer}: down link {} instead of {last_after}", uds[spacer].down));
    }
    Ok(())
}

/// Compares the links of a solver, `actual`, with those built afresh from its restrictions,
/// `expected`: they must agree exactly, record of emptied items included.
pub(crate) fn compare(expected: &Links, actual: &Links) -> Result<(), String> {
    if expected.item_links() != actual.item_links() {
        return Err("item links differ from the state the restrictions produce".into());
    }
    let (tops, uds) = (expected.tops(), expected.uds());
    if let Some(p) = (0..tops.len()).find(|&p| tops[p] != actual.tops()[p] || uds[p] != actual.uds()[p]) {
        return Err(format!("node {p} differs from the state the restrictions produce"));
    }
    let colors = expected.colors();
    if let Some(p) = (0..colors.len()).find(|&p| colors[p] != actual.colors()[p]) {
        return Err(format!("node {p}'s color differs from the state the restrictions produce"));
    }
    if expected.active() != actual.active() {
        return Err(format!(
            "{} active primary items counted instead of {}",
            actual.active(),
            expected.active()
        ));
    }
    if expected.emptied() != actual.emptied() {
        return Err(format!(
            "record of emptied items {:?} instead of {:?}",
            actual.emptied(),
            expected.emptied()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_links;
    use crate::Problem;
    use crate::links::Links;

    /// The checker finds a broken spacer and a broken list, and passes sound links.
    #[test]
    fn the_checker_sees_broken_spacers_and_lists() {
        let problem = Problem::parse_dlx("A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
        assert_eq!(check_links(&problem, &Links::new(&problem)), Ok(()));
        let mut broken = problem.clone();
        broken.uds[12].up = 10;
        let err = check_links(&broken, &Links::new(&broken)).unwrap_err();
        assert!(err.contains("spacer 12"), "{err}");
        let mut broken = problem.clone();
        broken.uds[20].down = 21;
        let err = check_links(&broken, &Links::new(&broken)).unwrap_err();
        assert!(err.contains("spacer 20"), "{err}");
        let mut broken = problem.clone();
        broken.uds[13].down = 22;
        let err = check_links(&broken, &Links::new(&broken)).unwrap_err();
        assert!(err.contains("item 1"), "{err}");
    }
}
