//! Grids of other sizes, one thread: first solution and uniqueness check of generated minimal
//! 16x16 and 12x12 puzzles (about 40% givens), and generating them. Throughput is in puzzles.
//!
//! The puzzles are made once, before measuring, by the generator with fixed seeds, so every run
//! measures the same ones.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dlx_sudoku::Generator;
use dlx_sudoku::{Matrix, Rules, Size, Symmetry};

/// Puzzles per iteration.
const BATCH: u64 = 20;

fn bench(c: &mut Criterion) {
    for side in [12, 16] {
        let size = Size::of_side(side).expect("a usual size");
        let rules = Rules::new(size);
        let matrix = Matrix::new(&rules);
        let mut generator = Generator::new(&matrix);
        let puzzles: Vec<_> = (0..BATCH)
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
        group.throughput(Throughput::Elements(BATCH));
        group.sample_size(10);
        let mut solver = matrix.solver();
        group.bench_function(BenchmarkId::new("first", "dlx-sudoku"), |b| {
            b.iter(|| puzzles.iter().filter(|p| solver.first(p).expect("no budget").is_some()).count())
        });
        group.bench_function(BenchmarkId::new("count-to-2", "dlx-sudoku"), |b| {
            b.iter(|| puzzles.iter().map(|p| solver.count(p, Some(2)).expect("no budget")).sum::<u64>())
        });
        let mut seed = 1000;
        group.bench_function(BenchmarkId::new("generate", "dlx-sudoku"), |b| {
            b.iter(|| {
                (0..BATCH)
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
