//! The search on bit sets ([`search_as`]): its levels ([`Stack`]), the choice of item, the
//! commits and hides that make a level from the one above, and the read-off of the last levels
//! of a problem with colors.

use super::memo::{Hit, Memory};
use super::tables::{NO_PAIR, Span, Tables};
use super::{INACTIVE, LANES, Limits, Show, to_u16};
use crate::choose::rules::Rule;
use crate::count::{Count, Wide};
use crate::index::to_u32;
use crate::links::Links;
use crate::problem::Problem;
use crate::settings::{Stats, StopReason};

/// The per-level states of a count.
#[derive(Debug, Default)]
pub(super) struct Stack {
    /// Possible options on entering each level (`words` a level).
    pub(super) alive: Vec<u64>,
    /// Options still to try at each level (`words` a level).
    pub(super) todo: Vec<u64>,
    /// Primary items' lengths on entering each level (`lanes` a level), [`INACTIVE`] for a
    /// covered item and for the padding.
    pub(super) lens: Vec<u16>,
    /// Whether each level's item had more than one option (a guess).
    pub(super) guess: Vec<bool>,
    /// The options a level hides.
    pub(super) hidden: Vec<u64>,
    /// The option tried at each level, while visiting.
    pub(super) chosen: Vec<u32>,
    /// With colors: the secondary items purified on entering each level (a set of `sw` words a
    /// level), the number of active primary items, and the item chosen.
    pub(super) purified: Vec<u64>,
    pub(super) active: Vec<u16>,
    pub(super) item: Vec<u32>,
    /// With colors, a mark per item, all `None` between uses (see [`agreeing`]).
    pub(super) marks: Vec<Option<u32>>,
    /// With the memo: each level's signature (the options possible on entering it, `words` a
    /// level), the solutions counted before it was entered, and whether it is to be stored when
    /// it is done (a level looked up and not found).
    pub(super) key: Vec<u64>,
    pub(super) entry: Vec<u128>,
    pub(super) stored: Vec<bool>,
    /// With the memo: the words of the count above its low 128 bits (`solutions`), with each
    /// level's on entering it.
    pub(super) high: Wide,
    /// With the memo: the nodes the search had taken, and would have without the memo, when each
    /// level was entered.
    pub(super) entry_nodes: Vec<(u64, u64)>,
    /// The last count, exact.
    pub(super) wide: Count,
    /// With the memo: whether the count makes a ZDD of the solutions (nodes `zdd_nodes`, the
    /// `k`-th numbered `k + 2`, each an option, the node of the options tried before it at its
    /// level and that of the solutions below it; `zdd_root` the whole's), the ZDD node of each
    /// level so far, and the option each level tries.
    pub(super) zdd: bool,
    pub(super) zdd_nodes: Vec<[u32; 3]>,
    /// The most ZDD nodes the count may make: as many bytes as the table may take.
    pub(super) zdd_room: usize,
    pub(super) zdd_root: u32,
    pub(super) znode: Vec<u32>,
    pub(super) tried: Vec<u32>,
    /// With the memo: whether each level tries its options last first. Threads sharing a table
    /// go opposite ways, so that each meets subproblems the other has finished rather than
    /// counting the same ones at the same time; a count is the same either way.
    pub(super) backwards: bool,
    /// The nodes the last count would have taken without the memo (saturating).
    pub(super) plain_nodes: u64,
    /// Whether the count starts from `start`, a signature, rather than from the links (the lower
    /// thread of a count in two bands, on a problem without colors: see `band`).
    pub(super) from_key: bool,
    pub(super) start: Vec<u64>,
}

