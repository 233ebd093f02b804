//! The logical solver for grids of any size and rules: the techniques that decide the levels
//! ([`Technique::LEVELLED`]: singles, locked candidates, naked and hidden pairs and triples,
//! X-wing and swordfish), generalized to units of any shape, with each cell's candidates a mask
//! and each digit's places a [`CellSet`].
//!
//! Units are rows, columns, regions, diagonals and windows alike: locked candidates look for a
//! digit whose places in one unit all lie in another, whatever their shapes. Cells a forbidden
//! move apart, and cells of one cage, see each other. A cage's cells keep only the digits of the
//! sets that can still fill it (with its sum, its digits placed, and a candidate for each empty
//! cell): that filter runs before each technique and is not counted as one.

use super::cells::CellSet;
use super::puzzle::Grid;
use super::rules::{At, GridUnit, Rules, combinations};
use crate::scale::{Level, Technique, hardest_name_of, hardest_of, level_of, rating_of};

/// The grid's units, peers, parities and cages, as the solver reads them.
#[derive(Debug)]
pub(crate) struct Shape {
    side: usize,
    /// Each unit's name, in the order of `units`.
    names: Vec<GridUnit>,
    units: Vec<Vec<usize>>,
    unit_sets: Vec<CellSet>,
    units_of: Vec<Vec<usize>>,
    peers: Vec<CellSet>,
    /// Each cell's starting candidates (bit `d - 1` for digit `d`).
    start: Vec<u32>,
    /// Each cage's cells and its sets of digits.
    cages: Vec<(Vec<usize>, Vec<u32>)>,
}

impl Shape {
    pub(crate) fn new(rules: &Rules) -> Shape {
        let size = rules.size();
        let (side, cells) = (size.side(), size.cells());
        let (names, units): (Vec<GridUnit>, Vec<Vec<usize>>) = rules.units().into_iter().unzip();
        let unit_sets: Vec<CellSet> = units.iter().map(|u| CellSet::of(u)).collect();
        let mut units_of = vec![Vec::new(); cells];
        let mut peers = vec![CellSet::new(); cells];
        for (k, unit) in units.iter().enumerate() {
            for &c in unit {
                units_of[c].push(k);
                peers[c] = peers[c].or(&unit_sets[k]);
            }
        }
        for (a, b, _) in rules.move_pairs() {
            peers[a].insert(b);
            peers[b].insert(a);
        }
        let cages: Vec<(Vec<usize>, Vec<u32>)> = rules
            .cages()
            .iter()
            .map(|c| (c.cells.clone(), combinations(side, c.cells.len(), c.sum)))
            .collect();
        for (cage, _) in &cages {
            let set = CellSet::of(cage);
            for &c in cage {
                peers[c] = peers[c].or(&set);
            }
        }
        for (c, p) in peers.iter_mut().enumerate() {
            p.remove(c);
        }
        let all = (1u32 << side) - 1;
        let start = (0..cells)
            .map(|c| {
                let parity = rules.parity(c);
                (0..side)
                    .filter(|&d| parity.allows(u8::try_from(d + 1).unwrap_or(0)))
                    .fold(0, |m, d| m | 1 << d)
                    & all
            })
            .collect();
        Shape { side, names, units, unit_sets, units_of, peers, start, cages }
    }
}

/// A grid of candidates.
#[derive(Clone, Debug)]
struct Board<'s> {
    shape: &'s Shape,
    cand: Vec<u32>,
    value: Vec<u8>,
    /// The places left for each digit (index `d - 1`).
    places: Vec<CellSet>,
    /// A cell or a unit with no way left: the givens contradict each other.
    broken: bool,
    /// The steps, when they are kept ([`explain_grid`]); the last is being filled.
    steps: Option<Vec<GridStep>>,
}

