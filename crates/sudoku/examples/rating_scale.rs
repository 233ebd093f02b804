//! How the numeric rating follows the search effort on a set of puzzles: the distribution of
//! ratings and Spearman's rank correlation between rating and search nodes.
//! `cargo run --release -p dlx-sudoku --example rating_scale -- FILE [LIMIT]`.

use dlx_sudoku::{Matrix, Rules, Uniqueness, Variant, parse_all};

#[path = "../tests/all/common/rank.rs"]
mod rank;
use rank::spearman;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("a puzzle file");
    let limit: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(&file).expect("a readable file");
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut rater = matrix.solver();
    let (mut ratings, mut nodes, mut guesses) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_rating: std::collections::BTreeMap<String, (f64, f64, u32)> =
        std::collections::BTreeMap::new();
    let mut histogram = std::collections::BTreeMap::new();
    for record in parse_all(&text).into_iter().take(limit) {
        let Ok(puzzle) = record.puzzle else { continue };
        if !matrix.fits(puzzle.rules()) {
            continue;
        }
        let rating = rater.rate(&puzzle).expect("a valid puzzle");
        if rating.logic.solved {
            // The logical solution is the one solution (a check of the techniques' soundness).
            let solved = matches!(matrix.solver().check_unique(&puzzle), Ok(Uniqueness::Unique(s)) if s == rating.logic.grid);
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
