//! The names of rules, as `dlx --rules` and Python's `rules=` take them: the classic rules, a rule
//! added to them, the even marks of 81-cell lines, and the rules a generator makes up for each
//! puzzle; and what a list of them asks for ([`NamedRules`]), the one reading of the list that
//! every front end shares.

use std::fmt;

use crate::model::Constraint;
use crate::model::variant::{UnknownName, Variant};

/// A rule's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RuleName {
    /// Rows, columns and boxes: nothing added.
    Classic,
    /// A rule added to rows, columns and boxes.
    Add(Constraint),
    /// The even-cell variant: `e` marks in 81-cell lines.
    Even,
    /// Jigsaw regions made up for each puzzle (a generator's; a puzzle read has its own).
    Jigsaw,
    /// Killer cages made up for each puzzle (a generator's).
    Killer,
    /// Even and odd marks made up for each puzzle (a generator's).
    OddEven,
}

impl RuleName {
    /// Every name, in the order help lists them: those a reader takes ([`RuleName::READ`]), then
    /// the rules made up for each puzzle.
    pub const ALL: [RuleName; 9] = [
        RuleName::Classic,
        RuleName::Add(Constraint::Diagonals),
        RuleName::Add(Constraint::Windows),
        RuleName::Add(Constraint::AntiKing),
        RuleName::Add(Constraint::AntiKnight),
        RuleName::Even,
        RuleName::Jigsaw,
        RuleName::Killer,
        RuleName::OddEven,
    ];

    /// The names that add rules to puzzles read: those of [`RuleName::ALL`] that are not
    /// [made up](RuleName::is_made_up) for each puzzle.
    pub const READ: [RuleName; 6] = {
        let mut read = [RuleName::Classic; 6];
        let mut k = 0;
        while k < read.len() {
            read[k] = RuleName::ALL[k];
            k += 1;
        }
        read
    };

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            RuleName::Classic => "classic",
            RuleName::Add(c) => c.name(),
            RuleName::Even => "even",
            RuleName::Jigsaw => "jigsaw",
            RuleName::Killer => "killer",
            RuleName::OddEven => "odd-even",
        }
    }

    /// What the rule is, in a line.
    pub fn description(self) -> &'static str {
        match self {
            RuleName::Classic => "Rows, columns and boxes only (nothing added)",
            RuleName::Add(c) => c.description(),
            RuleName::Even => Variant::Even.description(),
            RuleName::Jigsaw => "Jigsaw regions instead of boxes, made up for each puzzle",
            RuleName::Killer => "Killer cages (2 to 4 cells, with their sums), made up for each puzzle",
            RuleName::OddEven => {
                "Even and odd marks on about a quarter of the cells, made up for each puzzle"
            }
        }
    }

    /// Whether the rule is made up for each puzzle by a generator (a puzzle read carries its own
    /// regions, cages and marks in its fields).
    pub fn is_made_up(self) -> bool {
        matches!(self, RuleName::Jigsaw | RuleName::Killer | RuleName::OddEven)
    }
}

impl fmt::Display for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for RuleName {
    type Err = UnknownName;

    /// A name of [`RuleName::ALL`], or an older spelling of one: `diagonals`, `windows`,
    /// `hyper`.
    fn from_str(s: &str) -> Result<RuleName, UnknownName> {
        if let Some(name) = RuleName::ALL.into_iter().find(|n| n.name() == s) {
            return Ok(name);
        }
        s.parse::<Constraint>()
            .map(RuleName::Add)
            .map_err(|_| UnknownName::new("rule", s, RuleName::ALL.map(RuleName::name)))
    }
}

/// What a list of rule names asks for: a 9x9 variant to read and write puzzles as (one name that
/// is a variant's, or `even`), the rules added to every puzzle, and the rules made up for each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamedRules {
    /// The variant the puzzles are read and written as, if the list names one.
    pub variant: Option<Variant>,
    /// The rules added to every puzzle, each once, in the order named.
    pub constraints: Vec<Constraint>,
    /// Jigsaw regions made up for each puzzle.
    pub jigsaw: bool,
    /// Killer cages made up for each puzzle.
    pub killer: bool,
    /// Even and odd marks made up for each puzzle.
    pub parity: bool,
}