impl<'s> Board<'s> {
    fn new(shape: &'s Shape, grid: &Grid) -> Board<'s> {
        let cells = shape.start.len();
        let mut places = vec![CellSet::new(); shape.side];
        for c in 0..cells {
            for d in bits(shape.start[c]) {
                places[d].insert(c);
            }
        }
        let mut board = Board {
            shape,
            cand: shape.start.clone(),
            value: vec![0; cells],
            places,
            broken: false,
            steps: None,
        };
        for (c, &d) in grid.cells().iter().enumerate() {
            if d != 0 {
                board.place(c, usize::from(d) - 1);
            }
        }
        board
    }

    fn place(&mut self, cell: usize, d: usize) {
        if self.cand[cell] & 1 << d == 0 {
            self.broken = true;
            return;
        }
        for e in bits(self.cand[cell]) {
            self.places[e].remove(cell);
        }
        self.cand[cell] = 0;
        self.value[cell] = u8::try_from(d + 1).unwrap_or(0);
        let peers = self.shape.peers[cell];
        for p in peers.and(&self.places[d]).iter() {
            self.eliminate(p, d);
        }
    }

    /// Takes `d` from a cell's candidates; whether it was one.
    fn eliminate(&mut self, cell: usize, d: usize) -> bool {
        if self.cand[cell] & 1 << d == 0 {
            return false;
        }
        self.cand[cell] &= !(1 << d);
        self.places[d].remove(cell);
        if self.cand[cell] == 0 {
            self.broken = true;
        }
        true
    }

    /// Starts a step's record (when steps are kept): its pattern.
    /// (The pattern is only listed when steps are kept.)
    fn begin(&mut self, unit: Option<usize>, digits: u32, pattern: impl FnOnce() -> Vec<usize>) {
        if let Some(steps) = &mut self.steps {
            steps.push(GridStep {
                technique: Technique::HiddenSingle,
                unit: unit.map(|u| self.shape.names[u]),
                pattern: pattern(),
                digits,
                placed: Vec::new(),
                removed: Vec::new(),
            });
        }
    }

    /// Places a digit as a step's conclusion.
    fn put(&mut self, cell: usize, d: usize) {
        if let Some(step) = self.steps.as_mut().and_then(|s| s.last_mut()) {
            step.placed.push((cell, u8::try_from(d + 1).unwrap_or(0)));
        }
        self.place(cell, d);
    }

    /// Removes a candidate as a step's conclusion; whether it was one.
    fn take(&mut self, cell: usize, d: usize) -> bool {
        let removed = self.eliminate(cell, d);
        if removed && let Some(step) = self.steps.as_mut().and_then(|s| s.last_mut()) {
            match step.removed.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, mask)) => *mask |= 1 << d,
                None => step.removed.push((cell, 1 << d)),
            }
        }
        removed
    }

    /// Drops a step begun that concluded nothing.
    fn abandon(&mut self) {
        if let Some(steps) = &mut self.steps
            && steps.last().is_some_and(|s| s.placed.is_empty() && s.removed.is_empty())
        {
            steps.pop();
        }
    }

    fn solved(&self) -> bool {
        !self.broken && self.value.iter().all(|&v| v != 0)
    }

    /// The digits placed in a unit, as bits.
    fn placed_in(&self, unit: usize) -> u32 {
        self.shape.units[unit]
            .iter()
            .filter(|&&c| self.value[c] != 0)
            .fold(0, |m, &c| m | 1 << (self.value[c] - 1))
    }

    /// The cage filter (see the module docs); whether it removed a candidate.
    fn cages(&mut self) -> bool {
        let mut progress = false;
        let shape = self.shape;
        for (cells, sets) in &shape.cages {
            let placed = cells
                .iter()
                .filter(|&&c| self.value[c] != 0)
                .fold(0u32, |m, &c| m | 1 << (self.value[c] - 1));
            let open: Vec<usize> = cells.iter().copied().filter(|&c| self.value[c] == 0).collect();
            let allowed = sets
                .iter()
                .filter(|&&s| s & placed == placed && open.iter().all(|&c| self.cand[c] & s & !placed != 0))
                .fold(0, |m, &s| m | (s & !placed));
            for &c in &open {
                for d in bits(self.cand[c] & !allowed) {
                    progress |= self.eliminate(c, d);
                }
            }
        }
        progress
    }

    fn apply(&mut self, technique: Technique) -> bool {
        let applied = self.apply_one(technique);
        if applied && let Some(step) = self.steps.as_mut().and_then(|s| s.last_mut()) {
            step.technique = technique;
        }
        applied
    }

    fn apply_one(&mut self, technique: Technique) -> bool {
        match technique {
            Technique::HiddenSingle => self.hidden_single(),
            Technique::NakedSingle => self.naked_single(),
            Technique::LockedCandidates => self.locked(),
            Technique::NakedPair => self.naked_subset(2),
            Technique::NakedTriple => self.naked_subset(3),
            Technique::HiddenPair => self.hidden_subset(2),
            Technique::HiddenTriple => self.hidden_subset(3),
            Technique::XWing => self.fish(2),
            Technique::Swordfish => self.fish(3),
            _ => false,
        }
    }

    fn hidden_single(&mut self) -> bool {
        for u in 0..self.shape.units.len() {
            let placed = self.placed_in(u);
            for d in 0..self.shape.side {
                if placed & 1 << d != 0 {
                    continue;
                }
                let here = self.places[d].and(&self.shape.unit_sets[u]);
                match here.len() {
                    0 => self.broken = true,
                    1 => {
                        let cell = here.first().unwrap_or(0);
                        let shape = self.shape;
                        self.begin(Some(u), 1 << d, || shape.units[u].clone());
                        self.put(cell, d);
                        return true;
                    }
                    _ => {}
                }
            }
        }
        false
    }

    fn naked_single(&mut self) -> bool {
        let found = (0..self.cand.len()).find(|&c| self.value[c] == 0 && self.cand[c].count_ones() == 1);
        match found {
            Some(c) => {
                let d = self.cand[c].trailing_zeros() as usize;
                self.begin(None, 1 << d, || vec![c]);
                self.put(c, d);
                true
            }
            None => false,
        }
    }

    fn locked(&mut self) -> bool {
        let shape = self.shape;
        for u in 0..shape.units.len() {
            for d in 0..shape.side {
                let here = self.places[d].and(&shape.unit_sets[u]);
                let Some(first) = here.first() else { continue };
                if here.len() < 2 {
                    continue;
                }
                for &v in &shape.units_of[first] {
                    if v == u || !here.is_subset(&shape.unit_sets[v]) {
                        continue;
                    }
                    let gone = self.places[d].and(&shape.unit_sets[v]).minus(&shape.unit_sets[u]);
                    if !gone.is_empty() {
                        self.begin(Some(u), 1 << d, || here.iter().collect());
                        for c in gone.iter() {
                            self.take(c, d);
                        }
                        return true;
                    }
                }
            }
        }
        false
    }

    fn naked_subset(&mut self, k: usize) -> bool {
        let shape = self.shape;
        for (u, unit) in shape.units.iter().enumerate() {
            let open: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&c| self.value[c] == 0 && self.cand[c].count_ones() as usize <= k)
                .collect();
            for pick in choose(open.len(), k) {
                let pick = &pick[..k];
                let union = pick.iter().fold(0, |m, &i| m | self.cand[open[i]]);
                if union.count_ones() as usize != k {
                    continue;
                }
                let cells: Vec<usize> = pick.iter().map(|&i| open[i]).collect();
                self.begin(Some(u), union, || cells.clone());
                let mut progress = false;
                for &c in unit {
                    if self.value[c] == 0 && !cells.contains(&c) {
                        for d in bits(self.cand[c] & union) {
                            progress |= self.take(c, d);
                        }
                    }
                }
                if progress {
                    return true;
                }
                self.abandon();
            }
        }
        false
    }

    fn hidden_subset(&mut self, k: usize) -> bool {
        let shape = self.shape;
        for u in 0..shape.units.len() {
            let placed = self.placed_in(u);
            let digits: Vec<(usize, CellSet)> = (0..shape.side)
                .filter(|&d| placed & 1 << d == 0)
                .map(|d| (d, self.places[d].and(&shape.unit_sets[u])))
                .filter(|(_, here)| here.len() <= k)
                .collect();
            for pick in choose(digits.len(), k) {
                let pick = &pick[..k];
                let cells = pick.iter().fold(CellSet::new(), |s, &i| s.or(&digits[i].1));
                if cells.len() != k {
                    continue;
                }
                let keep = pick.iter().fold(0u32, |m, &i| m | 1 << digits[i].0);
                self.begin(Some(u), keep, || cells.iter().collect());
                let mut progress = false;
                for c in cells.iter() {
                    for d in bits(self.cand[c] & !keep) {
                        progress |= self.take(c, d);
                    }
                }
                if progress {
                    return true;
                }
                self.abandon();
            }
        }
        false
    }

    /// X-wing (k = 2) and swordfish (3) on rows and on columns.
    fn fish(&mut self, k: usize) -> bool {
        let side = self.shape.side;
        for d in 0..side {
            for rows_first in [true, false] {
                // The base lines: each as the mask of its cross positions holding d.
                let line = |i: usize, j: usize| if rows_first { i * side + j } else { j * side + i };
                let masks: Vec<(usize, u32)> = (0..side)
                    .map(|i| {
                        (
                            i,
                            (0..side)
                                .filter(|&j| self.places[d].contains(line(i, j)))
                                .fold(0u32, |m, j| m | 1 << j),
                        )
                    })
                    .filter(|&(_, m)| (2..=k).contains(&(m.count_ones() as usize)))
                    .collect();
                for pick in choose(masks.len(), k) {
                    let pick = &pick[..k];
                    let cover = pick.iter().fold(0, |m, &i| m | masks[i].1);
                    if cover.count_ones() as usize != k {
                        continue;
                    }
                    let corners = || {
                        pick.iter()
                            .flat_map(|&p| bits(masks[p].1).map(|j| line(masks[p].0, j)).collect::<Vec<_>>())
                            .collect()
                    };
                    self.begin(None, 1 << d, corners);
                    let mut progress = false;
                    for i in (0..side).filter(|i| !pick.iter().any(|&p| masks[p].0 == *i)) {
                        for j in bits(cover) {
                            progress |= self.take(line(i, j), d);
                        }
                    }
                    if progress {
                        return true;
                    }
                    self.abandon();
                }
            }
        }
        false
    }
}

