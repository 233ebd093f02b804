//! The mutable links and the four dancing-links operations: cover, uncover, hide, unhide.
//!
//! This is the hot core of the search. All indices are `u32`; a [`Dance`] is only ever made from a
//! [`Problem`](crate::Problem), whose builder guarantees every link is a valid index into `nodes` or
//! `links`, and the operations below only ever copy existing links around, so that stays true.

use crate::problem::{Link, Node};

/// The mutable copy of a problem's links, plus the update counter.
#[derive(Clone, Debug)]
pub(crate) struct Dance {
    pub(crate) links: Vec<Link>,
    pub(crate) nodes: Vec<Node>,
    /// List removals so far (Knuth's "updates"): one per item covered, one per node hidden.
    pub(crate) updates: u64,
}

impl Dance {
    /// A view of the links for the hot loop: slices kept in registers, updates counted locally.
    #[inline(always)]
    pub(crate) fn view(&mut self) -> Links<'_> {
        Links { links: &mut self.links, nodes: &mut self.nodes, updates: self.updates }
    }

    /// The item of option node `p` (0 for a spacer).
    pub(crate) fn item_of(&self, p: u32) -> u32 {
        self.nodes[p as usize].top
    }

    /// Whether item `i` is still in its list of active items.
    pub(crate) fn is_active(&self, i: u32) -> bool {
        self.links[self.links[i as usize].left as usize].right == i
    }

    /// Whether option node `p` is linked into its item's list.
    pub(crate) fn is_linked(&self, p: u32) -> bool {
        self.nodes[self.nodes[p as usize].up as usize].down == p
    }

    /// Runs `f` on a view and stores its update count back.
    pub(crate) fn with<R>(&mut self, f: impl FnOnce(&mut Links<'_>) -> R) -> R {
        let mut view = self.view();
        let r = f(&mut view);
        self.updates = view.updates;
        r
    }
}

/// A borrowed view of a [`Dance`] on which the dancing-links operations run. Its `updates` must be
/// written back with [`Links::updates`] when done.
pub(crate) struct Links<'a> {
    links: &'a mut [Link],
    nodes: &'a mut [Node],
    updates: u64,
}

