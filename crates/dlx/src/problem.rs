//! The immutable exact-cover matrix and the builder that makes it.
//!
//! # What the links rely on
//!
//! A solver copies a [`Problem`]'s arrays into its links (see `links`), whose unchecked reads are
//! sound only because [`ProblemBuilder::build`] lays them out so (see `layout` for the fields):
//!
//! * items are numbered `1..=N` in the layout, the primary ones first; item record 0 heads the
//!   circular list of the primary items, record `N + 1` that of the secondary ones;
//! * every header's up and down links, and every option node's, name a node of the same column
//!   (the header or an option node whose `top` is that item), in increasing node order around
//!   the header, and a header's `top` holds its list's length (with the secondary mark on a
//!   secondary item);
//! * every option node's `top` is an item in `1..=N`; no option names an item twice, and every
//!   option has a primary item;
//! * a spacer (`top` 0) stands before the first option and after every option, its up link naming
//!   the first node of the option before it and its down link the last node of the option after
//!   it, so that a walk along an option from any of its nodes stays inside it;
//! * the node array ends with a spacer, and holds at most [`MAX_NODES`] nodes, so that every
//!   index fits a `u32` and a header's length leaves its two top bits to the marks;
//! * colors, when any option has one, have one slot per node (0 for none).

use std::collections::HashMap;
use std::fmt;

use crate::excerpt::Excerpt;
use crate::index::{ItemId, OptionId, to_u32};
use crate::layout::{ItemLink, MAX_NODES, SECONDARY, UpDown};

/// An error found while building a [`Problem`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two items were given the same name.
    #[error("item `{}` is declared twice", Excerpt(name))]
    DuplicateItem {
        /// The repeated name.
        name: String,
    },
    /// An item name is empty, contains white space, `|` or `:`, or starts with U+FEFF.
    #[error("invalid item name `{}`: {reason}", Excerpt(name))]
    InvalidName {
        /// The rejected name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A cost was given to an option not yet added.
    #[error("option {option} has not been added")]
    UnknownOption {
        /// The option (numbered from 0).
        option: usize,
    },
    /// An option names an item that was never declared.
    #[error("option {option} names unknown item `{}`", Excerpt(name))]
    UnknownItem {
        /// The option (numbered from 0) being added.
        option: usize,
        /// The unknown name, or the out-of-range id written as `#id`.
        name: String,
    },
    /// An option lists the same item twice.
    #[error("option {option} lists item `{}` twice", Excerpt(name))]
    RepeatedItem {
        /// The option (numbered from 0) being added.
        option: usize,
        /// The repeated item's name.
        name: String,
    },
    /// An option lists no items at all.
    #[error("option {option} is empty")]
    EmptyOption {
        /// The option (numbered from 0) being added.
        option: usize,
    },
    /// An option lists only secondary items; no search could ever choose it.
    #[error("option {option} has no primary item")]
    NoPrimaryItem {
        /// The option (numbered from 0) being added.
        option: usize,
    },
    /// A color on a primary item: only secondary items take colors.
    #[error(
        "option {option} gives primary item `{}` a color; only secondary items take colors",
        Excerpt(name)
    )]
    ColoredPrimary {
        /// The option (numbered from 0) being added.
        option: usize,
        /// The primary item's name.
        name: String,
    },
    /// A color name that is empty or contains white space, `|` or `:`.
    #[error(
        "option {option}: invalid color `{}` (a color is a name without white space, `|` or `:`)",
        Excerpt(color)
    )]
    InvalidColor {
        /// The option (numbered from 0) being added.
        option: usize,
        /// The rejected color.
        color: String,
    },
    /// Bounds `lower..=upper` on a primary item's number of covers that no solution could meet, or
    /// that mean nothing: `lower > upper`, or `upper == 0`.
    #[error("item `{}`: bounds {lower} to {upper} are invalid: {reason}", Excerpt(name))]
    InvalidBounds {
        /// The item's name.
        name: String,
        /// The least number of covers asked.
        lower: u32,
        /// The largest number of covers asked.
        upper: u32,
        /// What is wrong with them.
        reason: &'static str,
    },
    /// The matrix would need more nodes than the limit (at most [`MAX_NODES`]).
    #[error("the problem needs more than {limit} nodes")]
    TooLarge {
        /// The node limit in force.
        limit: usize,
    },
}

