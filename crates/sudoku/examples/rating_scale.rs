//! How the numeric rating follows the search effort on a set of puzzles: the distribution of
//! ratings and Spearman's rank correlation between rating and search nodes.
//! `cargo run --release -p dlx-sudoku --example rating_scale -- FILE [LIMIT]`.

use dlx_sudoku::{Matrix, Rater, Variant, parse_all};

/// Ranks of `values` (ties share the mean of their ranks).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        let mean = (start + end) as f64 / 2.0 + 1.0;
        for &k in &order[start..=end] {
            ranks[k] = mean;
        }
        start = end + 1;
    }
    ranks
}

/// Spearman's rank correlation: Pearson's on the ranks.
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("a puzzle file");
    let limit: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(&file).expect("a readable file");
    let matrix = Matrix::new(Variant::Classic);
    let mut rater = Rater::new(&matrix);
    let (mut ratings, mut nodes, mut guesses) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_rating: std::collections::BTreeMap<String, (f64, f64, u32)> =
        std::collections::BTreeMap::new();
    let mut histogram = std::collections::BTreeMap::new();
    for record in parse_all(&text).into_iter().take(limit) {
        let Ok(puzzle) = record.puzzle else { continue };
        let rating = rater.rate(&puzzle).expect("a valid puzzle");
        if rating.logic.solved {
            // The logical solution is the one solution (a check of the techniques' soundness).
            let solved = matches!(matrix.solver().check_unique(&puzzle), Ok(dlx_sudoku::Uniqueness::Unique(s)) if s == rating.logic.grid);
            assert!(solved, "{}: the logical solution is wrong", puzzle.to_line());
        }
        let r = f64::from(rating.logic.rating());
        ratings.push(r);
        nodes.push(rating.nodes);
        guesses.push(rating.guesses);
        let entry = by_rating.entry(format!("{r:04.1}")).or_default();
        entry.0 += rating.nodes;
        entry.1 += rating.guesses;
        entry.2 += 1;
        *histogram.entry(format!("{r:.1}")).or_insert(0u32) += 1;
    }
    println!("{file}: {} puzzles", ratings.len());
    println!("ratings: {histogram:?}");
    for (rating, (n, g, count)) in &by_rating {
        let c = f64::from(*count);
        println!("rating {rating}: {count} puzzles, mean nodes {:.1}, mean guesses {:.1}", n / c, g / c);
    }
    println!("spearman(rating, nodes) = {:.3}", spearman(&ratings, &nodes));
    println!("spearman(rating, guesses) = {:.3}", spearman(&ratings, &guesses));
}
