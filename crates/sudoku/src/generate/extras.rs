//! Rules made up for each puzzle of a run: jigsaw regions, killer cages, even and odd marks, drawn
//! from the puzzle's seed around a full grid of the rules they start from.

use std::sync::Arc;

use dlx_engine::{Budget, CancelFlag, StopReason};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::fill::FILL_TOTAL;
use super::orbits::{box_shifts, symmetric_grid_under};
use super::thin::attempts;
use super::{GenerateError, Generated, Generator, Numbered, Run};
use crate::cover::{Matrix, SolveError};
use crate::model::{Parity, Puzzle, Rules, edge_neighbours};
use crate::{Level, Symmetry};
/// Jigsaw maps made up for one puzzle before its generation gives up.
const MAPS: usize = 40;

/// Nodes the searches for a full grid of one jigsaw map may take before another map is made up.
const MAP_NODES: u64 = 1_000_000;

/// Jigsaw maps drawn freely before the maps are drawn so that a box shift keeps them, and the
/// symmetric fills can search them (see `random_regions`): two, since the free maps of the rules
/// that need the others (anti-knight from 12x12 on) cost about a second each for nothing
/// (`benches/RESULTS.md`).
const FREE_MAPS: usize = 2;

/// Draws of a shift and moves for each map a box shift keeps, before that map is given up.
const MAP_DRAWS: usize = 20;

/// Puzzle `index` of a run whose rules are `base` with `extras` made up for each puzzle, exactly
/// as `dlx generate --rules jigsaw` (`killer`, `odd-even`) makes it (see [`generate_with_extras`]).
pub fn generate_in_with_extras(
    base: &Rules,
    extras: Extras,
    run: &Run,
    index: u64,
    progress: &mut dyn FnMut(usize, usize),
    cancel: Option<&CancelFlag>,
) -> Result<Numbered, GenerateError> {
    // Cages alone make hard puzzles: a run that wants a level below expert takes the first
    // cage set of each attempt, its givens included, rather than draws for no givens at all.
    let givens_free = run.level.is_none_or(|level| level == Level::Expert);
    attempts(run, index, |seed| generate_as(base, extras, run.symmetry, seed, progress, cancel, givens_free))
}

/// Rules a generator makes up for each puzzle, besides those it is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extras {
    /// Random jigsaw regions instead of boxes (connected, side cells each, and such that a full
    /// grid exists).
    pub jigsaw: bool,
    /// Killer cages over the whole grid (2 to 4 cells each, none of one), their sums from the
    /// full grid; up to 9x9, drawn again (a few times) until the cages alone have a unique
    /// solution, so that no given digit is needed.
    pub killer: bool,
    /// Even and odd marks on about a quarter of the cells, from the full grid.
    pub parity: bool,
}

impl From<&crate::NamedRules> for Extras {
    /// The rules a list of names makes up for each puzzle.
    fn from(named: &crate::NamedRules) -> Extras {
        Extras { jigsaw: named.jigsaw, killer: named.killer, parity: named.parity }
    }
}

impl Extras {
    /// Whether any rule is made up.
    pub fn any(self) -> bool {
        self.jigsaw || self.killer || self.parity
    }
}

/// A puzzle whose rules are `base` with `extras` made up from the seed: jigsaw regions first,
/// then a full grid, then cages and marks that the full grid obeys; then clue groups are taken
/// away as [`Generator::generate`] does. Cages and marks follow the symmetry when it maps
/// each onto one of the same sum or parity, which random cages never do: killer puzzles take
/// [`Symmetry::None`] (their clues are often none at all), others are refused clearly.
pub fn generate_with_extras(
    base: &Rules,
    extras: Extras,
    symmetry: Symmetry,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
    cancel: Option<&CancelFlag>,
) -> Result<Generated, GenerateError> {
    generate_as(base, extras, symmetry, seed, progress, cancel, true)
}

