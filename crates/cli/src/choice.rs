//! Command-line values taken from the libraries' own types: their names, descriptions and lists
//! of every value, so that the command line cannot drift from the libraries.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Command};
use dlx_engine::{Branching, Memo, TieBreak};
use dlx_sudoku::{Level, NamedRules, Paper, RuleName, Symmetry};

/// A library type whose values the command line names.
pub(crate) trait Choice: Copy + Send + Sync + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];

    /// The value's name on the command line.
    fn name(self) -> &'static str;

    /// The value's help.
    fn help(self) -> &'static str;
}

/// A clap parser accepting the names of `T`'s values, with their help; a name of rules that
/// another flag or the input gives (`solve --rules jigsaw`) is refused with a pointer to it.
pub(crate) fn parser<T: Choice>() -> Named<T> {
    Named(std::marker::PhantomData)
}

/// See [`parser`].
#[derive(Clone, Debug)]
pub(crate) struct Named<T>(std::marker::PhantomData<T>);

impl<T: Choice> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let name = value.to_string_lossy();
        if let Some(found) = T::ALL.iter().copied().find(|v| v.name() == name) {
            return Ok(found);
        }
        let flag = arg.map_or_else(String::new, |a| format!(" for '{a}'"));
        let listed: Vec<_> = T::ALL.iter().map(|v| v.name()).collect();
        let hint = elsewhere(&name, cmd.get_name() == "generate")
            .map(|h| format!("\n  tip: {h}"))
            .unwrap_or_default();
        let message =
            format!("invalid value '{name}'{flag}\n  [possible values: {}]{hint}\n", listed.join(", "));
        Err(clap::Error::raw(ErrorKind::InvalidValue, message).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::ALL.iter().map(|&value| PossibleValue::new(value.name()).help(value.help()))))
    }
}

macro_rules! choice {
    ($($type:ty),*) => {$(
        impl Choice for $type {
            const ALL: &'static [Self] = &<$type>::ALL;

            fn name(self) -> &'static str {
                <$type>::name(self)
            }

            fn help(self) -> &'static str {
                <$type>::description(self)
            }
        }
    )*};
}

choice!(Symmetry, Level, TieBreak, Branching, Memo, Paper);

/// A rule the commands that read puzzles take: the classic rules, a rule added, or even marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadRule(pub(crate) RuleName);

/// A rule `generate` takes: one of [`ReadRule`]'s, or rules made up for each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MadeRule(pub(crate) RuleName);

/// Each of `names` wrapped as `wrap` does, in a constant (the rules' lists are the library's:
/// a rule it adds is offered here with no change).
macro_rules! wrapped {
    ($wrap:ident, $names:expr) => {{
        const N: usize = $names.len();
        let mut all = [$wrap($names[0]); N];
        let mut k = 0;
        while k < N {
            all[k] = $wrap($names[k]);
            k += 1;
        }
        all
    }};
}

impl Choice for ReadRule {
    const ALL: &'static [Self] = &wrapped!(ReadRule, RuleName::READ);

    fn name(self) -> &'static str {
        self.0.name()
    }

    fn help(self) -> &'static str {
        self.0.description()
    }
}

impl Choice for MadeRule {
    const ALL: &'static [Self] = &wrapped!(MadeRule, RuleName::ALL);

    fn name(self) -> &'static str {
        self.0.name()
    }

    fn help(self) -> &'static str {
        self.0.description()
    }
}

/// `--rules` of the commands that read puzzles.
#[derive(Debug, clap::Args)]
pub(crate) struct ReadRules {
    /// Add rules to every puzzle (a comma-separated list).
    ///
    /// Rules added to every puzzle's own (repeat or separate with commas): diagonal, windoku,
    /// anti-king, anti-knight, even (cells marked `e` in 81-cell lines hold even digits), classic
    /// (nothing added) [default: what the input says: a `# variant: NAME` line above the puzzle,
    /// a line's `variant=` field, a JSON record's "variant"]. A line may also carry `regions=` (a
    /// jigsaw map), `marks=` (`e` even, `o` odd) and `cage=SUM:r1c1,r1c2` (killer). `--variant`
    /// and `--constraint` are older names of this option.
    #[arg(
        long,
        visible_aliases = ["variant", "constraint"],
        value_name = "NAME",
        value_delimiter = ',',
        value_parser = parser::<ReadRule>()
    )]
    rules: Vec<ReadRule>,
}

impl ReadRules {
    /// What the names ask.
    pub(crate) fn named(&self) -> NamedRules {
        NamedRules::of(self.rules.iter().map(|r| r.0))
    }
}

/// Where rules that a flag does not name are given instead: to `dlx generate` (`generating`),
/// or to the commands that read puzzles.
fn elsewhere(name: &str, generating: bool) -> Option<&'static str> {
    Some(match (name, generating) {
        ("parity" | "odd", true) => "for odd and even marks, give --rules odd-even (or --parity)",
        ("jigsaw", false) => {
            "jigsaw regions come with each puzzle (a `regions=` field on its line, or a JSON \
             record's); `dlx generate --rules jigsaw` makes jigsaw puzzles"
        }
        ("killer", false) => {
            "killer cages come with each puzzle (`cage=SUM:r1c1,r1c2` fields); `dlx generate \
             --rules killer` makes killer puzzles"
        }
        ("odd" | "parity" | "odd-even", false) => {
            "odd and even marks come with each puzzle (a `marks=` field); `dlx generate --rules \
             odd-even` makes such puzzles"
        }
        ("hyper", _) => "hyper sudoku is windoku: --rules windoku",
        ("x" | "diagonals" | "sudoku-x", _) => "both diagonals: --rules diagonal",
        _ => return None,
    })
}

/// A clap parser for a count of at least 1 (`--limit`, `--max-attempts`, `--per-page`): 0 is
/// refused with a sentence, not a range.
pub(crate) fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

/// A clap parser for `--threads`: from 1 to [`MAX_THREADS`](crate::report::MAX_THREADS).
pub(crate) fn threads(text: &str) -> Result<u64, String> {
    let max = crate::report::MAX_THREADS;
    match at_least_one(text)? {
        n if n > max => Err(format!("at most {max} threads")),
        n => Ok(n),
    }
}