impl Stack {
    /// Room for a search of `tables`, with levels of `w` option words, `lw` lengths and `sw`
    /// words of secondary items, and level 0 cleared. (The levels above are written before they
    /// are read.)
    pub(super) fn prepare(&mut self, tables: &Tables, w: usize, lw: usize, sw: usize) {
        let depth = tables.n_primary + 1;
        for (v, n) in [(&mut self.alive, w), (&mut self.todo, w), (&mut self.purified, sw)] {
            if v.len() < depth * n {
                v.resize(depth * n, 0);
            }
            v[..n].fill(0);
        }
        if self.lens.len() < depth * lw {
            self.lens.resize(depth * lw, INACTIVE);
        }
        self.lens[..lw].fill(INACTIVE);
        if self.guess.len() < depth {
            self.guess.resize(depth, false);
        }
        if self.active.len() < depth {
            self.active.resize(depth, 0);
        }
        if self.item.len() < depth {
            self.item.resize(depth, 0);
        }
        if self.chosen.len() < depth {
            self.chosen.resize(depth, 0);
        }
        if self.hidden.len() < w {
            self.hidden.resize(w, 0);
        }
        if self.zdd && self.znode.len() < depth {
            self.znode.resize(depth, 0);
            self.tried.resize(depth, 0);
        }
        if self.stored.len() < depth {
            self.stored.resize(depth, false);
            self.entry.resize(depth, 0);
            self.entry_nodes.resize(depth, (0, 0));
        }
    }
}

/// Takes the first option out of `todo` (a set that holds one at least), or the last when
/// `backwards`, and returns it.
#[inline(always)]
pub(super) fn take_next(todo: &mut [u64], backwards: bool) -> usize {
    if backwards {
        let k = todo.iter().rposition(|&t| t != 0).unwrap_or(0);
        let b = 63 - todo[k].leading_zeros() as usize;
        todo[k] &= !(1u64 << b);
        k * 64 + b
    } else {
        let k = todo.iter().position(|&t| t != 0).unwrap_or(0);
        let x = k * 64 + todo[k].trailing_zeros() as usize;
        todo[k] &= todo[k].wrapping_sub(1);
        x
    }
}

/// Level `l`'s part of a stack of `n` (or `N` when not 0) entries a level.
#[inline(always)]
pub(super) fn level<T, const N: usize>(v: &[T], l: usize, n: usize) -> &[T] {
    let n = if N > 0 { N } else { n };
    &v[l * n..(l + 1) * n]
}

/// [`level`], mutable.
#[inline(always)]
pub(super) fn level_mut<T, const N: usize>(v: &mut [T], l: usize, n: usize) -> &mut [T] {
    let n = if N > 0 { N } else { n };
    &mut v[l * n..(l + 1) * n]
}

/// Levels `l` and `l + 1` of a stack.
#[inline(always)]
pub(super) fn levels_mut<T, const N: usize>(v: &mut [T], l: usize, n: usize) -> (&[T], &mut [T]) {
    let n = if N > 0 { N } else { n };
    let (below, above) = v.split_at_mut((l + 1) * n);
    (&below[l * n..], &mut above[..n])
}

/// [`BitSets::count`] (or with `VISIT` a visit, [`BitSets::search`], whose solutions go to the
/// function beside the limits), for a problem of `W` option words and `LW` lengths, or of any
/// shape when they are 0, and with colors when `COLORED`. Inlined into its callers, so that each
/// is compiled with the processor features its caller has (see `x86`).
#[inline(always)]
pub(super) fn search_as<
    const W: usize,
    const LW: usize,
    const VISIT: bool,
    const COLORED: bool,
    const MEMO: bool,
