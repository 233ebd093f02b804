//! Grids of other sizes, one thread: first solution and uniqueness check of generated minimal
//! 12x12, 16x16 and 25x25 puzzles, by the search the rules get (`auto`) and by the engine's
//! (`engine`) side by side, and generating them (12x12 and 16x16: a 25x25 puzzle takes seconds).
//! Throughput is in puzzles.
//!
//! The puzzles are made once, before measuring, by the generator with fixed seeds, so every run
//! measures the same ones.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dlx_sudoku::Generator;
use dlx_sudoku::{Matrix, Rules, Search, Size, Symmetry};

fn bench(c: &mut Criterion) {
    // Each side, its puzzles per iteration, and whether generating them is measured.
    for (side, batch, generate) in [(12, 20u64, true), (16, 20, true), (25, 4, false)] {
        let size = Size::of_side(side).expect("a usual size");
        let rules = Rules::new(size);
        let matrix = Matrix::new(&rules);
        let mut generator = Generator::new(&matrix);
        let puzzles: Vec<_> = (0..batch)
            .map(|seed| {
                generator.generate(Symmetry::Rotational, seed, &mut |_, _| {}).expect("a puzzle").puzzle
            })
            .collect();
        let givens: usize = puzzles.iter().map(|p| p.givens()).sum();
        println!(
            "{size}: {:.1}% givens on average",
            100.0 * givens as f64 / (size.cells() * puzzles.len()) as f64
        );
        let mut group = c.benchmark_group(format!("grids/{size}"));
        group.throughput(Throughput::Elements(batch));
        group.sample_size(10);
        for (name, search) in [("auto", Search::Auto), ("engine", Search::Engine)] {
            let mut solver = matrix.solver();
            solver.set_search(search);
            group.bench_function(BenchmarkId::new("first", name), |b| {
                b.iter(|| puzzles.iter().filter(|p| solver.first(p).expect("no budget").is_some()).count())
            });
            group.bench_function(BenchmarkId::new("count-to-2", name), |b| {
                b.iter(|| puzzles.iter().map(|p| solver.count(p, Some(2)).expect("no budget")).sum::<u64>())
            });
        }
        if !generate {
            group.finish();
            continue;
        }
        let mut seed = 1000;
        group.bench_function(BenchmarkId::new("generate", "dlx-sudoku"), |b| {
            b.iter(|| {
                (0..batch)
                    .map(|_| {
                        seed += 1;
                        generator
                            .generate(Symmetry::Rotational, seed, &mut |_, _| {})
                            .expect("a puzzle")
                            .puzzle
                            .givens()
                    })
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
