//! Forced and excluded options: the solver's stack of restrictions.
//!
//! Restrictions are applied at the base level, below any search, and taken back strictly in
//! reverse order ([`Solver::undo`]), or all but the first few at once ([`Solver::undo_to`]), or
//! all ([`Solver::reset`]). Forcing an option covers its items, as the search covers a chosen
//! option; excluding one takes its nodes out of their lists. Each restriction records the length
//! of the record of emptied items before it, which undoing it truncates back to, and the updates
//! it cost, which tell whether undoing many costs more than copying the initial links and
//! applying the few kept again.

use crate::index::{ItemId, OptionId, to_u32};

use super::{ForceError, Solver, Undone};

/// A forced or excluded option: the option's first node, the length of the record of emptied items
/// before it was applied, and the list removals applying it made (what undoing it costs).
#[derive(Clone, Copy, Debug)]
pub(super) enum Restriction {
    Forced(u32, usize, u64),
    Excluded(u32, usize, u64),
}

impl Restriction {
    /// The list removals applying it made.
    fn cost(self) -> u64 {
        match self {
            Restriction::Forced(_, _, cost) | Restriction::Excluded(_, _, cost) => cost,
        }
    }
}

impl Solver<'_> {
    /// Forces an option into every solution of the following runs, before the search starts.
    ///
    /// Fails, changing nothing, if the option is forced already, shares an item with an option
    /// already forced, or is excluded.
    /// [`undo`](Self::undo) takes back the last forced or excluded option, [`reset`](Self::reset)
    /// all of them.
    pub fn force(&mut self, option: OptionId) -> Result<(), ForceError> {
        self.settle();
        let first = self.problem.option_first_node(option).ok_or(ForceError::UnknownOption(option))?;
        if self.chosen[..self.base].contains(&first) {
            return Err(ForceError::AlreadyForced(option));
        }
        if let Some(item) = self.links.covered_item_of_option(first) {
            return Err(self.conflict(option, item));
        }
        // With multiplicities, forcing an option takes it out of the lists without covering all
        // its items: an option is chosen once at most.
        if self.multi.is_some() && self.chosen[..self.base].contains(&first) {
            return Err(self.conflict(option, self.problem.tops[first as usize]));
        }
        // In a problem with colors: an item a forced option gave another color (or none).
        if let Some(item) = self.links.clashing_item_of_option(first) {
            return Err(self.conflict(option, item));
        }
        // All its items are active, so only an exclusion can have taken it out of their lists.
        if !self.links.is_linked(first) {
            return Err(ForceError::Excluded(option));
        }
        let forced = self.apply_forced(first);
        self.restrictions.push(forced);
        self.level = self.base;
        Ok(())
    }

    /// Covers the items of the option whose first node is `first` as a forced option at the base
    /// level; returns its record.
    pub(super) fn apply_forced(&mut self, first: u32) -> Restriction {
        let mark = self.links.emptied_len();
        let before = self.links.updates();
        match &mut self.multi {
            None => self.links.with(|d| d.cover_option(first)),
            Some(m) => self.links.with(|d| d.force_multi(first, &mut m.bound)),
        }
        let cost = self.links.updates() - before;
        self.restriction_cost += cost;
        self.chosen[self.base] = first;
        self.base += 1;
        Restriction::Forced(first, mark, cost)
    }

    /// Takes the option whose first node is `first` out of its items' lists; returns its record.
    pub(super) fn apply_excluded(&mut self, first: u32) -> Restriction {
        let mark = self.links.emptied_len();
        let cost = u64::from(self.links.with(|d| d.remove_option(first)));
        self.restriction_cost += cost;
        Restriction::Excluded(first, mark, cost)
    }

    /// Builds the error for forcing `option` when layout item `item` is already covered.
    fn conflict(&self, option: OptionId, item: u32) -> ForceError {
        let item_id = self.problem.item_of_layout(item);
        let forced = self.chosen[..self.base]
            .iter()
            .map(|&first| self.problem.option_of_node(first))
            .find(|&forced| self.problem.option_items(forced).any(|i| i == item_id))
            .unwrap_or(option);
        ForceError::Conflict {
            option,
            forced,
            item: item_id,
            item_name: self.problem.item_name(item_id).to_owned(),
        }
    }

    /// Takes back the last forced or excluded option (`None` when there is none).
    pub fn undo(&mut self) -> Option<Undone> {
        self.settle();
        let last = self.restrictions.pop()?;
        Some(match last {
            Restriction::Forced(first, mark, cost) => {
                self.restriction_cost -= cost;
                match &mut self.multi {
                    None => self.links.with(|d| d.uncover_option(first)),
                    Some(m) => self.links.with(|d| d.unforce_multi(first, &mut m.bound)),
                }
                self.links.truncate_emptied(mark);
                self.base -= 1;
                self.level = self.base;
                Undone::Forced(self.problem.option_of_node(first))
            }
            Restriction::Excluded(first, mark, cost) => {
                self.restriction_cost -= cost;
                self.links.with(|d| d.restore_option(first));
                self.links.truncate_emptied(mark);
                Undone::Excluded(self.problem.option_of_node(first))
            }
        })
    }

    /// Takes back the last forced option, if it is the last restriction applied (an exclusion
    /// made after it must be undone first).
    pub fn unforce(&mut self) -> Option<OptionId> {
        match self.restrictions.last()? {
            Restriction::Forced(..) => match self.undo() {
                Some(Undone::Forced(option)) => Some(option),
                _ => None,
            },
            Restriction::Excluded(..) => None,
        }
    }

    /// The forced options, in the order they were forced.
    pub fn forced(&self) -> impl ExactSizeIterator<Item = OptionId> + '_ {
        self.chosen[..self.base].iter().map(|&first| self.problem.option_of_node(first))
    }

    /// Excludes an option from the following runs, as if it were not in the problem: a restriction
    /// such as "this cell holds an even digit", or "this cell holds another digit than before".
    ///
    /// Returns `Ok(false)`, changing nothing, when the option is already unavailable: excluded
    /// before, or sharing an item with a forced option. Fails, changing nothing, when the option
    /// itself is forced: a contradiction, not a restriction. Forcing and excluding may be mixed;
    /// [`undo`](Self::undo) takes them back in reverse order, [`reset`](Self::reset) all at once.
    pub fn exclude(&mut self, option: OptionId) -> Result<bool, ForceError> {
        self.settle();
        let first = self.problem.option_first_node(option).ok_or(ForceError::UnknownOption(option))?;
        if self.chosen[..self.base].contains(&first) {
            return Err(ForceError::Forced(option));
        }
        if self.links.covered_item_of_option(first).is_some()
            || self.links.clashing_item_of_option(first).is_some()
        {
            return Ok(false);
        }
        // All its items are active, so the option is in every one of their lists unless it was
        // excluded before.
        if !self.links.is_linked(first) {
            return Ok(false);
        }
        let excluded = self.apply_excluded(first);
        self.restrictions.push(excluded);
        Ok(true)
    }

    /// Takes back every forced and excluded option: the solver is as [`new`](Self::new) made it
    /// (budget, flag and seed stay).
    pub fn reset(&mut self) {
        if self.restrictions.is_empty() && !self.pending {
            return;
        }
        self.take_back_to(0);
    }

    /// The number of forced and excluded options in force.
    pub fn restriction_count(&self) -> usize {
        self.restrictions.len()
    }

    /// Takes back the forced and excluded options after the first `len`, the latest first, as that
    /// many calls of [`undo`](Self::undo) would. Where undoing them would cost more than starting
    /// over, it copies the problem's initial links instead and applies the first `len` again, as
    /// [`reset`](Self::reset) does for `len == 0`: a caller that keeps a few restrictions and
    /// drops many pays for the few.
    pub fn undo_to(&mut self, len: usize) {
        if len < self.restrictions.len() {
            self.take_back_to(len);
        }
    }

    /// Takes back the restrictions after the first `len` and any paused run, by undoing them or
    /// by copying the initial links and applying the first `len` again, whichever costs less.
    pub(super) fn take_back_to(&mut self, len: usize) {
        // Undoing costs about as much as the removals it takes back (for a paused run, at most
        // the run's removals); copying costs a fraction of an operation per node, and applying
        // again what the restrictions kept cost the first time.
        let above: u64 = if len == 0 {
            self.restriction_cost
        } else {
            self.restrictions[len..].iter().map(|r| r.cost()).sum()
        };
        let pending_cost = if self.pending { self.links.updates() } else { 0 };
        let undo_cost = above.saturating_add(pending_cost);
        let again = self.restriction_cost - above;
        let copy = u64::from(to_u32(self.problem.node_count()));
        if undo_cost.saturating_mul(16) < copy.saturating_add(again.saturating_mul(16)) {
            self.settle();
            while self.restrictions.len() > len {
                self.undo();
            }
            return;
        }
        self.links.restore(self.problem);
        if let Some(m) = &mut self.multi {
            m.restore(self.problem);
        }
        self.restrictions.truncate(len);
        self.restriction_cost = 0;
        self.base = 0;
        self.pending = false;
        self.pool.clear();
        // Each restriction kept is applied again on the same links as the first time, so its
        // record comes out the same.
        for k in 0..len {
            self.restrictions[k] = match self.restrictions[k] {
                Restriction::Forced(first, ..) => {
                    debug_assert_eq!(self.chosen[self.base], first);
                    self.apply_forced(first)
                }
                Restriction::Excluded(first, ..) => self.apply_excluded(first),
            };
        }
        self.level = self.base;
    }

    /// Whether an item is still uncovered by the forced options.
    pub fn is_item_free(&self, item: ItemId) -> bool {
        let Some(i) = self.problem.layout_of(item) else { return false };
        if self.pending {
            // The links also show the paused run's levels: ask the forced options instead.
            !self.forced().any(|option| self.problem.option_items(option).any(|j| j == item))
        } else {
            self.links.is_listed(i)
        }
    }
}
