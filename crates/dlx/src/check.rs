//! The link checker: verifies the invariants of the dlx1 layout (used by tests and debugging).

use crate::dance::{COVERED, Dance, SECONDARY};
use crate::problem::Problem;

/// Checks, for the items still active:
/// * the primary list (headed by 0) and the secondary list (headed by N+1) are circular and
///   doubly linked, primaries in one and secondaries in the other, in increasing order;
/// * each active item's list is circular and doubly linked, every node in it names the item as
///   its `top`, its length is the item's `len`, and its nodes are in increasing order (options
///   keep their original order);
/// * every node of an option listed there is a real option node between two spacers;
/// * the active primary items are as many as counted, and every item header carries the marks
///   of being covered and of being secondary exactly when it is.
pub(crate) fn check_invariants(problem: &Problem, dance: &Dance) -> Result<(), String> {
    let n = problem.item_count();
    let n1 = problem.primary_count();
    let heads = [(0usize, 1..=n1), (n + 1, n1 + 1..=n)];
    for (head, range) in heads {
        let mut prev = head;
        let mut k = dance.links[head].right as usize;
        let mut steps = 0;
        while k != head {
            if !range.contains(&k) {
                return Err(format!("item {k} is in the wrong item list (head {head})"));
            }
            if k <= prev && prev != head {
                return Err(format!("item list out of order at {prev} -> {k}"));
            }
            if dance.links[k].left as usize != prev {
                return Err(format!("item {k}: left link {} but reached from {prev}", dance.links[k].left));
            }
            check_item_list(dance, k)?;
            prev = k;
            k = dance.links[k].right as usize;
            steps += 1;
            if steps > n {
                return Err(format!("item list headed by {head} does not close"));
            }
        }
        if dance.links[head].left as usize != prev {
            return Err(format!("head {head}: left link {} instead of {prev}", dance.links[head].left));
        }
        if head == 0 && steps != dance.active as usize {
            return Err(format!("{steps} active primary items, but {} counted", dance.active));
        }
    }
    // The marks in the headers: covered items (for the choice of item), secondary items.
    for item in 1..=n {
        let top = dance.tops[item];
        let i = crate::index::to_u32(item);
        if (top & COVERED != 0) == dance.is_active(i) {
            return Err(format!(
                "item {item}: covered mark {} but active {}",
                top & COVERED != 0,
                dance.is_active(i)
            ));
        }
        if (top & SECONDARY != 0) != (item > n1) {
            return Err(format!("item {item}: secondary mark {}", top & SECONDARY != 0));
        }
    }
    Ok(())
}

fn check_item_list(dance: &Dance, item: usize) -> Result<(), String> {
    let nodes: Vec<crate::problem::Node> = dance
        .tops
        .iter()
        .zip(&dance.uds)
        .map(|(&top, ud)| crate::problem::Node { top, up: ud.up, down: ud.down })
        .collect();
    let mut count = 0u32;
    let mut prev = item;
    let mut p = nodes[item].down as usize;
    while p != item {
        if p <= prev && prev != item {
            return Err(format!("item {item}: list out of order at {prev} -> {p}"));
        }
        let node = nodes[p];
        if node.top as usize != item {
            return Err(format!("node {p} is in item {item}'s list but its top is {}", node.top));
        }
        if node.up as usize != prev {
            return Err(format!("node {p}: up link {} but reached from {prev}", node.up));
        }
        count += 1;
        if count as usize > nodes.len() {
            return Err(format!("item {item}'s list does not close"));
        }
        prev = p;
        p = node.down as usize;
    }
    if nodes[item].up as usize != prev {
        return Err(format!("item {item}: up link {} instead of {prev}", nodes[item].up));
    }
    let len = dance.len_of(crate::index::to_u32(item));
    if len != count {
        return Err(format!("item {item}: len {len} but {count} nodes in its list"));
    }
    Ok(())
}
