//! Counts of solutions of any size: [`Count`], exact however large, and the running total a
//! memoized search keeps past 2^128 (`Wide`).
//!
//! A count that fits in a `u128` (every count a search makes by visiting solutions, and most a
//! memo makes) is held as one, with no allocation; a larger one is an arbitrary-precision
//! integer (`num_bigint::BigUint`). Dominoes on 16x16 have about 2^101 tilings, on 4x200 about
//! 2^200, and the memo counts both: no count wraps or saturates.
//!
//! ```
//! use dlx_engine::Count;
//! let big: Count = "340282366920938463463374607431768211456".parse()?; // 2^128
//! assert_eq!(big.to_u128(), None);
//! let next = big.clone() + Count::from(1u64);
//! assert_eq!(next.to_string(), "340282366920938463463374607431768211457");
//! assert_eq!(Count::from(7u64), 7);
//! # Ok::<(), dlx_engine::ParseCountError>(())
//! ```

use std::fmt;
use std::ops::{Add, AddAssign};
use std::str::FromStr;

use num_bigint::BigUint;

/// A number of solutions, exact however large (see the module docs).
///
/// Compares with `u128` (`count == 5`), converts to one where it fits ([`to_u128`]), prints in
/// decimal and parses from it.
///
/// [`to_u128`]: Count::to_u128
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Count(Repr);

/// A count: `Big` only above `u128::MAX`, so that each value has one form (the derived order,
/// `Small` first, is then the numbers' order).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    Small(u128),
    Big(BigUint),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Small(0)
    }
}

impl Count {
    /// No solutions.
    pub const ZERO: Count = Count(Repr::Small(0));

    /// The count as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match &self.0 {
            Repr::Small(n) => Some(*n),
            Repr::Big(_) => None,
        }
    }

    /// The count as a `u64`, if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|n| u64::try_from(n).ok())
    }

    /// The count as the nearest `f64` (infinite past `f64::MAX`), for estimates and rates.
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            // (Rounded: an approximation is what is asked.)
            #[allow(clippy::cast_precision_loss)]
            Repr::Small(n) => *n as f64,
            Repr::Big(n) => n.to_string().parse().unwrap_or(f64::INFINITY),
        }
    }

    /// Whether the count is 0.
    pub fn is_zero(&self) -> bool {
        self.0 == Repr::Small(0)
    }

    /// The bits it takes: 0 for 0, 1 for 1, 129 for 2^128.
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Small(n) => u64::from(128 - n.leading_zeros()),
            Repr::Big(n) => n.bits(),
        }
    }

    /// `self - other`, or `None` when `other` is larger.
    pub fn checked_sub(&self, other: &Count) -> Option<Count> {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.checked_sub(*b).map(Count::from),
            (Repr::Small(_), Repr::Big(_)) => None,
            (Repr::Big(a), Repr::Small(b)) => Some(Count::from_big(a - BigUint::from(*b))),
            (Repr::Big(a), Repr::Big(b)) => (a >= b).then(|| Count::from_big(a - b)),
        }
    }

    /// The count whose low 128 bits are `low` and whose words above them are `high`, the least
    /// first.
    pub(crate) fn from_parts(low: u128, high: &[u64]) -> Count {
        if high.iter().all(|&h| h == 0) {
            return Count::from(low);
        }
        let mut n = BigUint::from(0u8);
        for &h in high.iter().rev() {
            n = (n << 64u32) | BigUint::from(h);
        }
        Count::from_big((n << 128u32) | BigUint::from(low))
    }

    /// A count below `self` (which is not 0) drawn uniformly by `rng`.
    pub(crate) fn random_below(&self, rng: &mut impl rand::Rng) -> Count {
        match &self.0 {
            Repr::Small(n) => Count::from(rng.random_range(0..*n)),
            Repr::Big(n) => {
                // Words of as many bits as `n`, drawn until below it: fewer than two draws on
                // average, each value below `n` as likely as every other.
                let bits = n.bits();
                let words = bits.div_ceil(64);
                let top = bits - 64 * (words - 1);
                loop {
                    let mut digits: Vec<u64> = (0..words).map(|_| rng.random()).collect();
                    if let Some(last) = digits.last_mut() {
                        *last &= u64::MAX >> (64 - top);
                    }
                    let (low, high) = (u128::from(digits[0]) | (u128::from(digits[1]) << 64), &digits[2..]);
                    let drawn = Count::from_parts(low, high);
                    if drawn < *self {
                        return drawn;
                    }
                }
            }
        }
    }

    /// A count from a `BigUint`, in its one form.
    fn from_big(n: BigUint) -> Count {
        match u128::try_from(&n) {
            Ok(small) => Count(Repr::Small(small)),
            Err(_) => Count(Repr::Big(n)),
        }
    }

    /// The count as a `BigUint`.
    fn to_big(&self) -> BigUint {
        match &self.0 {
            Repr::Small(n) => BigUint::from(*n),
            Repr::Big(n) => n.clone(),
        }
    }
}

