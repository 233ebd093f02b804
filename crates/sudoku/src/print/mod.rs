//! Pictures of puzzles, one drawing for every size and rule set (`draw`): grids side by side for
//! screens ([`PageWriter`], [`to_svg`]), pages of paper ([`print_page`] on a [`Layout`]), and
//! with the `pdf` feature (on by default) the [`Printer`] that turns pages into one PDF document
//! or PNG images.
//!
//! The documents are SVG, written as text; the printer reads them with `usvg`, draws them with
//! `resvg` (PNG) or converts them with `svg2pdf`, in the DejaVu Sans font it carries, so that a
//! page prints the same on every machine, fonts installed or not.

mod draw;
mod paper;
#[cfg(feature = "pdf")]
mod printer;
mod screen;

pub use paper::{Entry, Layout, Paper, print_page};
#[cfg(feature = "pdf")]
pub use printer::{Image, Pdf, PrintError, Printer};
pub use screen::{PageWriter, page, to_svg};