>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    (limits, visit, mut rule): (&Limits<'_>, &mut Show<'_>, Option<&mut dyn Rule>),
    mut memo: Option<Memory<'_>>,
    stats: &mut Stats,
) -> Result<bool, StopReason> {
    let w = if W > 0 { W } else { tables.words };
    let lw = if LW > 0 { LW } else { tables.lanes };
    let sw = tables.colors.as_ref().map_or(0, |c| c.words);
    stack.prepare(tables, w, lw, sw);
    if MEMO {
        if stack.key.len() < (tables.n_primary + 1) * w {
            stack.key.resize((tables.n_primary + 1) * w, 0);
        }
        stack.high.start(tables.n_primary + 1);
    }
    if COLORED && stack.marks.len() < problem.item_count() {
        stack.marks.resize(problem.item_count(), None);
    }
    if stack.from_key {
        read_key(tables, stack, w);
    } else {
        read_state(tables, problem, links, stack);
    }
    let hidden = &mut stack.hidden[..w];

    let mut nodes = 0u64;
    let mut guesses = 0u64;
    let mut updates = 0u64;
    let mut cleansings = 0u64;
    let mut solutions = 0u128;
    // With the memo: the nodes the subproblems met again would have taken to search again.
    let mut saved = 0u64;
    // A memoized count has no limit, and goes past `u128::MAX`: `solutions` is then its low 128
    // bits, and `stack.high` holds the words above.
    let limit = if MEMO { u128::MAX } else { u128::from(limits.solutions) };
    // With the memo, making a ZDD (see `Stack::zdd`): the ZDD node of the subproblem a level
    // that ends reports to the level above (0: no solution; 1: the empty solution).
    let zdd = MEMO && stack.zdd;
    let mut zsol = 0u32;
    let mut l = 0usize;
    let mut result = Ok(false);
    // A branching rule that learns hears of each option tried and each dead end, those of the
    // levels a count reads off too (as on the links: see `search`).
    let learning = rule.as_ref().is_some_and(|r| r.learns());
    'search: loop {
        // Enter level `l`: choose an item, or count a solution; `back` when the level ends at once.
        let lens = level::<_, LW>(&stack.lens, l, lw);
        let (i, len) = match rule.as_deref_mut() {
            None => choose::<LW>(lens),
            Some(rule) => {
                let (i, len) = choose_by::<LW>(rule, lens, tables.n_primary);
                if len == 0 {
                    rule.dead_end(to_u32(i + 1), if l == 0 { 0 } else { stack.item[l - 1] + 1 });
                }
                (i, len)
            }
        };
        if zdd {
            zsol = u32::from(len == INACTIVE);
            stack.znode[l] = 0;
        }
        let back = if len == INACTIVE {
            if MEMO {
                stack.high.add(&mut solutions, 1, None);
            } else {
                // (Below the limit, a `u64`.)
                solutions += 1;
            }
            if VISIT && visit(&stack.chosen[..l]).is_break() {
                result = Ok(true);
                break 'search;
            }
            if !MEMO && solutions >= limit {
                break 'search;
            }
            true
        } else {
            if let Some(reason) = limits.stop(nodes, updates) {
                result = Err(reason);
                break 'search;
            }
            // (A ZDD takes a node for each option of every level: none is read off.)
            let last = COLORED && !VISIT && !zdd && stack.active[l] == 1;
            let pair = COLORED && !VISIT && !zdd && stack.active[l] == 2 && len != 0;
            // With the memo, a level that will be entered (not read off at once) is looked up by
            // its signature: found, its count is added and the level ends; not found, it is
            // stored when it is done.
            let found = if MEMO && len != 0 && !last && !pair {
                let key = level::<_, W>(&stack.alive, l, w);
                let mut found = memo.as_mut().and_then(|memo| memo.get(key));
                if found.is_none()
                    && let Some(band) = limits.band.filter(|band| band.hands(l))
                {
                    // In the lower band: handed over, its count to come (see `band`).
                    let Some(id) = band.hand(key, stack.zdd_nodes.len()) else {
                        result = Err(StopReason::Memory);
                        break 'search;
                    };
                    if let Some(memo) = memo.as_mut() {
                        memo.insert(key, Hit { count: 0, high: None, nodes: 0, zdd: id });
                    }
                    found = Some(Hit { count: 0, high: None, nodes: 0, zdd: id });
                }
                if found.is_none() {
                    level_mut::<_, W>(&mut stack.key, l, w).copy_from_slice(key);
                    stack.entry[l] = solutions;
                    stack.high.mark(l);
                    stack.entry_nodes[l] = (nodes, saved);
                }
                stack.stored[l] = found.is_none();
                found
            } else {
                if MEMO {
                    stack.stored[l] = false;
                }
                None
            };
            if let Some(hit) = found {
                stack.high.add(&mut solutions, hit.count, hit.high.as_deref());
                saved = saved.saturating_add(hit.nodes);
                zsol = hit.zdd;
                true
            } else if last && len != 0 && solutions.saturating_add(u128::from(len)) < limit {
                // The last primary item of a problem with colors: each option left completes a
                // solution, and a count takes them at once, as the links' count does (`search`).
                nodes += u64::from(len);
                if len > 1 {
                    guesses += u64::from(len);
                }
                solutions += u128::from(len);
                if learning && let Some(rule) = rule.as_deref_mut() {
                    rule.tried(to_u32(i + 1), u32::from(len));
                }
                true
            } else {
                // The last two primary items of a problem with colors: each option `x` of `i` is a
                // node, and the options of the other that agree with it are the solutions (and
                // nodes) below it, as the links' count reads them off (`search`), up to an `x`
                // below which the search would stop (`from`), where it goes on as the search does.
                let from = if pair {
                    let lens = level::<_, LW>(&stack.lens, l, lw);
                    let alive = level::<_, W>(&stack.alive, l, w);
                    let figures = (&mut nodes, &mut guesses, &mut solutions);
                    let limits = (limits, limit);
                    let rule = if learning { rule.as_deref_mut() } else { None };
                    read_off::<LW>(tables, (lens, alive, &mut stack.marks), (i, len, rule), limits, figures)
                } else {
                    None
                };
                if pair && from.is_none() {
                    true
                } else {
                    if len != 0 {
                        // Cover `i` in place: its options become the ones to try, and are hidden.
                        let alive = level_mut::<_, W>(&mut stack.alive, l, w);
                        let todo = level_mut::<_, W>(&mut stack.todo, l, w);
                        for ((a, t), &c) in alive.iter_mut().zip(todo.iter_mut()).zip(tables.column(i, w)) {
                            *t = c & *a;
                            *a &= !c;
                        }
                        let lens = level_mut::<_, LW>(&mut stack.lens, l, lw);
                        let purified = level::<_, 0>(&stack.purified, l, sw);
                        updates += 1 + hide::<LW, COLORED>(tables, todo, lens, purified);
                        lens[i] = INACTIVE;
                        stack.guess[l] = len > 1;
                        if COLORED || rule.is_some() {
                            stack.item[l] = to_u32(i);
                        }
                        if let Some(x) = from {
                            // The options before `x` were read off.
                            let todo = level_mut::<_, W>(&mut stack.todo, l, w);
                            todo[..x / 64].fill(0);
                            todo[x / 64] &= !((1u64 << (x % 64)) - 1);
                        }
                    }
                    len == 0
                }
            }
        };
        if back {
            // Leave levels until one has an option left to try.
            loop {
                if l == 0 {
                    break 'search;
                }
                l -= 1;
                if zdd && zsol != 0 {
                    // The option tried at level `l` has solutions below it: a ZDD node for them,
                    // or else the options tried before it (Knuth's DLX6 makes the same).
                    let Ok(id) = u32::try_from(stack.zdd_nodes.len() + 2) else {
                        result = Err(StopReason::Memory);
                        break 'search;
                    };
                    if stack.zdd_nodes.len() >= stack.zdd_room {
                        result = Err(StopReason::Memory);
                        break 'search;
                    }
                    stack.zdd_nodes.push([stack.tried[l], stack.znode[l], zsol]);
                    stack.znode[l] = id;
                }
                if level::<_, W>(&stack.todo, l, w).iter().any(|&t| t != 0) {
                    break;
                }
                if zdd {
                    zsol = stack.znode[l];
                }
                if MEMO && stack.stored[l] {
                    // Level `l` is done: its subproblem's count is known.
                    let key = level::<_, W>(&stack.key, l, w);
                    let (n, s) = stack.entry_nodes[l];
                    let plain = (nodes - n).saturating_add(saved - s);
                    if let Some(memo) = memo.as_mut() {
                        let (count, high) = stack.high.since(l, solutions, stack.entry[l]);
                        memo.insert(key, Hit { count, high, nodes: plain, zdd: zsol });
                    }
                }
            }
        }
        // Try the next option of level `l` (with the memo, maybe the last: `Stack::backwards`).
        let x = take_next(level_mut::<_, W>(&mut stack.todo, l, w), MEMO && stack.backwards);
        if VISIT {
            stack.chosen[l] = to_u32(x);
        }
        if zdd {
            stack.tried[l] = to_u32(x);
        }
        nodes += 1;
        guesses += u64::from(stack.guess[l]);
        if learning && let Some(rule) = rule.as_deref_mut() {
            rule.tried(stack.item[l] + 1, 1);
        }
        let (lens, next_lens) = levels_mut::<_, LW>(&mut stack.lens, l, lw);
        for (n, b) in next_lens.chunks_exact_mut(LANES).zip(lens.chunks_exact(LANES)) {
            n.copy_from_slice(b);
        }
        let (alive, next_alive) = levels_mut::<_, W>(&mut stack.alive, l, w);
        if COLORED {
            let (purified, next_purified) = levels_mut::<_, 0>(&mut stack.purified, l, sw);
            next_purified.copy_from_slice(purified);
            next_alive.copy_from_slice(alive);
            stack.active[l + 1] = stack.active[l] - tables.spans[x].primaries;
            let (u, c) = commit::<LW>(tables, x, stack.item[l], next_alive, next_lens, next_purified);
            updates += u;
            cleansings += c;
        } else {
            // Level `l + 1` starts from level `l`'s state with `x`'s other items covered: the
            // options hidden are those alive in the union of their columns (in which `i`'s are
            // no longer).
            let option = tables.option(x);
            if tables.conflicts.is_empty() {
                hidden.fill(0);
                for &j in option {
                    for (m, &c) in hidden.iter_mut().zip(tables.column(usize::from(j), w)) {
                        *m |= c;
                    }
                }
            } else {
                hidden.copy_from_slice(&tables.conflicts[x * w..(x + 1) * w]);
            }
            for ((m, n), &a) in hidden.iter_mut().zip(next_alive.iter_mut()).zip(alive) {
                *n = a & !*m;
                *m &= a;
            }
            updates += (option.len() - 1) as u64 + hide::<LW, false>(tables, hidden, next_lens, &[]);
            for &j in &option[..tables.primaries(x)] {
                next_lens[lane::<LW>(j)] = INACTIVE;
            }
        }
        l += 1;
    }
    stats.nodes = nodes;
    stats.guesses = guesses;
    stats.updates = updates;
    stack.wide = if MEMO { stack.high.total(solutions) } else { Count::from(solutions) };
    stats.solutions = stack.wide.clone();
    stats.cleansings = cleansings;
    stack.zdd_root = zsol;
    stack.plain_nodes = nodes.saturating_add(saved);
    result
}