/// The bits set in a mask, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            d
        })
    })
}

/// The ways to choose `k` (1 to 3) of `n` indices, in increasing order: each as the first `k`
/// entries of an array, without allocating.
fn choose(n: usize, k: usize) -> impl Iterator<Item = [usize; 3]> {
    let mut pick = [0, 1, 2];
    let mut done = k > n || k == 0 || k > 3;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let out = pick;
        // The next combination: raise the last index that can go up, reset those after it.
        let mut i = k;
        loop {
            if i == 0 {
                done = true;
                break;
            }
            i -= 1;
            if pick[i] < n - k + i {
                pick[i] += 1;
                for j in i + 1..k {
                    pick[j] = pick[j - 1] + 1;
                }
                break;
            }
        }
        Some(out)
    })
}

/// What the logical solver made of a puzzle of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridLogic {
    /// The grid as far as logic took it (full when solved).
    pub grid: Grid,
    /// Whether the techniques solved it.
    pub solved: bool,
    /// How often each technique was applied, in the order of [`Technique::ALL`].
    pub counts: [u32; Technique::COUNT],
}

impl GridLogic {
    /// The hardest technique applied, if any.
    pub fn hardest(&self) -> Option<Technique> {
        hardest_of(&self.counts)
    }

    /// The name of the hardest technique needed: `guessing` when the techniques did not solve
    /// the puzzle, `none` when it was already full (as
    /// [`Logic::hardest_name`](crate::Logic::hardest_name) names it).
    pub fn hardest_name(&self) -> &'static str {
        hardest_name_of(self.solved, &self.counts)
    }

    /// The level: expert when unsolved, else the level of the hardest technique. The same
    /// ladder for every size: easy with singles, medium with locked candidates, hard with
    /// subsets and fish, expert beyond. On 9x9 grids it gives the levels of
    /// [`Logic::level`](crate::Logic::level). How generated puzzles of each size spread over
    /// the levels is in `benches/RESULTS.md`: the larger the grid, the more of them need more
    /// than these techniques (the wings, coloring and chains of the 9x9 rater are not here).
    pub fn level(&self) -> Level {
        level_of(self.solved, &self.counts)
    }

    /// The rating on Sudoku Explainer's scale (see [`Logic::rating`](crate::Logic::rating)),
    /// from the techniques this solver has: 10.0 where the 9x9 rater may find a wing or a
    /// chain.
    pub fn rating(&self) -> f32 {
        rating_of(self.solved, &self.counts)
    }
}