impl NamedRules {
    /// What `names` ask for. One name that is a 9x9 variant's (`classic`, `diagonal`, `windoku`,
    /// `anti-king`) is that variant, as a `# variant:` line says it; `even` is the even-cell
    /// variant whatever else is named; other rules named are added to every puzzle.
    ///
    /// ```
    /// use dlx_sudoku::{Constraint, NamedRules, RuleName, Variant};
    /// let one = NamedRules::of(["diagonal".parse::<RuleName>().unwrap()]);
    /// assert_eq!(one.variant, Some(Variant::Diagonal));
    /// let names = NamedRules::parse("diagonal,anti-knight").unwrap();
    /// assert_eq!(names.constraints, [Constraint::Diagonals, Constraint::AntiKnight]);
    /// assert_eq!(names.variant, None);
    /// ```
    pub fn of(names: impl IntoIterator<Item = RuleName>) -> NamedRules {
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
                RuleName::OddEven => named.parity = true,
            }
            listed.push(name);
        }
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

    /// [`NamedRules::of`] the names of a list separated by commas or spaces.
    pub fn parse(list: &str) -> Result<NamedRules, UnknownName> {
        let names = list.split([',', ' ']).filter(|n| !n.is_empty()).map(str::parse);
        Ok(NamedRules::of(names.collect::<Result<Vec<RuleName>, _>>()?))
    }

    /// Whether the list names rules made up for each puzzle (which only a generator takes).
    pub fn makes_up(&self) -> bool {
        self.jigsaw || self.killer || self.parity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name reads back as itself, the older spellings as the rules they name, and others
    /// are refused with the name.
    #[test]
    fn names_read_back() {
        for name in RuleName::ALL {
            assert_eq!(name.name().parse::<RuleName>(), Ok(name));
            assert_eq!(RuleName::READ.contains(&name), !name.is_made_up(), "{name}");
        }
        assert_eq!("hyper".parse::<RuleName>(), Ok(RuleName::Add(Constraint::Windows)));
        assert_eq!("windows".parse::<RuleName>(), Ok(RuleName::Add(Constraint::Windows)));
        assert_eq!("diagonals".parse::<RuleName>(), Ok(RuleName::Add(Constraint::Diagonals)));
        assert!(
            "anti-queen"
                .parse::<RuleName>()
                .unwrap_err()
                .to_string()
                .starts_with("unknown rule `anti-queen` (known: classic, diagonal,")
        );
        let slip = "kiler".parse::<RuleName>().unwrap_err();
        assert!(slip.to_string().ends_with("; did you mean `killer`?)"), "{slip}");
        assert_eq!("zzz".parse::<RuleName>().unwrap_err().suggestion(), None, "no name is near");
    }

    /// One name of a 9x9 variant is that variant; `even` is the even-cell variant beside others;
    /// rules named twice are added once; the rules made up for each puzzle are flags.
    #[test]
    fn a_list_asks_for_what_it_names() {
        let of = |list: &str| NamedRules::parse(list).unwrap();
        for (list, variant) in [
            ("classic", Variant::Classic),
            ("diagonal", Variant::Diagonal),
            ("windoku", Variant::Windoku),
            ("anti-king", Variant::AntiKing),
            ("even", Variant::Even),
        ] {
            assert_eq!(of(list), NamedRules { variant: Some(variant), ..NamedRules::default() }, "{list}");
        }
        assert_eq!(of("anti-knight").variant, None);
        assert_eq!(of("anti-knight").constraints, [Constraint::AntiKnight]);
        let both = of("diagonal, windoku,diagonal");
        assert_eq!(
            (both.variant, both.constraints),
            (None, vec![Constraint::Diagonals, Constraint::Windows])
        );
        let even = of("even,diagonal");
        assert_eq!((even.variant, even.constraints), (Some(Variant::Even), vec![Constraint::Diagonals]));
        let made = of("killer,jigsaw");
        assert!(made.killer && made.jigsaw && !made.parity && made.makes_up());
        assert!(!of("classic").makes_up());
        assert_eq!(NamedRules::parse("diagonal,nope").unwrap_err().name, "nope");
    }
}