/// Reads off a level (its `lens` and `alive` options; `marks` as [`agreeing`] takes them) whose
/// item `i` of `len` options is one of the last two active primary items in a problem with
/// colors: each option `x` of `i` is a node, and the options of the other item that agree with it
/// (see [`agreeing`]) are the solutions, and nodes, below it, added to `figures` (nodes, guesses,
/// solutions). It stops at an `x` below which the search would stop (at the limit, or out of
/// nodes), and returns it: the level goes on from there as the search does (`None`: every option
/// was read off).
#[inline(always)]
pub(super) fn read_off<'b, const LW: usize>(
    tables: &Tables,
    (lens, alive, marks): (&[u16], &[u64], &mut [Option<u32>]),
    (i, len, mut rule): (usize, u16, Option<&mut (dyn Rule + 'b)>),
    (limits, limit): (&Limits<'_>, u128),
    (nodes, guesses, solutions): (&mut u64, &mut u64, &mut u128),
) -> Option<usize> {
    let j = to_u16(other::<LW>(lens, i));
    let column = tables.colors.as_ref().expect("a problem with colors").column(j);
    for (k, word) in alive.iter().zip(tables.column(i, alive.len())).map(|(&a, &c)| a & c).enumerate() {
        let mut m = word;
        while m != 0 {
            let x = k * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            let covers = tables.option(x)[..tables.primaries(x)].contains(&j);
            let below = (!covers).then(|| agreeing(tables, x, column, alive, marks));
            let goes_on = match below {
                None => solutions.saturating_add(1) < limit,
                Some(c) => {
                    *nodes + 1 < limits.nodes && (c == 0 || solutions.saturating_add(u128::from(c)) < limit)
                }
            };
            if !goes_on {
                return Some(x);
            }
            *nodes += 1;
            *guesses += u64::from(len > 1);
            if let Some(rule) = rule.as_deref_mut() {
                // What the levels read off would tell a rule that learns (see `search`).
                rule.tried(to_u32(i + 1), 1);
                match below {
                    Some(0) => rule.dead_end(u32::from(j) + 1, to_u32(i + 1)),
                    Some(c) => rule.tried(u32::from(j) + 1, u32::try_from(c).unwrap_or(u32::MAX)),
                    None => {}
                }
            }
            let c = below.unwrap_or(1);
            if below.is_some() {
                *nodes += c;
                if c > 1 {
                    *guesses += c;
                }
            }
            *solutions += u128::from(c);
        }
    }
    None
}

/// The active primary item other than `i`, among lengths of which exactly two are active.
#[inline(always)]
pub(super) fn other<const LW: usize>(lens: &[u16], i: usize) -> usize {
    lens.iter().enumerate().position(|(k, &len)| k != i && len != INACTIVE).unwrap_or(0)
}

/// How many options in `alive` of `column` (primary item `j`'s, as [`Colors::column`] gives it)
/// agree with option `x` (which does not hold `j`): share no item but secondary ones that both
/// give the same color. They are the options
/// of `j` left after committing `x`, as the links' `agreeing` finds them. With the table of
/// conflicts, a few words; without it, `x`'s items are marked with their pairs in `marks` (one
/// per item, all `None` between calls) and each option read against them.
#[inline(always)]
pub(super) fn agreeing(
    tables: &Tables,
    x: usize,
    column: &[(u32, u64)],
    alive: &[u64],
    marks: &mut [Option<u32>],
) -> u64 {
    let colors = tables.colors.as_ref().expect("a problem with colors");
    if !tables.conflicts.is_empty() {
        let w = tables.words;
        let conflicts = &tables.conflicts[x * w..(x + 1) * w];
        return column
            .iter()
            .map(|&(k, c)| u64::from((alive[k as usize] & c & !conflicts[k as usize]).count_ones()))
            .sum();
    }
    let nodes = |o: usize| colors.option_nodes(tables.spans[o]);
    for &(k, pair) in nodes(x) {
        marks[usize::from(k)] = Some(pair);
    }
    let mut agreeing = 0;
    for &(k, c) in column {
        let mut m = alive[k as usize] & c;
        while m != 0 {
            let y = k as usize * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            let agrees = nodes(y)
                .iter()
                .all(|&(k, pair)| marks[usize::from(k)].is_none_or(|p| p != NO_PAIR && p == pair));
            agreeing += u64::from(agrees);
        }
    }
    for &(k, _) in nodes(x) {
        marks[usize::from(k)] = None;
    }
    agreeing
}

/// Commits the nodes of option `x`, chosen for item `i`, as the links do (Knuth's Algorithm C):
/// left to right from the node after `i`'s, each node without a color covers its item, and each
/// node with one purifies its item to its color, unless an option chosen before did. `alive`,
/// `lens` and `purified` are the next level's, copied from this one's. Returns the updates and
/// cleansings the links would count.
#[inline(always)]
pub(super) fn commit<const LW: usize>(
    tables: &Tables,
    x: usize,
    i: u32,
    alive: &mut [u64],
    lens: &mut [u16],
    purified: &mut [u64],
) -> (u64, u64) {
    let colors = tables.colors.as_ref().expect("a problem with colors");
    let nodes = colors.option_nodes(tables.spans[x]);
    let at = nodes.iter().position(|&(k, _)| u32::from(k) == i).unwrap_or(0);
    let (mut updates, mut cleansings) = (0, 0);
    for &(k, pair) in nodes[at + 1..].iter().chain(&nodes[..at]) {
        let secondary = usize::from(k).wrapping_sub(tables.n_primary);
        if pair == NO_PAIR {
            // Cover `k`: hide the options left in its column.
            updates += 1;
            for &(i, c) in colors.column(k) {
                let a = &mut alive[i as usize];
                let h = *a & c;
                *a &= !c;
                updates += hide_word::<LW, true>(tables, i as usize, h, lens, purified);
            }
            if usize::from(k) < tables.n_primary {
                lens[lane::<LW>(k)] = INACTIVE;
            }
        } else if purified[secondary / 64] & (1 << (secondary % 64)) == 0 {
            // Purify `k`: the options that agree with its color are cleansed, the others hidden.
            cleansings += 1;
            for &(i, g, c) in colors.pair(pair) {
                let a = &mut alive[i as usize];
                cleansings += u64::from((*a & g).count_ones());
                let h = *a & c;
                *a &= !c;
                updates += hide_word::<LW, true>(tables, i as usize, h, lens, purified);
            }
            purified[secondary / 64] |= 1 << (secondary % 64);
        }
    }
    (updates, cleansings)
}

/// Item `j`'s place among `LW` lengths: `j` itself, masked when `LW` is known (`j` is below it),
/// so that the index needs no check.
#[inline(always)]
pub(super) fn lane<const LW: usize>(j: u16) -> usize {
    if LW > 0 && LW.is_power_of_two() { usize::from(j) & (LW - 1) } else { usize::from(j) }
}

/// Lowers the lengths of the primary items of every option in `hidden`; returns the updates the
/// links would count: each option's nodes but one, less, with colors (`COLORED`), those at items
/// in `purified` (see [`hide_word`]).
#[inline(always)]
pub(super) fn hide<const LW: usize, const COLORED: bool>(
    tables: &Tables,
    hidden: &[u64],
    lens: &mut [u16],
    purified: &[u64],
) -> u64 {
    let mut updates = 0u64;
    for (k, &word) in hidden.iter().enumerate() {
        updates += hide_word::<LW, COLORED>(tables, k, word, lens, purified);
    }
    updates
}

/// [`hide`] for the options of one word, word `k` of a set: `hidden`. With colors (`COLORED`), an
/// option's nodes at items in `purified` are not counted, as they were cleansed and stay in their
/// lists.
#[inline(always)]
pub(super) fn hide_word<const LW: usize, const COLORED: bool>(
    tables: &Tables,
    k: usize,
    hidden: u64,
    lens: &mut [u16],
    purified: &[u64],
) -> u64 {
    let mut updates = 0u64;
    let mut m = hidden;
    while m != 0 {
        let o = k * 64 + m.trailing_zeros() as usize;
        m &= m - 1;
        let Span { start, rest, primaries } = tables.spans[o];
        updates += u64::from(rest);
        let start = start as usize;
        let items = &tables.items[start..=start + usize::from(rest)];
        let (primary, secondary) = items.split_at(usize::from(primaries));
        for &j in primary {
            lens[lane::<LW>(j)] -= 1;
        }
        if COLORED {
            // The option's nodes cleansed: those at purified items.
            let sets = tables.colors.as_ref().map_or(&[][..], |c| &c.secondaries[..]);
            if let Some(&set) = sets.get(o) {
                updates -= u64::from((set & purified[0]).count_ones());
            } else {
                for &j in secondary {
                    let t = usize::from(j) - tables.n_primary;
                    updates -= (purified[t / 64] >> (t % 64)) & 1;
                }
            }
        }
    }
    updates
}

/// The item `rule` branches on among the primary items of `lens`, with its length ([`INACTIVE`]
/// when no primary item is active), as on the links (see `rules`): the earliest of least length
/// when that is 0 or 1 (or when the rule chooses as minimum remaining values does), else the
/// least score.
#[inline(always)]
fn choose_by<const LW: usize>(rule: &dyn Rule, lens: &[u16], n_primary: usize) -> (usize, u16) {
    let (k, least) = choose::<LW>(lens);
    if least <= 1 || least == INACTIVE || rule.is_mrv() {
        return (k, least);
    }
    // (A length read from `lens` fits in 16 bits.)
    let chosen = rule.least_among(&lens[..n_primary], INACTIVE);
    chosen.map_or((k, least), |(item, len)| (item as usize - 1, to_u16(len as usize)))
}

/// The earliest primary item of least length, with its length ([`INACTIVE`] when no primary item
/// is active).
#[inline(always)]
pub(super) fn choose<const LW: usize>(lens: &[u16]) -> (usize, u16) {
    let mut least = [INACTIVE; LANES];
    for chunk in lens.chunks_exact(LANES) {
        for (m, &len) in least.iter_mut().zip(chunk) {
            *m = (*m).min(len);
        }
    }
    let least = least.iter().copied().min().unwrap_or(INACTIVE);
    for (k, chunk) in lens.chunks_exact(LANES).enumerate() {
        // (A fold, not `any`, so that the chunk is compared all at once.)
        if chunk.iter().fold(false, |found, &len| found | (len == least)) {
            let at = chunk.iter().position(|&len| len == least).unwrap_or(0);
            return (k * LANES + at, least);
        }
    }
    (0, least)
}

/// Reads the state of level 0 from `stack.start`, a signature of a problem without colors: the
/// options possible, and the primary items' lengths (a primary item with none is covered: a
/// signature is only ever taken of a level whose active items all have options).
fn read_key(tables: &Tables, stack: &mut Stack, w: usize) {
    stack.alive[..w].copy_from_slice(&stack.start[..w]);
    let lens = &mut stack.lens[..tables.n_primary];
    lens.fill(0);
    for (k, &word) in stack.start[..w].iter().enumerate() {
        let mut m = word;
        while m != 0 {
            let x = k * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            for &j in &tables.option(x)[..tables.primaries(x)] {
                lens[usize::from(j)] += 1;
            }
        }
    }
    for len in lens {
        if *len == 0 {
            *len = INACTIVE;
        }
    }
}

/// Level 0's state from the links: the options in the lists of active primary items and their
/// lengths; with colors, the secondary items purified and the number of active primary items.
pub(super) fn read_state(tables: &Tables, problem: &Problem, links: &Links, stack: &mut Stack) {
    let w = tables.words;
    let uds = links.uds();
    stack.active[0] = 0;
    if tables.colors.is_some() {
        let n_primary = tables.n_primary;
        for (t, &color) in links.colors()[n_primary + 1..=links.item_count() as usize].iter().enumerate() {
            if color != 0 {
                stack.purified[t / 64] |= 1 << (t % 64);
            }
        }
    }
    for i in 1..=to_u32(tables.n_primary) {
        if links.is_covered(i) {
            continue;
        }
        stack.active[0] += 1;
        stack.lens[i as usize - 1] = u16::try_from(links.len_of(i)).expect("lengths fit in u16 on this path");
        let mut p = uds[i as usize].down;
        while p != i {
            let o = problem.option_of_node(p).index();
            stack.alive[o / 64] |= 1 << (o % 64);
            p = uds[p as usize].down;
        }
    }
    debug_assert!((0..tables.n_primary).all(|k| {
        let alive = tables.column(k, w).iter().zip(&stack.alive[..w]).map(|(c, a)| (c & a).count_ones());
        stack.lens[k] == INACTIVE || u32::from(stack.lens[k]) == alive.sum::<u32>()
    }));
}