/// [`generate_with_extras`], drawing killer cages for a puzzle without givens (up to 9x9) when
/// `givens_free`, else taking the first cage set.
fn generate_as(
    base: &Rules,
    extras: Extras,
    symmetry: Symmetry,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
    cancel: Option<&CancelFlag>,
    givens_free: bool,
) -> Result<Generated, GenerateError> {
    let generator = |matrix| {
        let mut generator = Generator::general(matrix);
        generator.set_cancel_flag(cancel.cloned());
        generator
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xe47a_5eed);
    let (mut rules, full, first) = if extras.jigsaw {
        random_regions(base, symmetry, &mut rng, cancel)?
    } else {
        let rules = base.clone();
        Generator::check_symmetry(&rules, symmetry)?;
        let first = Matrix::new(&rules);
        let mut searcher = Generator::general(&first);
        searcher.set_cancel_flag(cancel.cloned());
        let full = searcher.full_grid(seed)?;
        (rules, full, first)
    };
    if extras.killer {
        if symmetry != Symmetry::None {
            let what = "cages";
            return Err(GenerateError::Symmetry {
                symmetry,
                rules: format!("{} killer", rules.describe()),
                what,
            });
        }
        // Cage sets until one whose cages alone solve the puzzle (no given digit is then
        // needed), or the last of a few draws.
        let base = rules.clone();
        let side = base.size().side();
        // (On grids above 9x9 cages alone hardly ever do, and each check would cost its budget.)
        let draws = if side <= 9 && givens_free { CAGE_DRAWS } else { 1 };
        for draw in 0..draws {
            rules = base.clone();
            for (cage, sum) in random_cages(side, &full, &mut rng) {
                rules.add_cage(cage, sum).expect("cages of distinct digits of the full grid, each cell once");
            }
            if draw + 1 == draws || cages_alone_solve(&rules, cancel)? {
                break;
            }
        }
    }
    if extras.parity {
        let side = rules.size().side();
        for orbit in symmetry.orbits_in(side) {
            let parities: Vec<bool> = orbit.iter().map(|&c| full.get(c) % 2 == 0).collect();
            if rng.random_ratio(1, 4) && parities.iter().all(|&p| p == parities[0]) {
                for &c in &orbit {
                    rules.set_parity(c, if parities[0] { Parity::Even } else { Parity::Odd });
                }
            }
        }
    }
    let full = Puzzle::with_cells(rules.clone(), full.cells().to_vec()).expect("the same size");
    // Marks are restrictions the solver applies: the matrix of the search for the full grid
    // serves, unless cages were added.
    let matrix = if extras.killer { Matrix::new(&rules) } else { first };
    generator(&matrix).thin_out(full, symmetry, seed, progress)
}