/// Builds a [`Problem`]: declare items, then add options as lists of items.
///
/// Items may be declared in any order; in the matrix the primary items come first, as Knuth's
/// layout requires, but [`ItemId`]s keep the order of declaration. Every method checks its input
/// at once and leaves the builder unchanged when it returns an error.
///
/// ```
/// use dlx_engine::ProblemBuilder;
/// # fn main() -> Result<(), dlx_engine::BuildError> {
/// let mut b = ProblemBuilder::new();
/// let [a, bb] = [b.primary("a")?, b.primary("b")?];
/// let x = b.secondary("x")?;
/// b.option([a, x])?;
/// b.option([bb])?;
/// b.option_by_names(["a", "b"])?;
/// let problem = b.build();
/// assert_eq!(problem.option_count(), 3);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ProblemBuilder {
    names: Vec<Box<str>>,
    primary: Vec<bool>,
    /// Each declared item's bounds on its number of covers (`(1, 1)` for a plain primary item;
    /// unused for a secondary one).
    bounds: Vec<(u32, u32)>,
    by_name: HashMap<Box<str>, ItemId>,
    option_items: Vec<ItemId>,
    /// The color of each entry of `option_items`: 0 for none, else an index into `color_names`
    /// plus 1.
    option_colors: Vec<u32>,
    color_names: Vec<Box<str>>,
    color_ids: HashMap<Box<str>, u32>,
    option_ends: Vec<usize>,
    /// Each option's cost (Knuth's DLX5), or empty while every option costs 0.
    costs: Vec<u64>,
    mark: Vec<bool>,
    node_limit: usize,
}

