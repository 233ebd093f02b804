//! Word squares as exact cover with colors: fill an `n` x `n` grid so that every row and every
//! column reads a word of a dictionary.
//!
//! Items: one per row (`r0..`) and per column (`c0..`), primary: each gets exactly one word. One
//! per cell (`x00..`), secondary, and that is where colors matter: a row's option gives each of
//! its cells the letter the word puts there (`x01:b`), and so does a column's. A row and a column
//! may then share their cell exactly when they agree on its letter. Without colors a cell could
//! take part in only one option, and no grid could be filled.
//!
//! The dictionary: every word of a file (one per line, all of length `n`), or `count` words of
//! length `n` over the first `letters` letters, drawn from `seed`.
//!
//! `cargo run --release -p dlx-engine --example word_squares -- 4 50 3 [seed]` counts the squares
//! of 50 random words of length 4 over `abc`; `--words FILE` reads a dictionary instead, and
//! `--dlx` prints the problem instead of solving it.

use dlx_engine::{BuildError, Problem, ProblemBuilder, Solver};

/// The word-squares problem for an `n` x `n` grid and these words (each of `n` letters).
pub fn word_squares(n: usize, words: &[String]) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let rows: Vec<_> = (0..n).map(|i| b.primary(format!("r{i}"))).collect::<Result<_, _>>()?;
    let columns: Vec<_> = (0..n).map(|j| b.primary(format!("c{j}"))).collect::<Result<_, _>>()?;
    let mut cells = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            cells.push(b.secondary(format!("x{i}{j}"))?);
        }
    }
    let letters: Vec<Vec<String>> = words.iter().map(|w| w.chars().map(String::from).collect()).collect();
    for (line, along_rows) in [(&rows, true), (&columns, false)] {
        for (k, &item) in line.iter().enumerate() {
            for word in &letters {
                let cell = |t: usize| if along_rows { cells[k * n + t] } else { cells[t * n + k] };
                let colored = (0..n).map(|t| (cell(t), Some(word[t].as_str())));
                b.option_with_colors(std::iter::once((item, None)).chain(colored))?;
            }
        }
    }
    Ok(b.build())
}

/// `count` distinct words of length `n` over the first `letters` letters, drawn from `seed`.
pub fn random_words(n: usize, count: usize, letters: u32, seed: u64) -> Vec<String> {
    let total = u32::try_from(n).ok().and_then(|n| (letters as usize).checked_pow(n)).unwrap_or(usize::MAX);
    let mut state = seed;
    let mut next = move || {
        // SplitMix64.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut words = Vec::new();
    while words.len() < count.min(total) {
        let word: String = (0..n)
            .map(|_| {
                let k = u32::try_from(next() % u64::from(letters)).unwrap_or(0);
                char::from_u32('a' as u32 + k).unwrap_or('a')
            })
            .collect();
        if seen.insert(word.clone()) {
            words.push(word);
        }
    }
    words
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dlx = args.iter().any(|a| a == "--dlx");
    let file = args.iter().position(|a| a == "--words").and_then(|k| args.get(k + 1)).cloned();
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let n = usize::try_from(numbers.first().copied().unwrap_or(4))?;
    let words = match file {
        Some(path) => {
            let text = std::fs::read_to_string(&path)?;
            let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
            if let Some(bad) = words.iter().find(|w| w.chars().count() != n) {
                return Err(format!("{path}: `{bad}` is not {n} letters long").into());
            }
            words
        }
        None => {
            let count = usize::try_from(numbers.get(1).copied().unwrap_or(50))?;
            let letters = u32::try_from(numbers.get(2).copied().unwrap_or(3))?.clamp(1, 26);
            random_words(n, count, letters, numbers.get(3).copied().unwrap_or(1))
        }
    };
    let problem = word_squares(n, &words)?;
    if dlx {
        writeln!(out, "| word squares {n}x{n}, {} words: {}", words.len(), words.join(" "))?;
        problem.write_dlx(&mut out)?;
        return Ok(());
    }
    let mut solver = Solver::new(&problem);
    let count = solver.count()?;
    writeln!(out, "{n}x{n} word squares of {} words: {count}, {:?}", words.len(), solver.stats())?;
    if let Some(solution) = solver.first()? {
        // A row's option names its row, then its cells with their letters.
        let mut grid = vec![String::new(); n];
        for option in solution {
            let text = problem.display_option(option).to_string();
            if let Some(row) = text.strip_prefix('r') {
                let (i, rest) = row.split_once(' ').unwrap_or((row, ""));
                grid[i.parse::<usize>()?] = rest.split(' ').filter_map(|c| c.split(':').nth(1)).collect();
            }
        }
        writeln!(out, "{}", grid.join("\n"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted against brute force: every choice of a word per row, kept when every column is a
    /// word too.
    #[test]
    fn counts_match_brute_force() {
        for (n, count, letters, seed) in [(2, 3, 2, 1), (3, 6, 2, 2), (3, 9, 3, 5), (2, 4, 2, 7)] {
            let words = random_words(n, count, letters, seed);
            let problem = word_squares(n, &words).unwrap();
            let engine = Solver::new(&problem).count().unwrap();
            let mut brute = 0;
            let choices = words.len().pow(u32::try_from(n).unwrap());
            for mut k in 0..choices {
                let rows: Vec<&[u8]> = (0..n)
                    .map(|_| {
                        let w = words[k % words.len()].as_bytes();
                        k /= words.len();
                        w
                    })
                    .collect();
                let columns_are_words = (0..n).all(|j| {
                    let column: Vec<u8> = rows.iter().map(|r| r[j]).collect();
                    words.iter().any(|w| w.as_bytes() == column.as_slice())
                });
                brute += u64::from(columns_are_words);
            }
            assert_eq!(engine, brute, "{n}x{n}, {words:?}");
        }
    }
}
