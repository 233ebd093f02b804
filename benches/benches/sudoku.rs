//! Sudoku, one thread: first solution and uniqueness check (count up to 2) on the public benchmark
//! sets in `../shared/data/sudoku/` beside the project root, with the `sudoku` crate measured side
//! by side as the baseline. Skipped, with a message, when the sets are absent.
//!
//! Throughput is in puzzles, so criterion reports puzzles per second; guesses per puzzle are
//! printed before each group.

use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dlx_sudoku::Variant;
use dlx_sudoku::{Matrix, Puzzle, Rules};

/// The sets, and how many puzzles of each the bench uses (the first ones of the file).
///
/// The forum's hardest set is measured whole, as the targets are set for it, and also its first
/// 500 puzzles alone, the figure earlier runs of this bench reported (and the engine's docs quote
/// node counts for): against the baseline they are harder than the set as a whole.
const SETS: [(&str, &str, usize); 4] = [
    ("17-clue", "puzzles2_17_clue.txt", 2000),
    ("magictour-top1465", "puzzles3_magictour_top1465.txt", 1465),
    ("forum-hardest-1905-11plus", "puzzles5_forum_hardest_1905_11plus.txt", usize::MAX),
    ("forum-hardest-first-500", "puzzles5_forum_hardest_1905_11plus.txt", 500),
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku")
}

/// The puzzles of a set as lines, or `None` when the file is absent.
fn load(file: &str, take: usize) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(data_dir().join(file)).ok()?;
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(take)
            .map(str::to_owned)
            .collect(),
    )
}

fn bench(c: &mut Criterion) {
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    for (name, file, take) in SETS {
        let Some(lines) = load(file, take) else {
            eprintln!("skipping {name}: {} not found", data_dir().join(file).display());
            continue;
        };
        let ours: Vec<Puzzle> =
            lines.iter().map(|l| l.parse().expect("benchmark puzzles are well formed")).collect();
        let theirs: Vec<sudoku::Sudoku> =
            lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("well formed")).collect();

        // Check the answers agree, and report the effort.
        let mut solver = matrix.solver();
        let (mut nodes, mut guesses) = (0u64, 0u64);
        for (p, s) in ours.iter().zip(&theirs) {
            let mine = solver.first(p).unwrap().expect("benchmark puzzles have a solution");
            nodes += solver.effort().nodes;
            guesses += solver.effort().guesses;
            let other = s.some_solution().expect("solvable").to_bytes();
            assert_eq!(mine.cells(), &other, "{}", p.to_line());
        }
        let n = ours.len() as f64;
        eprintln!(
            "{name}: {} puzzles, first solution: {:.1} nodes and {:.1} guesses per puzzle",
            ours.len(),
            nodes as f64 / n,
            guesses as f64 / n
        );

        let mut group = c.benchmark_group(format!("sudoku/{name}"));
        group.throughput(Throughput::Elements(ours.len() as u64));
        group.sample_size(10);
        group.bench_function(BenchmarkId::new("first", "dlx-sudoku"), |b| {
            b.iter(|| ours.iter().filter(|p| solver.first(p).unwrap().is_some()).count())
        });
        group.bench_function(BenchmarkId::new("first", "sudoku-crate"), |b| {
            b.iter(|| theirs.iter().filter(|s| s.some_solution().is_some()).count())
        });
        group.bench_function(BenchmarkId::new("count-to-2", "dlx-sudoku"), |b| {
            b.iter(|| ours.iter().map(|p| solver.count(p, Some(2)).unwrap()).sum::<u64>())
        });
        group.bench_function(BenchmarkId::new("count-to-2", "sudoku-crate"), |b| {
            b.iter(|| theirs.iter().map(|s| s.solutions_count_up_to(2)).sum::<usize>())
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
