//! Command-line values taken from the libraries' own types: their names, descriptions and lists
//! of every value, so that the command line cannot drift from the libraries.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use dlx_engine::TieBreak;
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

/// A clap parser accepting the names of `T`'s values, with their help.
pub(crate) fn parser<T: Choice>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|&value| PossibleValue::new(value.name()).help(value.help())))
        .map(|name| T::ALL.iter().copied().find(|value| value.name() == name).expect("a possible value"))
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

choice!(Variant, Symmetry, Level, TieBreak, Paper, Constraint);
