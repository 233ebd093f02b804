use dlx_sudoku::{grid::GridGenerator, GridMatrix, Rules, Size, Symmetry};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: Size = args[1].parse().unwrap();
    let n: u64 = args.get(2).map_or(3, |s| s.parse().unwrap());
    let rules = Rules::new(size);
    let m = GridMatrix::new(&rules);
    let mut g = GridGenerator::new(&m);
    let mut s = m.solver();
    let (mut gens, mut firsts, mut uniqs, mut nodes) = (vec![], vec![], vec![], vec![]);
    for seed in 0..n {
        let t = std::time::Instant::now();
        let p = g.generate(Symmetry::Rotational, seed, &mut |_, _| {}).unwrap();
        gens.push(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        s.first(&p).unwrap();
        firsts.push(t.elapsed().as_secs_f64());
        nodes.push(s.effort().nodes);
        let t = std::time::Instant::now();
        s.check_unique(&p).unwrap();
        uniqs.push(t.elapsed().as_secs_f64());
    }
    for v in [&mut gens, &mut firsts, &mut uniqs] { v.sort_by(|a, b| a.partial_cmp(b).unwrap()); }
    nodes.sort();
    let med = |v: &Vec<f64>| v[v.len() / 2] * 1e3;
    println!("{size}: generate median {:.2} ms max {:.2} ms; first median {:.3} ms max {:.3}; unique median {:.3} ms max {:.3}; first nodes median {}", med(&gens), gens[gens.len()-1]*1e3, med(&firsts), firsts[firsts.len()-1]*1e3, med(&uniqs), uniqs[uniqs.len()-1]*1e3, nodes[nodes.len()/2]);
}
