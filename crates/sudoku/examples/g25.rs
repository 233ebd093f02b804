use dlx_sudoku::{grid::{GridGenerator, solve_grid_logically}, GridMatrix, Rules, Size, Symmetry};
fn main() {
    let size: Size = std::env::args().nth(1).unwrap().parse().unwrap();
    let stop: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let rules = Rules::new(size);
    let m = GridMatrix::new(&rules);
    let mut g = GridGenerator::new(&m);
    let full = g.full_grid(0).unwrap();
    // Remove cells in orbit order greedily but check with logic only, up to `stop` orbits.
    let mut p = full.clone();
    let orbits = Symmetry::Rotational.orbits_in(size.side());
    let mut s = m.solver();
    for (k, o) in orbits.iter().enumerate().take(stop) {
        let kept: Vec<u8> = o.iter().map(|&c| p.get(c)).collect();
        for &c in o { p.set(c, 0); }
        let t = std::time::Instant::now();
        let l = solve_grid_logically(&p);
        let tl = t.elapsed();
        let t = std::time::Instant::now();
        let n = s.count(&p, Some(2)).unwrap();
        let tc = t.elapsed();
        if k % 10 == 0 || tc.as_millis() > 50 {
            println!("{k}: givens {} logic solved {} {:?} ({:?}) count {n} {:?} nodes {}", p.givens(), l.solved, l.hardest(), tl, tc, s.effort().nodes);
        }
        if n != 1 { for (&c, &d) in o.iter().zip(&kept) { p.set(c, d); } }
    }
}
