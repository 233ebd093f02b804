//! Command-line values taken from the libraries' own types: their names, descriptions and lists
//! of every value, so that the command line cannot drift from the libraries.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Command};
use dlx_engine::{Memo, TieBreak};
use dlx_sudoku::{Constraint, Level, Paper, Symmetry, Variant};

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

choice!(Symmetry, Level, TieBreak, Memo, Paper);

/// A rule named on the command line (`--rules`, also spelt `--variant` and `--constraint`): the
/// classic rules, a rule added to them, the even marks of 81-cell lines, or (for `generate`)
/// rules made up for each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuleName {
    /// Rows, columns and boxes: nothing added.
    Classic,
    /// A rule added to rows, columns and boxes.
    Add(Constraint),
    /// The even-cell variant: `e` marks in 81-cell lines.
    Even,
    /// Jigsaw regions made up for each puzzle.
    Jigsaw,
    /// Killer cages made up for each puzzle.
    Killer,
    /// Even and odd marks made up for each puzzle.
    Parity,
}

impl RuleName {
    fn name(self) -> &'static str {
        match self {
            RuleName::Classic => "classic",
            RuleName::Add(c) => c.name(),
            RuleName::Even => "even",
            RuleName::Jigsaw => "jigsaw",
            RuleName::Killer => "killer",
            RuleName::Parity => "odd-even",
        }
    }

    fn help(self) -> &'static str {
        match self {
            RuleName::Classic => "Rows, columns and boxes only (nothing added)",
            RuleName::Add(c) => c.description(),
            RuleName::Even => Variant::Even.description(),
            RuleName::Jigsaw => "Jigsaw regions instead of boxes, made up for each puzzle",
            RuleName::Killer => "Killer cages (2 to 4 cells, with their sums), made up for each puzzle",
            RuleName::Parity => "Even and odd marks on about a quarter of the cells, made up for each puzzle",
        }
    }
}

/// A rule the commands that read puzzles take: the classic rules, a rule added, or even marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadRule(pub(crate) RuleName);

/// A rule `generate` takes: one of [`ReadRule`]'s, or rules made up for each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MadeRule(pub(crate) RuleName);

const ADDED: [RuleName; 4] = [
    RuleName::Add(Constraint::Diagonals),
    RuleName::Add(Constraint::Windows),
    RuleName::Add(Constraint::AntiKing),
    RuleName::Add(Constraint::AntiKnight),
];

impl Choice for ReadRule {
    const ALL: &'static [Self] = &[
        ReadRule(RuleName::Classic),
        ReadRule(ADDED[0]),
        ReadRule(ADDED[1]),
        ReadRule(ADDED[2]),
        ReadRule(ADDED[3]),
        ReadRule(RuleName::Even),
    ];

    fn name(self) -> &'static str {
        self.0.name()
    }

    fn help(self) -> &'static str {
        self.0.help()
    }
}

impl Choice for MadeRule {
    const ALL: &'static [Self] = &[
        MadeRule(RuleName::Classic),
        MadeRule(ADDED[0]),
        MadeRule(ADDED[1]),
        MadeRule(ADDED[2]),
        MadeRule(ADDED[3]),
        MadeRule(RuleName::Even),
        MadeRule(RuleName::Jigsaw),
        MadeRule(RuleName::Killer),
        MadeRule(RuleName::Parity),
    ];

    fn name(self) -> &'static str {
        self.0.name()
    }

    fn help(self) -> &'static str {
        self.0.help()
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

/// What a list of rule names asks: a 9x9 variant to read and write puzzles as (one name that
/// is a variant's, or `even`), the rules added to every puzzle, and the rules made up for each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NamedRules {
    pub(crate) variant: Option<Variant>,
    pub(crate) constraints: Vec<Constraint>,
    pub(crate) jigsaw: bool,
    pub(crate) killer: bool,
    pub(crate) parity: bool,
}

impl NamedRules {
    /// The rules `names` ask for.
    pub(crate) fn of(names: impl IntoIterator<Item = RuleName>) -> NamedRules {
        let mut named = NamedRules::default();
        let mut listed = Vec::new();
        for name in names {
            match name {
                RuleName::Classic => {}
                RuleName::Add(c) => {
                    if !named.constraints.contains(&c) {
                        named.constraints.push(c);
                    }
                }
                RuleName::Even => named.variant = Some(Variant::Even),
                RuleName::Jigsaw => named.jigsaw = true,
                RuleName::Killer => named.killer = true,
                RuleName::Parity => named.parity = true,
            }
            listed.push(name);
        }
        // One name that is a 9x9 variant's: that variant, as `# variant:` lines say it.
        if let [one] = listed[..] {
            named.variant = match one {
                RuleName::Classic => Some(Variant::Classic),
                RuleName::Add(Constraint::Diagonals) => Some(Variant::Diagonal),
                RuleName::Add(Constraint::Windows) => Some(Variant::Windoku),
                RuleName::Add(Constraint::AntiKing) => Some(Variant::AntiKing),
                _ => named.variant,
            };
            if named.variant.is_some() {
                named.constraints.clear();
            }
        }
        named
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