impl Default for ProblemBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ProblemBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        ProblemBuilder {
            names: Vec::new(),
            primary: Vec::new(),
            bounds: Vec::new(),
            by_name: HashMap::new(),
            option_items: Vec::new(),
            option_colors: Vec::new(),
            color_names: Vec::new(),
            color_ids: HashMap::new(),
            option_ends: Vec::new(),
            costs: Vec::new(),
            mark: Vec::new(),
            node_limit: MAX_NODES,
        }
    }

    /// Lowers the node limit (never above [`MAX_NODES`]): a guard against problems too large for
    /// the memory at hand. Building past it gives [`BuildError::TooLarge`].
    pub fn node_limit(mut self, limit: usize) -> Self {
        self.node_limit = limit.min(MAX_NODES);
        self
    }

    /// Nodes the matrix needs so far: root, headers, spacers and option nodes.
    fn node_count(&self) -> usize {
        // root + headers + first spacer + option nodes + one spacer per option
        1 + self.names.len() + 1 + self.option_items.len() + self.option_ends.len()
    }

    fn check_size(&self, extra: usize) -> Result<(), BuildError> {
        match self.node_count().checked_add(extra) {
            Some(n) if n <= self.node_limit => Ok(()),
            _ => Err(BuildError::TooLarge { limit: self.node_limit }),
        }
    }

    fn declare(&mut self, name: String, primary: bool) -> Result<ItemId, BuildError> {
        check_name(&name)?;
        if self.by_name.contains_key(name.as_str()) {
            return Err(BuildError::DuplicateItem { name });
        }
        self.check_size(1)?;
        let id = ItemId::new(self.names.len()).ok_or(BuildError::TooLarge { limit: self.node_limit })?;
        let name: Box<str> = name.into();
        self.by_name.insert(name.clone(), id);
        self.names.push(name);
        self.primary.push(primary);
        self.bounds.push((1, 1));
        self.mark.push(false);
        Ok(id)
    }

    /// Declares a primary item (one that every solution covers exactly once).
    pub fn primary(&mut self, name: impl Into<String>) -> Result<ItemId, BuildError> {
        self.declare(name.into(), true)
    }

    /// Declares a primary item that every solution covers at least `bounds.start()` and at most
    /// `bounds.end()` times (Knuth's multiplicities, his MCC problems, as DLX3 reads them): each
    /// option is still chosen at most once, and each solution, a set of options, is found once.
    /// `1..=1` is a plain primary item; a lower bound of 0 makes the item optional.
    ///
    /// Fails with [`BuildError::InvalidBounds`] when the lower bound exceeds the upper one, or the
    /// upper one is 0.
    ///
    /// ```
    /// use dlx_engine::{ProblemBuilder, Solver};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Choose two of four options, each covering item `pair` once.
    /// let mut b = ProblemBuilder::new();
    /// let pair = b.primary_with_bounds("pair", 2..=2)?;
    /// for _ in 0..4 {
    ///     b.option([pair])?;
    /// }
    /// assert_eq!(Solver::new(&b.build()).count()?, 6);
    /// # Ok(()) }
    /// ```
    pub fn primary_with_bounds(
        &mut self,
        name: impl Into<String>,
        bounds: std::ops::RangeInclusive<u32>,
    ) -> Result<ItemId, BuildError> {
        let name = name.into();
        let (lower, upper) = (*bounds.start(), *bounds.end());
        let reason = if lower > upper {
            Some("the lower bound exceeds the upper one")
        } else if upper == 0 {
            Some("the upper bound is 0, so no option could cover the item")
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(BuildError::InvalidBounds { name, lower, upper, reason });
        }
        let id = self.declare(name, true)?;
        self.bounds[id.index()] = (lower, upper);
        Ok(id)
    }

    /// Declares a secondary item (one that a solution covers at most once).
    pub fn secondary(&mut self, name: impl Into<String>) -> Result<ItemId, BuildError> {
        self.declare(name.into(), false)
    }

    /// Declares an anonymous primary item. It is named `#k`, where `k` is its [`ItemId`].
    pub fn anonymous_primary(&mut self) -> Result<ItemId, BuildError> {
        self.declare(format!("#{}", self.names.len()), true)
    }

    /// Declares an anonymous secondary item. It is named `#k`, where `k` is its [`ItemId`].
    pub fn anonymous_secondary(&mut self) -> Result<ItemId, BuildError> {
        self.declare(format!("#{}", self.names.len()), false)
    }

    /// The id of the item with this name, if one was declared.
    pub fn item(&self, name: &str) -> Option<ItemId> {
        self.by_name.get(name).copied()
    }

    /// Whether a declared item is primary (`false` for an unknown id).
    pub fn is_primary(&self, item: ItemId) -> bool {
        self.primary.get(item.index()).copied().unwrap_or(false)
    }

    /// The number of items declared so far.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// The number of options added so far.
    pub fn option_count(&self) -> usize {
        self.option_ends.len()
    }

    /// Adds an option covering the given items, in that order.
    pub fn option(&mut self, items: impl IntoIterator<Item = ItemId>) -> Result<OptionId, BuildError> {
        let start = self.option_items.len();
        self.option_items.extend(items);
        self.finish_option(start)
    }

    /// Adds an option whose secondary items may carry a color (Knuth's XCC problems): a
    /// solution then covers every primary item exactly once, and for each secondary item either
    /// at most one chosen option touches it without a color, or every chosen option that touches
    /// it gives it the same color.
    ///
    /// ```
    /// use dlx_engine::{ProblemBuilder, Solver};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut b = ProblemBuilder::new();
    /// let [a, bb, x] = [b.primary("a")?, b.primary("b")?, b.secondary("x")?];
    /// b.option_with_colors([(a, None), (x, Some("red"))])?;
    /// b.option_with_colors([(bb, None), (x, Some("red"))])?;
    /// b.option_with_colors([(bb, None), (x, Some("blue"))])?;
    /// let problem = b.build();
    /// // `a x:red` goes with `b x:red`, not with `b x:blue`.
    /// assert_eq!(Solver::new(&problem).count()?, 1);
    /// # Ok(()) }
    /// ```
    pub fn option_with_colors<'a>(
        &mut self,
        items: impl IntoIterator<Item = (ItemId, Option<&'a str>)>,
    ) -> Result<OptionId, BuildError> {
        let start = self.option_items.len();
        let option = self.option_ends.len();
        let mut error = None;
        for (item, color) in items {
            self.option_items.push(item);
            let id = match color {
                None => 0,
                Some(color) if !is_valid_name(color) => {
                    error.get_or_insert(BuildError::InvalidColor { option, color: color.to_owned() });
                    0
                }
                Some(color) => match self.color_ids.get(color) {
                    Some(&id) => id,
                    None => {
                        self.color_names.push(color.into());
                        let id = to_u32(self.color_names.len());
                        self.color_ids.insert(color.into(), id);
                        id
                    }
                },
            };
            if id != 0 && error.is_none() && self.primary.get(item.index()).copied().unwrap_or(false) {
                let name = self.names[item.index()].to_string();
                error = Some(BuildError::ColoredPrimary { option, name });
            }
            self.option_colors.push(id);
        }
        match error {
            Some(error) => {
                self.option_items.truncate(start);
                self.option_colors.truncate(start);
                Err(error)
            }
            None => self.finish_option(start),
        }
    }

    /// Adds an option covering the items with the given names, in that order.
    pub fn option_by_names<'a>(
        &mut self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<OptionId, BuildError> {
        let start = self.option_items.len();
        for name in names {
            match self.by_name.get(name) {
                Some(&id) => self.option_items.push(id),
                None => {
                    self.option_items.truncate(start);
                    return Err(BuildError::UnknownItem {
                        option: self.option_ends.len(),
                        name: name.to_owned(),
                    });
                }
            }
        }
        self.finish_option(start)
    }

    /// Validates the items pushed since `start` as one new option (with no colors where none
    /// were pushed); on an error, takes them back.
    fn finish_option(&mut self, start: usize) -> Result<OptionId, BuildError> {
        self.option_colors.resize(self.option_items.len(), 0);
        let result = self.check_option(start);
        if result.is_err() {
            self.option_items.truncate(start);
            self.option_colors.truncate(start);
        }
        result
    }

    /// Validates the items pushed since `start` as one new option.
    fn check_option(&mut self, start: usize) -> Result<OptionId, BuildError> {
        let option = self.option_ends.len();
        if start == self.option_items.len() {
            return Err(BuildError::EmptyOption { option });
        }
        let mut error = None;
        let mut has_primary = false;
        let mut marked = start;
        for (at, &item) in self.option_items.iter().enumerate().skip(start) {
            let Some(mark) = self.mark.get_mut(item.index()) else {
                error = Some(BuildError::UnknownItem { option, name: format!("#{item}") });
                break;
            };
            if *mark {
                let name = self.names[item.index()].to_string();
                error = Some(BuildError::RepeatedItem { option, name });
                break;
            }
            *mark = true;
            marked = at + 1;
            has_primary |= self.primary[item.index()];
        }
        for &item in &self.option_items[start..marked] {
            self.mark[item.index()] = false;
        }
        if let Some(error) = error {
            return Err(error);
        }
        if !has_primary {
            return Err(BuildError::NoPrimaryItem { option });
        }
        let too_large = BuildError::TooLarge { limit: self.node_limit };
        let id = OptionId::new(option).ok_or(too_large.clone())?;
        self.option_ends.push(self.option_items.len());
        if self.node_count() > self.node_limit {
            self.option_ends.pop();
            return Err(too_large);
        }
        Ok(id)
    }

    /// Gives an option added before a cost (Knuth's DLX5: `|n` in a `.dlx` option line), 0 by
    /// default. [`Solver::best`](crate::Solver::best) finds the solutions of least total cost;
    /// counts and lists ignore costs.
    ///
    /// ```
    /// use dlx_engine::{ProblemBuilder, Solver};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut b = ProblemBuilder::new();
    /// let [x, y] = [b.primary("x")?, b.primary("y")?];
    /// let both = b.option([x, y])?;
    /// b.set_cost(both, 5)?;
    /// b.option([x])?;
    /// let single = b.option([y])?;
    /// b.set_cost(single, 2)?;
    /// let problem = b.build();
    /// let best = Solver::new(&problem).best(1)?;
    /// assert_eq!(best[0].0, 2); // `x` and `y` apart: 0 + 2
    /// # Ok(()) }
    /// ```
    pub fn set_cost(&mut self, option: OptionId, cost: u64) -> Result<(), BuildError> {
        let n = self.option_ends.len();
        if option.index() >= n {
            return Err(BuildError::UnknownOption { option: option.index() });
        }
        if cost != 0 && self.costs.len() < n {
            self.costs.resize(n, 0);
        }
        if let Some(c) = self.costs.get_mut(option.index()) {
            *c = cost;
        }
        Ok(())
    }

    /// Lays the matrix out in Knuth's dlx1 form. Cannot fail: every limit was checked on the way.
    pub fn build(self) -> Problem {
        let n = self.names.len();
        let n_primary = self.primary.iter().filter(|&&p| p).count();
        // Layout position (1-based) of each declared item: primaries first, each kind in order.
        let mut layout_of = vec![0u32; n];
        let mut item_at = Vec::with_capacity(n);
        for want_primary in [true, false] {
            for (decl, &p) in self.primary.iter().enumerate() {
                if p == want_primary {
                    item_at.push(to_u32(decl));
                    layout_of[decl] = to_u32(item_at.len());
                }
            }
        }

        // Item records 0..=n+1: root 0 heads the primary list, n+1 heads the secondary list.
        let mut item_links = vec![ItemLink::default(); n + 2];
        let mut link_cycle = |head: usize, members: std::ops::RangeInclusive<usize>| {
            let mut prev = head;
            for k in members {
                item_links[prev].right = to_u32(k);
                item_links[k].left = to_u32(prev);
                prev = k;
            }
            item_links[prev].right = to_u32(head);
            item_links[head].left = to_u32(prev);
        };
        link_cycle(0, 1..=n_primary);
        link_cycle(n + 1, n_primary + 1..=n);

        let node_total = self.node_count();
        let mut tops = Vec::with_capacity(node_total);
        let mut uds = Vec::with_capacity(node_total);
        for i in 0..=n {
            tops.push(0);
            uds.push(UpDown { up: to_u32(i), down: to_u32(i) });
        }
        // First spacer.
        tops.push(0);
        uds.push(UpDown { up: 0, down: 0 });
        let mut option_first = Vec::with_capacity(self.option_ends.len() + 1);
        // Colors per node, only when some option has one (see `layout`).
        let colored = self.option_colors.iter().any(|&c| c != 0);
        let mut colors = Vec::new();
        let mut start = 0;
        for &end in &self.option_ends {
            let spacer_before = tops.len() - 1;
            let first = to_u32(tops.len());
            option_first.push(first);
            if colored {
                colors.resize(tops.len(), 0);
                colors.extend_from_slice(&self.option_colors[start..end]);
            }
            for &item in &self.option_items[start..end] {
                let top = layout_of[item.index()];
                let here = to_u32(tops.len());
                let header = top as usize;
                let last = uds[header].up;
                tops.push(top);
                uds.push(UpDown { up: last, down: top });
                uds[last as usize].down = here;
                uds[header].up = here;
                tops[header] += 1;
            }
            uds[spacer_before].down = to_u32(tops.len() - 1);
            tops.push(0);
            uds.push(UpDown { up: first, down: 0 });
            start = end;
        }
        option_first.push(to_u32(tops.len()));
        debug_assert_eq!(tops.len(), node_total);
        if colored {
            colors.resize(tops.len(), 0);
        }
        // The secondary items' headers carry their mark for good (see `layout`).
        for top in &mut tops[n_primary + 1..=n] {
            *top += SECONDARY;
        }
        let option_stride = uniform_stride(&option_first);
        // Bounds in layout order, only when some primary item has bounds other than `1..=1`.
        let bounds = if self.bounds.iter().zip(&self.primary).any(|(&b, &p)| p && b != (1, 1)) {
            let mut bounds = vec![(0, 0)];
            bounds.extend(item_at[..n_primary].iter().map(|&d| self.bounds[d as usize]));
            bounds
        } else {
            Vec::new()
        };

        Problem {
            names: self.names,
            by_name: self.by_name,
            layout_of,
            item_at,
            n_primary: to_u32(n_primary),
            item_links,
            tops,
            uds,
            option_first,
            option_stride,
            colors,
            color_names: if colored { self.color_names } else { Vec::new() },
            bounds,
            costs: {
                let mut costs = self.costs;
                if costs.iter().all(|&c| c == 0) {
                    costs = Vec::new();
                } else {
                    costs.resize(self.option_ends.len(), 0);
                }
                costs
            },
        }
    }
}

