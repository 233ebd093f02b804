//! The scans of lengths compiled for x86-64 processors with SSE4.1, chosen at run time.
//!
//! Baseline x86-64 (SSE2) has no unsigned minimum of 32-bit lanes, so the portable build compares
//! one length at a time, and the compiler's own vectorization of it mixes scalar and vector
//! loads. Here each chunk of 32 lengths is eight loads, seven unsigned minima (`pminud`) and a
//! test for a lane below the best so far (one more minimum, against `best - 1`); only a chunk
//! that has one is reduced to its least length and searched for the first lane holding it, by a
//! mask of equal lanes. The lengths left over go by 16, then one at a time. (The gains against
//! the portable scan, and of 32 lanes against 16 and 64, are in `benches/RESULTS.md`.)
//!
//! The code itself is safe: within a function compiled for SSE4.1 its intrinsics are, and the
//! lanes are built from array elements, not loaded through pointers. The one `unsafe` step, in
//! this module only, is to call such a function, which is sound once the processor is known to
//! have SSE4.1: each call stands right after that check (`is_x86_feature_detected!` caches its
//! answer: an atomic load and a bit test).

#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m128i, _mm_cmpeq_epi32, _mm_cvtsi128_si32, _mm_min_epu32, _mm_movemask_epi8, _mm_packs_epi16,
    _mm_packs_epi32, _mm_set1_epi32, _mm_setr_epi32, _mm_shuffle_epi32, _mm_sub_epi32,
};

use super::{COVERED, least_with_rest};

/// [`super::least_position`] with SSE4.1, or `None` when the processor lacks it.
#[inline(always)]
pub(super) fn least_position(lens: &[u32]) -> Option<Option<usize>> {
    if std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: the processor has SSE4.1, as checked just above.
        return Some(unsafe { least_position_sse41(lens) });
    }
    None
}

/// The least length below [`COVERED`] ([`COVERED`] when there is none), with SSE4.1, or `None`
/// when the processor lacks it.
#[inline(always)]
pub(super) fn least_length(lens: &[u32]) -> Option<u32> {
    if std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: the processor has SSE4.1, as checked just above.
        return Some(unsafe { least_length_sse41(lens) });
    }
    None
}

/// A fold the compiler vectorizes with `pminud` when compiled for SSE4.1.
#[target_feature(enable = "sse4.1")]
fn least_length_sse41(lens: &[u32]) -> u32 {
    lens.iter().fold(COVERED, |m, &len| m.min(len))
}

#[target_feature(enable = "sse4.1")]
fn least_position_sse41(lens: &[u32]) -> Option<usize> {
    let mut scan = Scan::new();
    let (wide, rest) = lens.as_chunks::<32>();
    if let Some(k) = scan.chunks(wide, 0) {
        return Some(k);
    }
    let (narrow, rest) = rest.as_chunks::<16>();
    if let Some(k) = scan.chunks(narrow, 32 * wide.len()) {
        return Some(k);
    }
    least_with_rest(lens, rest, scan.best, scan.chosen)
}

/// A scan in progress: the least length so far (`best`, [`COVERED`] before any), `best - 1` in
/// every lane, and where the first least length is.
struct Scan {
    best: u32,
    below: __m128i,
    chosen: Option<usize>,
}

/// Lanes `4k..4k + 4` of `chunk`.
#[target_feature(enable = "sse4.1")]
#[inline]
fn quad<const W: usize>(chunk: &[u32; W], k: usize) -> __m128i {
    let lane = |j: usize| chunk[4 * k + j].cast_signed();
    _mm_setr_epi32(lane(0), lane(1), lane(2), lane(3))
}

impl Scan {
    #[target_feature(enable = "sse4.1")]
    #[inline]
    fn new() -> Scan {
        Scan { best: COVERED, below: _mm_set1_epi32((COVERED - 1).cast_signed()), chosen: None }
    }

    /// Scans `chunks` of `W` lengths (16, 32, 48 or 64), the first at position `start`; returns the
    /// position of the first length of 1 or less, where the scan stops.
    #[target_feature(enable = "sse4.1")]
    #[inline]
    fn chunks<const W: usize>(&mut self, chunks: &[[u32; W]], start: usize) -> Option<usize> {
        const { assert!(W > 0 && W <= 64 && W.is_multiple_of(16), "1 to 4 groups of 16 lanes") };
        for (c, chunk) in chunks.iter().enumerate() {
            let mut least = quad(chunk, 0);
            for k in 1..W / 4 {
                least = _mm_min_epu32(least, quad(chunk, k));
            }
            // Most chunks hold nothing shorter than the best so far: find that out with one more
            // minimum (against `best - 1` in every lane) and a comparison.
            let shorter = _mm_cmpeq_epi32(_mm_min_epu32(least, self.below), least);
            if _mm_movemask_epi8(shorter) == 0 {
                continue;
            }
            // Every lane becomes the least of the chunk.
            least = _mm_min_epu32(least, _mm_shuffle_epi32::<0b0100_1110>(least));
            least = _mm_min_epu32(least, _mm_shuffle_epi32::<0b1011_0001>(least));
            let len = _mm_cvtsi128_si32(least).cast_unsigned();
            // Bit `k` set for each lane `k` equal to the least.
            let mut mask = 0u64;
            for g in 0..W / 16 {
                let equal = |k: usize| _mm_cmpeq_epi32(quad(chunk, 4 * g + k), least);
                let low = _mm_packs_epi32(equal(0), equal(1));
                let high = _mm_packs_epi32(equal(2), equal(3));
                let lanes = _mm_movemask_epi8(_mm_packs_epi16(low, high)).cast_unsigned();
                mask |= u64::from(lanes) << (16 * g);
            }
            let k = start + c * W + mask.trailing_zeros() as usize;
            self.chosen = Some(k);
            if len <= 1 {
                return Some(k);
            }
            self.best = len;
            self.below = _mm_sub_epi32(least, _mm_set1_epi32(1));
        }
        None
    }
}