impl From<u128> for Count {
    fn from(n: u128) -> Count {
        Count(Repr::Small(n))
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count(Repr::Small(u128::from(n)))
    }
}

impl From<u32> for Count {
    fn from(n: u32) -> Count {
        Count(Repr::Small(u128::from(n)))
    }
}

impl From<usize> for Count {
    fn from(n: usize) -> Count {
        // (A `usize` has at most 128 bits on every target Rust has.)
        Count(Repr::Small(n as u128))
    }
}

/// `TryFrom` a count, by reference and by value, for an integer that [`Count`]'s `$method`
/// gives.
macro_rules! try_from_count {
    ($($int:ty => $method:ident),*) => {$(
        impl TryFrom<&Count> for $int {
            type Error = TooLarge;
            fn try_from(count: &Count) -> Result<$int, TooLarge> {
                count.$method().ok_or(TooLarge)
            }
        }

        impl TryFrom<Count> for $int {
            type Error = TooLarge;
            fn try_from(count: Count) -> Result<$int, TooLarge> {
                count.$method().ok_or(TooLarge)
            }
        }
    )*};
}

try_from_count!(u128 => to_u128, u64 => to_u64);

/// A [`Count`] too large for the integer it was asked as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the count is too large for the integer asked for")]
pub struct TooLarge;

impl PartialEq<u128> for Count {
    fn eq(&self, other: &u128) -> bool {
        self.0 == Repr::Small(*other)
    }
}

impl PartialOrd<u128> for Count {
    fn partial_cmp(&self, other: &u128) -> Option<std::cmp::Ordering> {
        Some(match &self.0 {
            Repr::Small(n) => n.cmp(other),
            Repr::Big(_) => std::cmp::Ordering::Greater,
        })
    }
}

impl AddAssign<&Count> for Count {
    fn add_assign(&mut self, other: &Count) {
        if let (Repr::Small(a), Repr::Small(b)) = (&mut self.0, &other.0)
            && let Some(sum) = a.checked_add(*b)
        {
            *a = sum;
            return;
        }
        let sum = match (&self.0, &other.0) {
            (Repr::Big(a), b) | (b, Repr::Big(a)) => match b {
                Repr::Small(b) => a + BigUint::from(*b),
                Repr::Big(b) => a + b,
            },
            _ => self.to_big() + other.to_big(),
        };
        self.0 = Repr::Big(sum);
    }
}

impl AddAssign for Count {
    fn add_assign(&mut self, other: Count) {
        *self += &other;
    }
}

impl AddAssign<u128> for Count {
    fn add_assign(&mut self, other: u128) {
        *self += &Count::from(other);
    }
}

impl AddAssign<u64> for Count {
    fn add_assign(&mut self, other: u64) {
        *self += &Count::from(other);
    }
}

impl Add for Count {
    type Output = Count;
    fn add(mut self, other: Count) -> Count {
        self += &other;
        self
    }
}

impl Add<&Count> for Count {
    type Output = Count;
    fn add(mut self, other: &Count) -> Count {
        self += other;
        self
    }
}

impl std::iter::Sum for Count {
    fn sum<I: Iterator<Item = Count>>(iter: I) -> Count {
        iter.fold(Count::ZERO, |sum, c| sum + c)
    }
}

