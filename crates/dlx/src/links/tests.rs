//! Tests of the links' operations that the solver's tests do not reach one by one.

use super::Links;
use crate::{OptionId, Problem};

/// A dead end is the newest item emptied since the previous choice that is still active.
#[test]
fn the_newest_emptied_item_that_is_active_is_found() {
    let problem = Problem::parse_dlx("A B C D\nA B C\nD\n").unwrap();
    let mut links = Links::new(&problem);
    // Covering A hides its one option from B, then from C: both become empty, C last.
    links.with(|d| d.cover(1));
    assert_eq!(links.emptied(), &[2, 3]);
    assert_eq!(links.view().emptied_since(0), Some(3), "C was emptied last");
    assert_eq!(links.view().emptied_since(2), None, "nothing since position 2");
    links.with(|d| d.cover(3));
    assert_eq!(links.view().emptied_since(0), Some(2), "C is covered, B is still empty");
}

/// The record of emptied items fills up to one entry per primary item, and removals after
/// that (here from a secondary item's list) write into the slot above it without growing it.
#[test]
fn the_record_of_emptied_items_can_hold_every_primary_item() {
    let problem = Problem::parse_dlx("A B | S\nA S\nB S\n").unwrap();
    let mut links = Links::new(&problem);
    let first = |k| problem.option_first_node(OptionId::from_u32(k)).unwrap();
    // Removing option `B S` empties B, then option `A S` empties A; S never reads as empty.
    links.with(|d| d.remove_option(first(1)));
    links.with(|d| d.remove_option(first(0)));
    assert_eq!(links.emptied(), &[2, 1]);
    assert_eq!(links.emptied[2], 3, "S's last removal went into the slot above the record");
    // Undone as the solver undoes exclusions: each truncates the record to its mark.
    links.with(|d| d.restore_option(first(0)));
    links.truncate_emptied(1);
    links.with(|d| d.restore_option(first(1)));
    links.truncate_emptied(0);
    assert_eq!((links.len_of(1), links.len_of(2), links.len_of(3)), (1, 1, 2));
    assert_eq!(links.view().emptied_since(0), None);
}

/// A record grown by misuse (covering again and again without truncating it) stops the
/// operation with a panic before any store could leave the buffer.
#[test]
fn an_overgrown_record_panics() {
    let problem = Problem::parse_dlx("A B C\nA B C\n").unwrap();
    let mut links = Links::new(&problem);
    links.with(|d| {
        d.cover(1);
        d.uncover(1);
    });
    assert_eq!(links.emptied(), &[2, 3]);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for _ in 0..3 {
            links.with(|d| {
                d.cover(1);
                d.uncover(1);
            });
        }
    }));
    assert!(result.is_err(), "the record grew past its bound");
}

/// Indices from outside the links are checked: a header is no option node, a spacer no item.
#[test]
fn entry_points_check_their_indices() {
    let problem = Problem::parse_dlx("A B\nA B\n").unwrap();
    let mut links = Links::new(&problem);
    for bad in [0, 1, 2, 3, 6, 7] {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            links.clone().with(|d| d.cover_rest(bad));
        }));
        assert!(result.is_err(), "node {bad} taken as an option node");
    }
    for bad in [0, 3, 4] {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            links.clone().with(|d| d.cover(bad));
        }));
        assert!(result.is_err(), "{bad} taken as an item");
    }
    // The colored operations need a color per node, which a problem without colors lacks.
    for colored in [
        &(|d: &mut super::LinksMut<'_>| d.cover_colored(1)) as &dyn Fn(&mut super::LinksMut<'_>),
        &|d| d.cover_rest_colored(4),
        &|d| d.uncover_rest_colored(4),
    ] {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            links.clone().with(colored);
        }));
        assert!(result.is_err(), "a colored operation ran without colors");
    }
    // The option `A B` is nodes 4 and 5, after the spacer 3; node 6 is the last spacer.
    links.with(|d| d.cover_rest(4));
    assert!(links.is_covered(2) && !links.is_covered(1));
}