/// The common distance between consecutive options' first nodes (their size plus the spacer)
/// when every option has the same size; 0 otherwise.
fn uniform_stride(option_first: &[u32]) -> u32 {
    let stride = match option_first {
        [a, b, ..] => b - a,
        _ => return 0,
    };
    if option_first.windows(2).all(|w| w[1] - w[0] == stride) { stride } else { 0 }
}

/// Whether a color name is valid: non-empty, without white space, `|` or `:`.
fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && !name.chars().any(|c| c.is_whitespace() || c == '|' || c == ':')
}

fn check_name(name: &str) -> Result<(), BuildError> {
    let reason = if name.is_empty() {
        "it is empty"
    } else if name.chars().any(char::is_whitespace) {
        "it contains white space"
    } else if name.contains('|') {
        "it contains `|`"
    } else if name.contains(':') {
        "it contains `:` (which gives a color, in an option)"
    } else if name.starts_with('\u{feff}') {
        // Written first in a `.dlx` file, it would be read back as the file's byte-order mark.
        "it starts with U+FEFF, a byte-order mark"
    } else {
        return Ok(());
    };
    Err(BuildError::InvalidName { name: name.to_owned(), reason })
}

/// An exact-cover problem laid out as Knuth's dlx1 matrix. Immutable: searching never changes it,
/// so one problem can be shared by many [`Solver`](crate::Solver)s, on several threads.
#[derive(Clone)]
pub struct Problem {
    names: Vec<Box<str>>,
    by_name: HashMap<Box<str>, ItemId>,
    /// Declared item → layout index (1-based).
    layout_of: Vec<u32>,
    /// Layout index − 1 → declared item.
    item_at: Vec<u32>,
    n_primary: u32,
    /// The matrix in the layout of the `layout` module, headers marked, exactly as a solver
    /// starts from it: item records, node tops, node links.
    pub(crate) item_links: Vec<ItemLink>,
    pub(crate) tops: Vec<u32>,
    pub(crate) uds: Vec<UpDown>,
    /// First node of each option, then one past the last spacer.
    option_first: Vec<u32>,
    /// When every option has the same size, the distance between consecutive options' first
    /// nodes, so that the option of a node is found by a division; 0 otherwise.
    option_stride: u32,
    /// Each node's color (0: none; `k`: `color_names[k - 1]`), or empty when no option has a
    /// color (see `layout`).
    pub(crate) colors: Vec<u32>,
    color_names: Vec<Box<str>>,
    /// Each primary item's bounds `(lower, upper)` on its number of covers, indexed by layout
    /// position (entry 0 unused), or empty when every primary item has `1..=1`.
    pub(crate) bounds: Vec<(u32, u32)>,
    /// Each option's cost, or empty when every option costs 0.
    costs: Vec<u64>,
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("primary_items", &self.primary_count())
            .field("secondary_items", &self.secondary_count())
            .field("options", &self.option_count())
            .field("nodes", &self.tops.len())
            .finish()
    }
}