impl<'a> std::iter::Sum<&'a Count> for Count {
    fn sum<I: Iterator<Item = &'a Count>>(iter: I) -> Count {
        iter.fold(Count::ZERO, |sum, c| sum + c)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n) => fmt::Display::fmt(n, f),
            Repr::Big(n) => fmt::Display::fmt(n, f),
        }
    }
}

/// Text that is not a count: [`Count`]'s `from_str` takes decimal digits only.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a count (decimal digits only)")]
pub struct ParseCountError(String);

impl FromStr for Count {
    type Err = ParseCountError;
    fn from_str(text: &str) -> Result<Count, ParseCountError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseCountError(text.to_owned()));
        }
        match text.parse::<u128>() {
            Ok(n) => Ok(Count::from(n)),
            Err(_) => BigUint::parse_bytes(text.as_bytes(), 10)
                .map(Count::from_big)
                .ok_or_else(|| ParseCountError(text.to_owned())),
        }
    }
}

/// The running total of a memoized count, past the `u128` the search adds to: the search keeps
/// the low 128 bits (adding with [`add`](Self::add)) and this the words above, with each open
/// level's words on entering it ([`mark`](Self::mark)), so that a level's own count
/// ([`since`](Self::since)) is the difference however large. Until the total passes 2^128 it
/// holds no words, and a mark costs nothing.
#[derive(Debug, Default)]
pub(crate) struct Wide {
    /// The words above the low 128 bits, the least first.
    high: Vec<u64>,
    /// Each level's `high` on entering it, `stride` words a level (`high` padded with 0).
    marks: Vec<u64>,
    stride: usize,
    /// Levels `marks` has room for.
    depth: usize,
}

impl Wide {
    /// A total of 0, for a search of up to `depth` levels.
    pub(crate) fn start(&mut self, depth: usize) {
        self.high.clear();
        self.stride = 0;
        self.marks.clear();
        self.depth = depth;
    }

    /// Adds `count` (low 128 bits) and `high` (the words above) to the total whose low bits are
    /// `low`.
    #[inline]
    pub(crate) fn add(&mut self, low: &mut u128, count: u128, high: Option<&[u64]>) {
        let (sum, carry) = low.overflowing_add(count);
        *low = sum;
        if carry {
            self.add_high(&[1]);
        }
        if let Some(high) = high {
            self.add_high(high);
        }
    }

    /// Adds `words` (the least first) to the high words.
    #[cold]
    fn add_high(&mut self, words: &[u64]) {
        if self.high.len() < words.len() + 1 {
            self.high.resize(words.len() + 1, 0);
        }
        let mut carry = false;
        for (k, h) in self.high.iter_mut().enumerate() {
            let w = words.get(k).copied().unwrap_or(0);
            let (s1, c1) = h.overflowing_add(w);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *h = s2;
            carry = c1 || c2;
        }
        if carry {
            self.high.push(1);
        }
        while self.high.last() == Some(&0) {
            self.high.pop();
        }
        if self.high.len() > self.stride {
            // Room for the new words in every level's mark, padded with 0 (the marks made
            // before held none there).
            let stride = self.high.len().max(2 * self.stride);
            let mut marks = vec![0; self.depth * stride];
            if self.stride != 0 {
                for (new, old) in marks.chunks_exact_mut(stride).zip(self.marks.chunks_exact(self.stride)) {
                    new[..self.stride].copy_from_slice(old);
                }
            }
            self.marks = marks;
            self.stride = stride;
        }
    }

    /// Notes the high words on entering level `l`.
    #[inline]
    pub(crate) fn mark(&mut self, l: usize) {
        if self.stride != 0 {
            let mark = &mut self.marks[l * self.stride..(l + 1) * self.stride];
            mark.fill(0);
            mark[..self.high.len()].copy_from_slice(&self.high);
        }
    }

    /// The count of level `l`, marked when the total's low bits were `then` (now `now`): its low
    /// 128 bits, and the words above them if there are any.
    #[inline]
    pub(crate) fn since(&self, l: usize, now: u128, then: u128) -> (u128, Option<Box<[u64]>>) {
        let low = now.wrapping_sub(then);
        if self.stride == 0 {
            return (low, None);
        }
        self.since_high(l, now < then).map_or((low, None), |high| (low, Some(high)))
    }