/// Regions made from the boxes by moves that keep every region connected and of side cells: a
/// cell on the edge of its region passes to a neighbouring region, which gives back one of its
/// own cells that touches the first region; with rotational symmetry, each move is made with its
/// rotated image. Made again when no full grid of the map is found in [`MAP_NODES`] nodes. Only
/// `none` and `rotational` symmetry are made so. The rules, a full grid of them and their matrix.
///
/// On rules whose grids are rare (anti-knight on 16x16) a free map seldom has a grid that a
/// search finds. So after [`FREE_MAPS`] maps whose searches ran out (not proved without grids:
/// then the rules are given up), each move is also made at its images under a random shift by
/// whole boxes, and the map's grids are searched among those the same shift keeps (see
/// `orbits`), which the symmetric fills find in seconds where they exist.
fn random_regions(
    base: &Rules,
    symmetry: Symmetry,
    rng: &mut Xoshiro256PlusPlus,
    cancel: Option<&CancelFlag>,
) -> Result<(Rules, Puzzle, Matrix), GenerateError> {
    let rotated = match symmetry {
        Symmetry::None => false,
        Symmetry::Rotational => true,
        _ => {
            return Err(GenerateError::Symmetry {
                symmetry,
                rules: format!("{} jigsaw", base.describe()),
                what: "regions (made up with none or rotational symmetry only)",
            });
        }
    };
    let cells = base.size().cells();
    let side = base.size().side();
    let half_turn: Vec<usize> = (0..cells).rev().collect();
    let turns = if rotated { closure(cells, std::slice::from_ref(&half_turn)) } else { Vec::new() };
    let mut spent = 0;
    let mut proved = 0;
    for map in 0..MAPS {
        if spent >= FILL_TOTAL {
            break;
        }
        if map == FREE_MAPS && proved == FREE_MAPS {
            // Rules whose maps have no grids (4x4 anti-king): not grids too rare to find.
            break;
        }
        if map >= FREE_MAPS {
            // Maps a box shift keeps, and grids the same shift keeps (see `orbits`). Most draws
            // of a shift and moves end on no map (on 14x14, all but those of the shift by one
            // box to the right), and a draw costs little beside a search: drawn again.
            let shifts = box_shifts(base.size());
            let drawn = (0..MAP_DRAWS).find_map(|_| {
                let &(down, right) = shifts.choose(rng).expect("grids of more than one box");
                let shift: Vec<usize> = (0..cells)
                    .map(|c| ((c / side + down) % side) * side + (c % side + right) % side)
                    .collect();
                let mut generators = vec![shift];
                generators.extend(rotated.then(|| half_turn.clone()));
                moved_map(base, &closure(cells, &generators), rng).map(|rules| (rules, down, right))
            });
            let Some((rules, down, right)) = drawn else { continue };
            Generator::check_symmetry(&rules, symmetry)?;
            let matrix = Matrix::new(&rules);
            let rules = Arc::new(rules);
            let found = symmetric_grid_under(&matrix, &rules, &[(down, right)], rng, cancel)
                .map_err(|e| GenerateError::from(SolveError::from(e)))?;
            if let Some(full) = found {
                return Ok((Rules::clone(&rules), full, matrix));
            }
            continue;
        }
        // A map whose grids are not found soon is let go rather than searched to the end.
        let Some(rules) = moved_map(base, &turns, rng) else { continue };
        Generator::check_symmetry(&rules, symmetry)?;
        let matrix = Matrix::new(&rules);
        let found = {
            let mut generator = Generator::general(&matrix);
            generator.set_cancel_flag(cancel.cloned());
            generator.full_grid_spending(rng.random(), MAP_NODES.min(FILL_TOTAL - spent), &mut spent)
        };
        match found {
            Ok(full) => return Ok((rules, full, matrix)),
            Err(GenerateError::NoGrid(_)) => proved += 1,
            Err(GenerateError::GridBudget(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let rules = format!("{} jigsaw", base.describe());
    Err(if spent >= FILL_TOTAL { GenerateError::GridBudget(rules) } else { GenerateError::NoGrid(rules) })
}

/// One random map for [`random_regions`], made with each move's images under `group` (cell
/// permutations, the identity left out, closed under composition); `None` when the moves end on
/// a map the rules refuse, or one that the group does not keep, or when fewer than a quarter of
/// the cells were traded.
pub(super) fn moved_map(base: &Rules, group: &[Vec<usize>], rng: &mut Xoshiro256PlusPlus) -> Option<Rules> {
    let size = base.size();
    let (side, cells) = (size.side(), size.cells());
    let near = |c: usize| edge_neighbours(c, side);
    let to_rules = |map: &[u8]| {
        let mut rules = base.clone();
        let text: String = map.iter().map(|&k| char::from(b'A' + k)).collect();
        (rules.set_regions(&text).is_ok() && group.iter().all(|g| keeps(map, g))).then_some(rules)
    };
    let mut map: Vec<u8> = base.regions().to_vec();
    let mut moves = 0;
    for tried in 0..cells * 50 {
        if moves >= cells {
            break;
        }
        // A group that has allowed no trade in the first tenth of the tries seldom allows one:
        // given up (the tries, each checking a whole map, are most of a jigsaw's time then).
        if moves == 0 && tried == cells * 5 {
            return None;
        }
        let c = rng.random_range(0..cells);
        let Some(n) = near(c).filter(|&n| map[n] != map[c]).collect::<Vec<_>>().choose(rng).copied() else {
            continue;
        };
        let (a, b) = (map[c], map[n]);
        // A cell of region b (not n) touching region a somewhere other than at c: given to a,
        // it keeps a's size, and b has c in its place.
        let givers: Vec<usize> =
            (0..cells).filter(|&d| map[d] == b && d != n && near(d).any(|e| e != c && map[e] == a)).collect();
        let Some(&d) = givers.choose(rng) else { continue };
        let mut trial = map.clone();
        trial[c] = b;
        trial[d] = a;
        // The same trade at each image: the image of c goes to the region of n's image, and
        // the image of d to the region c's image was in. Images must not meet.
        let mut moved = vec![c, d];
        let mut apart = true;
        for g in group {
            let (gc, gd) = (g[c], g[d]);
            apart &= !moved.contains(&gc) && !moved.contains(&gd);
            moved.extend([gc, gd]);
            trial[gc] = map[g[n]];
            trial[gd] = map[gc];
        }
        if apart && to_rules(&trial).is_some() {
            map = trial;
            moves += 1;
        }
    }
    // A map hardly moved from the boxes (where the group leaves few trades) is no jigsaw.
    let traded = moves * (group.len() + 1);
    if traded < cells / 4 {
        return None;
    }
    to_rules(&map)
}

/// Whether the cell permutation `g` maps each region of `map` onto a region.
pub(super) fn keeps(map: &[u8], g: &[usize]) -> bool {
    let mut image = [u8::MAX; 64];
    map.iter().zip(g).all(|(&region, &to)| {
        let slot = &mut image[usize::from(region)];
        if *slot == u8::MAX {
            *slot = map[to];
        }
        *slot == map[to]
    })
}

/// The group the cell permutations `generators` make, without the identity.
pub(super) fn closure(cells: usize, generators: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let identity: Vec<usize> = (0..cells).collect();
    let mut group = vec![identity.clone()];
    let mut k = 0;
    while k < group.len() {
        for g in generators {
            let product: Vec<usize> = group[k].iter().map(|&c| g[c]).collect();
            if !group.contains(&product) {
                group.push(product);
            }
        }
        k += 1;
    }
    group.retain(|g| *g != identity);
    group
}

/// Cages of 2 to 4 cells over the whole grid, grown from random cells through edge neighbours
/// with different digits. A cell left alone then joins a neighbouring cage of fewer than 4 cells
/// that lacks its digit, or takes a cell from a neighbouring cage of 3 or 4 (one that leaves
/// it connected) to make a pair; when neither is possible for some cell, the cages are grown
/// again from another draw. Returns the cages (cells and sum).
pub(super) fn random_cages(
    side: usize,
    full: &Puzzle,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<(Vec<usize>, u32)> {
    let cells = side * side;
    let digit = |c: usize| full.get(c);
    loop {
        let mut cage_of = vec![usize::MAX; cells];
        let mut cages: Vec<Vec<usize>> = Vec::new();
        let mut order: Vec<usize> = (0..cells).collect();
        order.shuffle(rng);
        for &start in &order {
            if cage_of[start] != usize::MAX {
                continue;
            }
            let target = rng.random_range(2..=4);
            let mut cage = vec![start];
            cage_of[start] = cages.len();
            while cage.len() < target {
                let mut options: Vec<usize> = Vec::new();
                for &c in &cage {
                    for n in edge_neighbours(c, side) {
                        if cage_of[n] == usize::MAX && !cage.iter().any(|&x| digit(x) == digit(n)) {
                            options.push(n);
                        }
                    }
                }
                let Some(&next) = options.choose(rng) else { break };
                cage_of[next] = cages.len();
                cage.push(next);
            }
            cages.push(cage);
        }
        let alone: Vec<usize> = (0..cages.len()).filter(|&k| cages[k].len() == 1).collect();
        let mut repaired = true;
        for k in alone {
            let Some(&cell) = cages[k].first().filter(|_| cages[k].len() == 1) else { continue };
            let mut neighbours: Vec<usize> = edge_neighbours(cell, side).collect();
            neighbours.shuffle(rng);
            // Join a small cage that lacks the digit ...
            let join = neighbours.iter().map(|&n| cage_of[n]).find(|&j| {
                j != k && cages[j].len() < 4 && !cages[j].iter().any(|&x| digit(x) == digit(cell))
            });
            if let Some(j) = join {
                cages[k].clear();
                cages[j].push(cell);
                cage_of[cell] = j;
                continue;
            }
            // ... or take a cell from a larger one that stays connected without it.
            let take = neighbours.iter().copied().find(|&n| {
                let j = cage_of[n];
                j != k
                    && cages[j].len() >= 3
                    && digit(n) != digit(cell)
                    && connected_without(&cages[j], n, side)
            });
            match take {
                Some(n) => {
                    let j = cage_of[n];
                    cages[j].retain(|&x| x != n);
                    cages[k].push(n);
                    cage_of[n] = k;
                }
                None => repaired = false,
            }
        }
        if repaired {
            return cages
                .into_iter()
                .filter(|cage| !cage.is_empty())
                .map(|cage| {
                    let sum = cage.iter().map(|&c| u32::from(digit(c))).sum();
                    (cage, sum)
                })
                .collect();
        }
    }
}

/// Whether `cage` without `cell` is still connected through edge neighbours.
pub(super) fn connected_without(cage: &[usize], cell: usize, side: usize) -> bool {
    let rest: Vec<usize> = cage.iter().copied().filter(|&c| c != cell).collect();
    let Some(&first) = rest.first() else { return true };
    let mut seen = vec![first];
    let mut k = 0;
    while k < seen.len() {
        for n in edge_neighbours(seen[k], side) {
            if rest.contains(&n) && !seen.contains(&n) {
                seen.push(n);
            }
        }
        k += 1;
    }
    seen.len() == rest.len()
}

/// Whether the cages of `rules` alone, with no given digit, have a unique solution (within
/// [`CAGE_CHECK`] nodes: a longer check counts as no).
fn cages_alone_solve(rules: &Rules, cancel: Option<&CancelFlag>) -> Result<bool, GenerateError> {
    let matrix = Matrix::new(rules);
    let side = rules.size().side();
    let empty = Puzzle::with_cells(rules.clone(), vec![0; side * side]).expect("a grid of its size");
    let mut solver = matrix.solver();
    solver.set_cancel_flag(cancel.cloned());
    solver.set_budget(Budget { nodes: Some(CAGE_CHECK), updates: None });
    match solver.count(&empty, Some(2)) {
        Ok(n) => Ok(n == 1),
        Err(SolveError::Interrupted(e)) if e.reason == StopReason::Budget => Ok(false),
        Err(e @ SolveError::Interrupted(_)) => Err(GenerateError::Solve(e)),
        Err(_) => Ok(false),
    }
}

/// How many cage sets a killer puzzle of up to 9x9 tries for one whose cages alone have a unique
/// solution (a puzzle with no given digit), before it keeps the last and the givens it needs.
const CAGE_DRAWS: usize = 8;

/// The most nodes the check that cages alone give a unique solution may take.
const CAGE_CHECK: u64 = 200_000;
