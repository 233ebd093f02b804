//! The search on bit sets compiled a second time for x86-64 processors of the x86-64-v3 level
//! (AVX2, BMI1 and BMI2, LZCNT, POPCNT), chosen at run time.
//!
//! The search counts the bits of words (the cleansings of a purification, the nodes of an option
//! at purified items) and finds their lowest set bits (each hidden option) at every node.
//! Baseline x86-64 has no instruction for the first, which the compiler then writes as a dozen
//! shifts, masks and adds, and its instruction for the second needs a test for a zero word that
//! TZCNT does not; with AVX2 the compiler may also copy and compare a level's state 32 bytes at
//! a time, where SSE2 goes by 16. (The gains, on plain and colored problems, are in
//! `benches/RESULTS.md`.)
//!
//! The code compiled here is the portable search itself, [`super::search_as`], inlined into a
//! function that carries the features. The one `unsafe` step, in this module only, is to call
//! that function, which is sound once the processor is known to have every feature it is
//! compiled with: the call stands right after that check (`is_x86_feature_detected!` caches its
//! answer).

use crate::links::Links;
use crate::problem::Problem;
use crate::settings::{Stats, StopReason};

use super::{Limits, Memory, Priced, PricedRun, Show, Stack, Tables};
use crate::choose::rules::Rule;

/// Whether the processor has every feature [`search_v3`] is compiled with.
#[inline(always)]
pub(super) fn has_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// [`super::search_as`] compiled with the x86-64-v3 features. Panics unless the processor has
/// them ([`has_v3`]): callers check first, so the check here costs one more cached test a run.
#[inline(always)]
pub(super) fn search_as<
    const W: usize,
    const LW: usize,
    const VISIT: bool,
    const COLORED: bool,
    const MEMO: bool,
>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    limits: (&Limits<'_>, &mut Show<'_>, Option<&mut dyn Rule>),
    memo: Option<Memory<'_>>,
    stats: &mut Stats,
) -> Result<bool, StopReason> {
    assert!(has_v3(), "the processor has the x86-64-v3 features");
    // SAFETY: the processor has every feature `search_v3` is compiled with, as checked just
    // above.
    unsafe { search_v3::<W, LW, VISIT, COLORED, MEMO>(tables, problem, links, stack, limits, memo, stats) }
}

#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn search_v3<const W: usize, const LW: usize, const VISIT: bool, const COLORED: bool, const MEMO: bool>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    limits: (&Limits<'_>, &mut Show<'_>, Option<&mut dyn Rule>),
    memo: Option<Memory<'_>>,
    stats: &mut Stats,
) -> Result<bool, StopReason> {
    super::search_as::<W, LW, VISIT, COLORED, MEMO>(tables, problem, links, stack, limits, memo, stats)
}

/// [`Priced::search_as`] compiled with the x86-64-v3 features (the cheapest solutions on bit
/// sets). Panics unless the processor has them ([`has_v3`]).
#[inline(always)]
pub(super) fn priced(priced: &Priced, run: PricedRun<'_>) -> (u64, u64, Option<StopReason>) {
    assert!(has_v3(), "the processor has the x86-64-v3 features");
    // SAFETY: the processor has every feature `priced_v3` is compiled with, as checked just
    // above.
    unsafe { priced_v3(priced, run) }
}

#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn priced_v3(priced: &Priced, run: PricedRun<'_>) -> (u64, u64, Option<StopReason>) {
    priced.search_as(run)
}