    /// The high words of level `l`'s count, less `borrow` (`None` when they are all 0).
    #[cold]
    fn since_high(&self, l: usize, borrow: bool) -> Option<Box<[u64]>> {
        let mark = &self.marks[l * self.stride..(l + 1) * self.stride];
        let mut borrow = borrow;
        let mut words: Vec<u64> = (0..self.stride)
            .map(|k| {
                let h = self.high.get(k).copied().unwrap_or(0);
                let (d1, b1) = h.overflowing_sub(mark[k]);
                let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
                borrow = b1 || b2;
                d2
            })
            .collect();
        debug_assert!(!borrow, "a level's count is not negative");
        while words.last() == Some(&0) {
            words.pop();
        }
        (!words.is_empty()).then(|| words.into_boxed_slice())
    }

    /// The total whose low bits are `low`.
    pub(crate) fn total(&self, low: u128) -> Count {
        Count::from_parts(low, &self.high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums past 2^128 through the running total agree with `BigUint`'s; each level's count is
    /// the difference of the totals however the words grew between.
    #[test]
    fn wide_totals_agree_with_big_integers() {
        let mut wide = Wide::default();
        wide.start(4);
        let mut low = 0u128;
        let mut expected = BigUint::from(0u8);
        let step = u128::MAX - 12345;
        wide.mark(0);
        let then0 = low;
        for k in 0..5u32 {
            wide.add(&mut low, step, None);
            expected += BigUint::from(step);
            if k == 2 {
                wide.mark(1);
            }
        }
        let big = [7u64, u64::MAX, 3];
        wide.add(&mut low, 9, Some(&big));
        expected += BigUint::from(9u8) + (BigUint::new(vec![7, 0, u32::MAX, u32::MAX, 3, 0]) << 128u32);
        assert_eq!(wide.total(low).to_string(), expected.to_string());
        let (l0, h0) = wide.since(0, low, then0);
        assert_eq!(Count::from_parts(l0, h0.as_deref().unwrap_or(&[])).to_string(), expected.to_string());
        // Level 1 was entered after three steps (its mark's high words are those then).
        let mut at1 = BigUint::from(0u8);
        for _ in 0..3 {
            at1 += BigUint::from(step);
        }
        let then1 = u128::try_from(&at1 & BigUint::from(u128::MAX)).unwrap();
        let (l1, h1) = wide.since(1, low, then1);
        assert_eq!(
            Count::from_parts(l1, h1.as_deref().unwrap_or(&[])).to_string(),
            (expected - at1).to_string()
        );
    }

    /// Counts print, parse, add, subtract, compare and draw below as the numbers do.
    #[test]
    fn counts_are_numbers() {
        let two128: Count = "340282366920938463463374607431768211456".parse().unwrap();
        assert_eq!(two128.bits(), 129);
        assert_eq!(Count::from(u128::MAX) + Count::from(1u64), two128);
        assert!(two128 > Count::from(u128::MAX - 1) + Count::from(1u64));
        assert!(two128 > u128::MAX);
        assert_eq!(two128.checked_sub(&Count::from(1u64)), Some(Count::from(u128::MAX)));
        assert_eq!(Count::from(3u64).checked_sub(&two128), None);
        assert_eq!(Count::from_parts(5, &[0, 0]), 5);
        assert_eq!(Count::from_parts(0, &[1]), two128);
        assert_eq!(
            (u64::try_from(&Count::from(5u64)), u128::try_from(two128.clone())),
            (Ok(5), Err(TooLarge))
        );
        assert_eq!(u64::try_from(Count::from(u128::from(u64::MAX) + 1)), Err(TooLarge));
        assert!("12a".parse::<Count>().is_err() && "".parse::<Count>().is_err());
        assert_eq!("007".parse::<Count>(), Ok(Count::from(7u64)));
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(1);
        let bound = two128.clone() + Count::from(10u64);
        let mut high = 0;
        for _ in 0..200 {
            let r = bound.random_below(&mut rng);
            assert!(r < bound);
            high += usize::from(r.to_u128().is_none_or(|r| r >= 1 << 127));
        }
        assert!((60..140).contains(&high), "{high}");
    }
}
