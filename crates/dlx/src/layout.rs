//! The matrix layout of Knuth's dlx1 (TAOCP 7.2.2.1): the records and the marks every other
//! module reads. A leaf: it imports nothing of the crate.
//!
//! Items are numbered `1..=N` in the layout, primaries `1..=N₁` first. Three flat arrays,
//! indexed by `u32`, hold the matrix:
//!
//! * **Item records** `0..=N+1` ([`ItemLink`]: `left`/`right`). Record 0 (the root) heads the
//!   circular list of active primary items; record `N+1` heads the list of secondary items, which
//!   are never chosen for branching.
//! * **Node tops** (`u32` each) and **node links** ([`UpDown`]: `up`/`down`), two parallel arrays
//!   indexed alike. Nodes `1..=N` are the item headers: `top` is the length of the item's list,
//!   `up`/`down` its last and first option node. Node `N+1` is the first spacer; after it come
//!   the options, each as consecutive nodes followed by a spacer. An option node's `top` is its
//!   item and `up`/`down` link it into that item's vertical list. A spacer has `top == 0`; its
//!   `up` is the first node of the option before it and its `down` the last node of the option
//!   after it, so that walking an option cyclically (`p+1, p+2, …`) jumps from its end back to
//!   its start. Node 0 stands for the root and is never linked.
//!
//! Knuth's DLX1 keeps `top`, `up` and `down` together in one record per node; here they are two
//! arrays, so that the random writes of hiding and unhiding touch 8 bytes a node instead of 12
//! (the measurements are in `benches/RESULTS.md`). The crate docs draw Knuth's worked example in
//! this layout, node by node; `problem::tests` pins that table.
//!
//! # Marks in the headers
//!
//! A header's `top` holds the item's list length in its low 30 bits and two marks above them:
//!
//! * [`SECONDARY`] (bit 30), for good on the header of a secondary item, so that its length never
//!   reads as 0: the record of emptied items (see `links`) then needs no test of an item's kind.
//! * [`COVERED`] (bit 31), while the item is covered, so that a scan of the lengths of all
//!   primary items, as an array, never picks a covered one (see `choose`).
//!
//! Lengths therefore stay below `2^30`: hence [`MAX_NODES`].
//!
//! # Colors
//!
//! A problem whose options give secondary items colors (Knuth's XCC) has one more array, indexed
//! like the nodes: an option node's color (0 for none, `k` for the `k`-th color name), and on an
//! item header the color the item is committed to while a chosen or forced option gives it one (0
//! otherwise). A node whose item is committed to its own color by another node is *cleansed*
//! (`links::CLEANSED`) until that commitment is undone. A problem without colors has no such
//! array, and the search runs the code of plain Algorithm X. The [`Problem`](crate::Problem)
//! stores its matrix in exactly this form, marks included, and a solver starts from a copy of it.

/// The largest number of nodes (item headers, option nodes and spacers together) a problem may
/// have.
///
/// Node indices are `u32`. The limit is below `2^30` so that list lengths leave the two top bits
/// of a header free for its two marks (secondary, covered: see the crate docs).
pub const MAX_NODES: usize = (1 << 30) - 1;

/// Added to an item header's `top` while the item is covered.
pub(crate) const COVERED: u32 = 1 << 31;

/// Added to a secondary item header's `top` for good.
pub(crate) const SECONDARY: u32 = 1 << 30;

/// The bits of a header's `top` that hold the list length.
pub(crate) const LEN_MASK: u32 = SECONDARY - 1;

const _: () = assert!(MAX_NODES as u64 <= LEN_MASK as u64, "lengths fit below the marks");

/// The `left`/`right` links of an item record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct ItemLink {
    pub(crate) left: u32,
    pub(crate) right: u32,
}

/// The `up`/`down` links of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub(crate) struct UpDown {
    pub(crate) up: u32,
    pub(crate) down: u32,
}