/// Two problems are equal when they have the same items (names, kinds, order within each kind)
/// and the same options, in the same order.
impl PartialEq for Problem {
    fn eq(&self, other: &Self) -> bool {
        self.n_primary == other.n_primary
            && self.tops == other.tops
            && self.uds == other.uds
            && self.option_first == other.option_first
            && self.bounds == other.bounds
            && self.costs == other.costs
            && self.colors.len() == other.colors.len()
            && self.colors.iter().zip(&other.colors).all(|(&a, &b)| self.color_name(a) == other.color_name(b))
            && self.item_at.len() == other.item_at.len()
            && self
                .item_at
                .iter()
                .zip(&other.item_at)
                .all(|(&a, &b)| self.names[a as usize] == other.names[b as usize])
    }
}

impl Eq for Problem {}

impl Problem {
    /// The number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// The number of primary items.
    pub fn primary_count(&self) -> usize {
        self.n_primary as usize
    }

    /// The number of secondary items.
    pub fn secondary_count(&self) -> usize {
        self.names.len() - self.primary_count()
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.option_first.len() - 1
    }

    /// The number of nodes in the matrix (headers, option nodes and spacers).
    pub fn node_count(&self) -> usize {
        self.tops.len()
    }

    /// All items, in declaration order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = ItemId> + '_ {
        (0..self.names.len()).map(|i| ItemId::from_u32(to_u32(i)))
    }

    /// All options, in the order they were added.
    pub fn options(&self) -> impl ExactSizeIterator<Item = OptionId> + '_ {
        (0..self.option_count()).map(|i| OptionId::from_u32(to_u32(i)))
    }

    /// The name of an item. Panics if the item is not of this problem.
    pub fn item_name(&self, item: ItemId) -> &str {
        &self.names[item.index()]
    }

    /// Whether an item is primary. Panics if the item is not of this problem.
    pub fn is_primary(&self, item: ItemId) -> bool {
        self.layout_of[item.index()] <= self.n_primary
    }

    /// The item with this name.
    pub fn item(&self, name: &str) -> Option<ItemId> {
        self.by_name.get(name).copied()
    }

    /// The items of an option, in the order given when it was added. Panics if the option is not
    /// of this problem.
    pub fn option_items(&self, option: OptionId) -> impl ExactSizeIterator<Item = ItemId> + Clone + '_ {
        let k = option.index();
        let (first, end) = (self.option_first[k] as usize, self.option_first[k + 1] as usize - 1);
        self.tops[first..end].iter().map(|&top| self.item_of_layout(top))
    }

    /// The option as a line of Knuth's `.dlx` format: its item names in the order given when it
    /// was added, separated by single spaces. Panics if the option is not of this problem.
    ///
    /// ```
    /// use dlx_engine::{OptionId, Problem};
    /// let problem: Problem = "A B | x\nA x\nB\n".parse().unwrap();
    /// assert_eq!(problem.display_option(OptionId::from_u32(0)).to_string(), "A x");
    /// ```
    pub fn display_option(&self, option: OptionId) -> impl fmt::Display + '_ {
        OptionNames { problem: self, option }
    }

    /// Whether some option gives a secondary item a color (an XCC problem).
    pub fn has_colors(&self) -> bool {
        !self.colors.is_empty()
    }

    /// Whether some option has a cost other than 0 (a problem of Knuth's DLX5).
    pub fn has_costs(&self) -> bool {
        !self.costs.is_empty()
    }

    /// An option's cost ([`ProblemBuilder::set_cost`]; 0 by default). Panics if the option is not
    /// of this problem.
    pub fn option_cost(&self, option: OptionId) -> u64 {
        assert!(option.index() < self.option_count(), "option {option} is not of this problem");
        self.costs.get(option.index()).copied().unwrap_or(0)
    }

    /// Whether some primary item has bounds other than `1..=1` (an MCC problem).
    pub fn has_multiplicities(&self) -> bool {
        !self.bounds.is_empty()
    }

    /// How many times a solution covers `item`: `1..=1` for a plain primary item, the bounds it
    /// was declared with otherwise ([`ProblemBuilder::primary_with_bounds`]), and `0..=1` for a
    /// secondary item. Panics if the item is not of this problem.
    pub fn item_bounds(&self, item: ItemId) -> std::ops::RangeInclusive<u32> {
        let at = self.layout_of[item.index()];
        if at > self.n_primary {
            0..=1
        } else {
            let (lower, upper) = self.bounds.get(at as usize).copied().unwrap_or((1, 1));
            lower..=upper
        }
    }

    /// The colors the option gives its items, in the order of
    /// [`option_items`](Self::option_items): `None` for an item without one. Panics if the option
    /// is not of this problem.
    pub fn option_colors(&self, option: OptionId) -> impl ExactSizeIterator<Item = Option<&str>> + '_ {
        let k = option.index();
        let (first, end) = (self.option_first[k] as usize, self.option_first[k + 1] as usize - 1);
        (first..end).map(|node| self.color_name(self.colors.get(node).copied().unwrap_or(0)))
    }

    /// The name of color `id` (0: none).
    pub(crate) fn color_name(&self, id: u32) -> Option<&str> {
        id.checked_sub(1).map(|k| &*self.color_names[k as usize])
    }

    /// The declared id of the item at layout index `top` (1-based).
    pub(crate) fn item_of_layout(&self, top: u32) -> ItemId {
        ItemId::from_u32(self.item_at[top as usize - 1])
    }

    /// The layout index (1-based) of a declared item.
    pub(crate) fn layout_of(&self, item: ItemId) -> Option<u32> {
        self.layout_of.get(item.index()).copied()
    }

    /// The first node of an option, if the option is of this problem.
    pub(crate) fn option_first_node(&self, option: OptionId) -> Option<u32> {
        if option.index() < self.option_count() { Some(self.option_first[option.index()]) } else { None }
    }

    /// The nodes of an option (with the spacer after them), for an option of this problem.
    pub(crate) fn option_node_range(&self, option: OptionId) -> std::ops::Range<usize> {
        self.option_first[option.index()] as usize..self.option_first[option.index() + 1] as usize
    }

    /// The option that owns an option node: by a division when all options have the same size,
    /// by a binary search otherwise. (Sudoku maps the 81 placements of every solution, so this
    /// is on its hot path.)
    pub(crate) fn option_of_node(&self, node: u32) -> OptionId {
        // Option `k` starts at `option_first[0] + k * stride` and is shorter than the stride; a
        // stride of 0 (options of different sizes) leaves the binary search, where
        // `partition_point` finds the first option starting after `node`.
        let k = (node - self.option_first[0])
            .checked_div(self.option_stride)
            .unwrap_or_else(|| to_u32(self.option_first.partition_point(|&first| first <= node) - 1));
        debug_assert!(self.option_first[k as usize] <= node && node < self.option_first[k as usize + 1]);
        OptionId::from_u32(k)
    }

    /// Item names in layout order: primaries, then secondaries.
    pub(crate) fn layout_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.item_at.iter().map(|&d| &*self.names[d as usize])
    }
}

