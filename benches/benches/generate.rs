//! Generating minimal 180-degree-symmetric puzzles, one thread: this generator for each variant,
//! and the `sudoku` crate's `Sudoku::generate()` (classic) side by side. Throughput is in puzzles.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dlx_sudoku::{Generator, Matrix, Rules, Symmetry, Variant};

/// Puzzles per iteration.
const BATCH: u64 = 100;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(BATCH));
    group.sample_size(10);
    for variant in Variant::ALL {
        let matrix = Matrix::new(&Rules::from(variant));
        let mut generator = Generator::new(&matrix);
        let mut seed = 0u64;
        group.bench_function(BenchmarkId::new("dlx-sudoku", variant.name()), |b| {
            b.iter(|| {
                let mut clues = 0;
                for _ in 0..BATCH {
                    seed += 1;
                    clues += generator
                        .generate(Symmetry::Rotational, seed, &mut |_, _| {})
                        .expect("a puzzle")
                        .puzzle
                        .givens();
                }
                clues
            })
        });
    }
    group.bench_function(BenchmarkId::new("sudoku-crate", "classic"), |b| {
        b.iter(|| (0..BATCH).map(|_| u32::from(sudoku::Sudoku::generate().n_clues())).sum::<u32>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