impl Links<'_> {
    /// The update count, to store back into the [`Dance`].
    #[inline(always)]
    pub(crate) fn updates(&self) -> u64 {
        self.updates
    }

    #[inline(always)]
    fn node(&self, i: u32) -> Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: see the module docs: every link is a valid node index.
        unsafe { *self.nodes.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: see the module docs: every link is a valid node index.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn link(&self, i: u32) -> Link {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: see the module docs: every item link is a valid item index.
        unsafe { *self.links.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn link_mut(&mut self, i: u32) -> &mut Link {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: see the module docs: every item link is a valid item index.
        unsafe { self.links.get_unchecked_mut(i as usize) }
    }

    /// The length of item `i`'s list.
    #[inline(always)]
    pub(crate) fn len(&self, i: u32) -> u32 {
        self.node(i).top
    }

    /// The first active primary item (0 when none is left).
    #[inline(always)]
    pub(crate) fn first_primary(&self) -> u32 {
        self.link(0).right
    }

    /// The next item in its (primary or secondary) list.
    #[inline(always)]
    pub(crate) fn right(&self, i: u32) -> u32 {
        self.link(i).right
    }

    /// The node below `p` in its item's list.
    #[inline(always)]
    pub(crate) fn down(&self, p: u32) -> u32 {
        self.node(p).down
    }

    /// The item of option node `p` (0 for a spacer).
    #[inline(always)]
    pub(crate) fn top(&self, p: u32) -> u32 {
        self.node(p).top
    }

    /// Removes item `i` from its list and hides every option in its list from the other items.
    #[inline(always)]
    pub(crate) fn cover(&mut self, i: u32) {
        let Link { left, right } = self.link(i);
        self.link_mut(left).right = right;
        self.link_mut(right).left = left;
        self.updates += 1;
        let mut p = self.node(i).down;
        while p != i {
            self.hide(p);
            p = self.node(p).down;
        }
    }

    /// Undoes [`cover`](Self::cover) of item `i`, in exactly the reverse order.
    #[inline(always)]
    pub(crate) fn uncover(&mut self, i: u32) {
        let mut p = self.node(i).up;
        while p != i {
            self.unhide(p);
            p = self.node(p).up;
        }
        let Link { left, right } = self.link(i);
        self.link_mut(left).right = i;
        self.link_mut(right).left = i;
    }

    /// Takes the nodes of `p`'s option, other than `p`, out of their item lists.
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { top: x, up: u, down: d } = self.node(q);
            if x == 0 {
                // A spacer: wrap around to the first node of the option.
                q = u;
            } else {
                self.node_mut(u).down = d;
                self.node_mut(d).up = u;
                self.node_mut(x).top -= 1;
                self.updates += 1;
                q += 1;
            }
        }
    }

    /// Undoes [`hide`](Self::hide), in exactly the reverse order.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { top: x, up: u, down: d } = self.node(q);
            if x == 0 {
                // A spacer: wrap around to the last node of the option.
                q = d;
            } else {
                self.node_mut(u).down = q;
                self.node_mut(d).up = q;
                self.node_mut(x).top += 1;
                q -= 1;
            }
        }
    }

    /// Covers the items of `p`'s option other than `p`'s own, left to right (Knuth's X5).
    #[inline(always)]
    pub(crate) fn cover_rest(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { top: j, up: u, .. } = self.node(q);
            if j == 0 {
                q = u;
            } else {
                self.cover(j);
                q += 1;
            }
        }
    }

    /// Undoes [`cover_rest`](Self::cover_rest), right to left (Knuth's X6).
    #[inline(always)]
    pub(crate) fn uncover_rest(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { top: j, down: d, .. } = self.node(q);
            if j == 0 {
                q = d;
            } else {
                self.uncover(j);
                q -= 1;
            }
        }
    }

    /// Covers every item of the option whose first node is `first`, left to right.
    pub(crate) fn cover_option(&mut self, first: u32) {
        let mut q = first;
        while self.top(q) != 0 {
            self.cover(self.top(q));
            q += 1;
        }
    }

    /// Undoes [`cover_option`](Self::cover_option), right to left.
    pub(crate) fn uncover_option(&mut self, first: u32) {
        let mut q = first;
        while self.top(q) != 0 {
            q += 1;
        }
        while q != first {
            q -= 1;
            self.uncover(self.top(q));
        }
    }

    /// Takes every node of the option whose first node is `first` out of its item's list.
    pub(crate) fn remove_option(&mut self, first: u32) {
        let mut q = first;
        while self.top(q) != 0 {
            let Node { top: x, up: u, down: d } = self.node(q);
            self.node_mut(u).down = d;
            self.node_mut(d).up = u;
            self.node_mut(x).top -= 1;
            q += 1;
        }
    }

    /// Undoes [`remove_option`](Self::remove_option), in reverse order.
    pub(crate) fn restore_option(&mut self, first: u32) {
        let mut q = first;
        while self.top(q) != 0 {
            q += 1;
        }
        while q != first {
            q -= 1;
            let Node { top: x, up: u, down: d } = self.node(q);
            self.node_mut(u).down = q;
            self.node_mut(d).up = q;
            self.node_mut(x).top += 1;
        }
    }

    /// Minimum remaining values: the first active primary item with the shortest list, stopping
    /// at the first one with at most one option. 0 when no primary item is left.
    #[inline(always)]
    pub(crate) fn choose(&self) -> u32 {
        let mut best = u32::MAX;
        let mut chosen = 0;
        let mut k = self.link(0).right;
        while k != 0 {
            let len = self.node(k).top;
            if len < best {
                best = len;
                chosen = k;
                if len <= 1 {
                    break;
                }
            }
            k = self.link(k).right;
        }
        chosen
    }
}