/// One step of the logical solution of a puzzle of any size: the technique, the unit and cells of
/// its pattern, its digits, and what it placed and removed. [`GridStep::describe`] writes it as a
/// line, `naked pair {3,7} in row 2 (r2c1 r2c5): removes {3,7} from r2c4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridStep {
    /// The technique.
    pub technique: Technique,
    /// The unit the pattern lies in, for the techniques of one unit.
    pub unit: Option<GridUnit>,
    /// The cells of the pattern (for a hidden single, its unit's).
    pub pattern: Vec<usize>,
    /// The digits of the pattern, as bits (bit `d - 1` for digit `d`).
    pub digits: u32,
    /// The digits placed: `(cell, digit)`.
    pub placed: Vec<(usize, u8)>,
    /// The candidates removed: `(cell, digits as bits)`.
    pub removed: Vec<(usize, u32)>,
}

impl GridStep {
    /// The step as one line, with cells and digits as the puzzle writes them.
    pub fn describe(&self, grid: &Grid) -> String {
        let symbols = grid.symbols();
        let side = grid.size().side();
        let digits = |mask: u32| {
            let list: Vec<String> =
                bits(mask).map(|d| symbols.symbol(u8::try_from(d + 1).unwrap_or(0)).to_string()).collect();
            if list.len() == 1 { list[0].clone() } else { format!("{{{}}}", list.join(",")) }
        };
        let at = |cell: usize| At { cell, side }.to_string();
        let cells: Vec<String> = self.pattern.iter().map(|&c| at(c)).collect();
        let mut line = match self.unit {
            Some(unit) if self.technique == Technique::HiddenSingle => {
                format!("{} {} in {unit}:", self.technique.name(), digits(self.digits))
            }
            Some(unit) => {
                format!("{} {} in {unit} ({}):", self.technique.name(), digits(self.digits), cells.join(" "))
            }
            None => format!("{} {} at {}:", self.technique.name(), digits(self.digits), cells.join(" ")),
        };
        let placed: Vec<String> =
            self.placed.iter().map(|&(c, d)| format!("{}={}", at(c), symbols.symbol(d))).collect();
        let removed: Vec<String> =
            self.removed.iter().map(|&(c, m)| format!("{} from {}", digits(m), at(c))).collect();
        if !placed.is_empty() {
            line.push_str(&format!(" places {}", placed.join(", ")));
        }
        if !removed.is_empty() {
            line.push_str(&format!(" removes {}", removed.join(", ")));
        }
        line
    }
}

