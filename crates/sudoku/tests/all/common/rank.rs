//! Spearman's rank correlation, for the rating test and the `rating_scale` example (which
//! includes this file by path).
#![allow(dead_code)]

/// Ranks of `values`, ties sharing the mean of their ranks.
pub(crate) fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let end =
            (start..order.len()).take_while(|&k| values[order[k]] == values[order[start]]).last().unwrap();
        for &k in &order[start..=end] {
            ranks[k] = (start + end) as f64 / 2.0 + 1.0;
        }
        start = end + 1;
    }
    ranks
}

/// Spearman's rank correlation.
pub(crate) fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mx, my) = (mean(&rx), mean(&ry));
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let var = |v: &[f64], m: f64| v.iter().map(|a| (a - m).powi(2)).sum::<f64>();
    cov / (var(&rx, mx) * var(&ry, my)).sqrt()
}
