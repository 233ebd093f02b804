//! Examples for each command: shown at the end of its `--help` and in its manual page (`dlx man`),
//! each a command line and what it does. A test parses every one, so that none names an option
//! that is not there.

/// A command's examples: the command line (after `dlx`), and what it does.
pub(crate) type Examples = &'static [(&'static str, &'static str)];

pub(crate) const SOLVE: Examples = &[
    ("solve puzzles.txt", "answer every puzzle of a file, checking that each has one solution"),
    (
        "solve 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "solve a puzzle given on the command line",
    ),
    ("solve --format json --strict puzzles.txt", "one JSON object per puzzle; exit 3 unless each is unique"),
];

pub(crate) const COUNT: Examples = &[
    ("count puzzles.txt", "count the solutions of each puzzle"),
    ("count --limit 1000 --format json grids.txt", "count up to 1,000 each (`1000+` beyond)"),
];

pub(crate) const GENERATE: Examples = &[
    ("generate -n 10 --difficulty hard", "ten hard 9x9 puzzles"),
    ("generate --size 16 -n 2 --seed 7", "two 16x16 puzzles, the same every time"),
    (
        "generate --rules killer -n 6 -f pdf --answers --output pages",
        "killer puzzles on A4 pages to print, with answers (pages.pdf, answers.pdf)",
    ),
];

pub(crate) const RATE: Examples = &[
    ("rate puzzles.txt", "level, rating and hardest technique of each puzzle"),
    ("rate --explain --format json puzzles.txt", "with the steps a person would take"),
    ("rate --stats --format csv puzzles.txt", "a table, and how many puzzles took each level"),
];

pub(crate) const RENDER: Examples = &[
    ("render puzzles.txt", "the puzzles on a page of A4 paper, as SVG on stdout"),
    ("render -f pdf puzzles.txt > puzzles.pdf", "every page, as one PDF document"),
    ("render --paper letter --output pages puzzles.txt", "pages of US letter paper, one file each"),
];

pub(crate) const XC: Examples = &[
    ("xc problem.dlx", "print every solution of an exact-cover problem"),
    ("xc --count --threads 8 pentominoes.dlx", "count them on eight threads"),
    ("xc --count --shard 0/4 --format json problem.dlx", "count the first of four parts (for `dlx merge`)"),
    ("xc --best 10 costs.dlx", "the ten cheapest solutions of a problem with costs (`|n`)"),
    ("xc --count --branch sharp problem.dlx", "count, branching on the items named with a leading `#` first"),
];

pub(crate) const PRE: Examples = &[
    ("pre problem.dlx", "the problem without the options and items no solution needs, on stdout"),
    ("xc --preprocess problem.dlx", "solve through the smaller problem, printing the original options"),
];

pub(crate) const MERGE: Examples = &[
    ("merge part0.json part1.json part2.json part3.json", "the total of four shards' counts"),
    ("merge --format json parts/*.json", "the total, with the summed statistics"),
];

pub(crate) const COMPLETIONS: Examples = &[
    ("completions bash", "a completion script for bash (`source <(dlx completions bash)`)"),
    ("completions zsh", "one for zsh"),
];

pub(crate) const MAN: Examples = &[
    ("man", "the manual page of `dlx` on stdout"),
    ("man --output man", "a page for `dlx` and one for each command (`man -l man/dlx-solve.1`)"),
];

/// The examples as the end of a `--help`: `Examples:` and an indented line each.
pub(crate) fn help(examples: Examples) -> String {
    let width = examples.iter().map(|(line, _)| line.len()).filter(|&n| n <= 60).max().unwrap_or(0);
    let mut text = String::from("Examples:\n");
    for (line, what) in examples {
        if line.len() > 60 {
            text.push_str(&format!("  dlx {line}\n  {:width$}     # {what}\n", ""));
        } else {
            text.push_str(&format!("  dlx {line:width$}  # {what}\n"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// Every example parses as the command line it is.
    #[test]
    fn every_example_parses() {
        for examples in [SOLVE, COUNT, GENERATE, RATE, RENDER, XC, PRE, MERGE, COMPLETIONS, MAN] {
            for (line, _) in examples {
                let words = std::iter::once("dlx").chain(line.split_whitespace());
                if let Err(e) = crate::Cli::try_parse_from(words) {
                    panic!("dlx {line}: {e}");
                }
            }
        }
    }
}