/// The logical solution of a puzzle of any size, step by step (what `dlx rate --explain`
/// prints), with the verdict of [`solve_grid_logically`].
pub fn explain_grid(grid: &Grid) -> (GridLogic, Vec<GridStep>) {
    let shape = Shape::new(grid.rules());
    let mut board = Board::new(&shape, grid);
    board.steps = Some(Vec::new());
    let (mut board, counts) = board_run(board, &Technique::ALL);
    let steps = board.steps.take().unwrap_or_default();
    let mut out = grid.clone();
    for (c, &v) in board.value.iter().enumerate() {
        out.set(c, v);
    }
    (GridLogic { grid: out, solved: board.solved(), counts }, steps)
}

/// Solves a puzzle of any size with the techniques (easiest first), as far as they go.
pub fn solve_grid_logically(grid: &Grid) -> GridLogic {
    let shape = Shape::new(grid.rules());
    run(&shape, grid, &Technique::ALL)
}

/// The candidates left once the techniques that decide the levels have gone as far as they go:
/// each cell's digits as a mask (bit `d - 1`), one bit for a cell filled; `None` when the givens
/// contradict each other. Every solution keeps to them.
pub(crate) fn candidates(shape: &Shape, grid: &Grid) -> Option<Vec<u32>> {
    let board = board_after(shape, grid, &Technique::LEVELLED).0;
    if board.broken {
        return None;
    }
    Some(board.cand.iter().zip(&board.value).map(|(&c, &v)| if v == 0 { c } else { 1 << (v - 1) }).collect())
}

fn run(shape: &Shape, grid: &Grid, techniques: &[Technique]) -> GridLogic {
    let (board, counts) = board_after(shape, grid, techniques);
    let mut out = grid.clone();
    for (c, &v) in board.value.iter().enumerate() {
        out.set(c, v);
    }
    GridLogic { grid: out, solved: board.solved(), counts }
}

/// The board once the techniques have gone as far as they go, and how often each was applied.
fn board_after<'s>(
    shape: &'s Shape,
    grid: &Grid,
    techniques: &[Technique],
) -> (Board<'s>, [u32; Technique::COUNT]) {
    board_run(Board::new(shape, grid), techniques)
}

/// Runs the techniques on a board until they go no further.
fn board_run<'s>(mut board: Board<'s>, techniques: &[Technique]) -> (Board<'s>, [u32; Technique::COUNT]) {
    let mut counts = [0; Technique::COUNT];
    'rounds: while !board.broken && !board.solved() {
        if board.cages() {
            continue;
        }
        for &t in techniques {
            if board.apply(t) {
                counts[t as usize] += 1;
                continue 'rounds;
            }
        }
        break;
    }
    (board, counts)
}

#[cfg(test)]
mod tests {
    use super::choose;

    #[test]
    fn choose_lists_each_combination_once() {
        assert_eq!(choose(4, 2).count(), 6);
        assert_eq!(choose(5, 3).count(), 10);
        assert_eq!(choose(3, 3).map(|p| p.to_vec()).collect::<Vec<_>>(), vec![vec![0, 1, 2]]);
        assert_eq!(choose(2, 3).count(), 0);
        let pairs: Vec<[usize; 2]> = choose(3, 2).map(|p| [p[0], p[1]]).collect();
        assert_eq!(pairs, vec![[0, 1], [0, 2], [1, 2]]);
    }
}