/// An option's item names, displayed as [`Problem::display_option`] says.
struct OptionNames<'a> {
    problem: &'a Problem,
    option: OptionId,
}

impl fmt::Display for OptionNames<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.problem;
        for (k, (item, color)) in p.option_items(self.option).zip(p.option_colors(self.option)).enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            f.write_str(p.item_name(item))?;
            if let Some(color) = color {
                write!(f, ":{color}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of the crate docs, node by node.
    #[test]
    fn knuth_example_layout_matches_the_docs() {
        let p = Problem::parse_dlx("A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
        let tops = p.tops.clone();
        let ups: Vec<u32> = p.uds.iter().map(|n| n.up).collect();
        let downs: Vec<u32> = p.uds.iter().map(|n| n.down).collect();
        #[rustfmt::skip]
        let want_top = [0, 2, 2, 2, 3, 2, 2, 3, 0, 3, 5, 6, 0, 1, 4, 7, 0, 2, 3, 6, 0, 1, 4, 0, 2, 7, 0, 4, 5, 7, 0];
        #[rustfmt::skip]
        let want_up = [0, 21, 24, 18, 27, 28, 19, 29, 0, 3, 5, 6, 9, 1, 4, 7, 13, 2, 9, 11, 17, 13, 14, 21, 17, 15, 24, 22, 10, 25, 27];
        #[rustfmt::skip]
        let want_down = [0, 13, 17, 9, 14, 10, 11, 15, 11, 18, 28, 19, 15, 21, 22, 25, 19, 24, 3, 6, 22, 1, 27, 25, 2, 29, 29, 4, 5, 7, 0];
        assert_eq!(tops, want_top);
        assert_eq!(ups, want_up);
        assert_eq!(downs, want_down);
        assert_eq!(p.option_first, [9, 13, 17, 21, 24, 27, 31]);
    }

    /// Every option node maps back to its option, whether options share one size (found by a
    /// division) or not (a binary search).
    #[test]
    fn option_of_node_by_division_and_by_search() {
        for (text, stride) in [
            ("A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n", 0),
            ("A B C D | x\nA B\nC x\nA C\nB D\n", 3),
            ("A B\nA\nB\n", 2),
            ("A\nA\n", 2),
        ] {
            let p = Problem::parse_dlx(text).unwrap();
            assert_eq!(p.option_stride, stride, "{text:?}");
            for k in 0..p.option_count() {
                let (first, end) = (p.option_first[k], p.option_first[k + 1] - 1);
                for node in first..end {
                    assert_eq!(p.option_of_node(node).index(), k, "{text:?}, node {node}");
                }
            }
        }
    }
}
