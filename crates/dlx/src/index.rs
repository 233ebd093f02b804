//! Small `u32` index newtypes.
//!
//! Every index in the engine is a `u32` inside a `#[repr(transparent)]` newtype. They are built
//! only through checked constructors, so no silent `as` truncation can turn a large index into a
//! wrong one.

// A `u32` always fits in a `usize` on the platforms this crate supports.
const _: () = assert!(usize::BITS >= 32, "dlx-engine needs a usize of at least 32 bits");

macro_rules! index_type {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        $vis struct $name(u32);

        impl $name {
            /// Builds an index from a `usize`, or `None` when it does not fit in a `u32`.
            #[inline]
            pub fn new(index: usize) -> Option<Self> {
                u32::try_from(index).ok().map(Self)
            }

            /// Builds an index from its `u32` value.
            #[inline]
            pub const fn from_u32(index: u32) -> Self {
                Self(index)
            }

            /// The index as a `u32`.
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }

            /// The index as a `usize`, for indexing slices.
            #[inline]
            pub const fn index(self) -> usize {
                // Lossless: usize has at least 32 bits (checked above).
                self.0 as usize
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

index_type! {
    /// An item (a column of the exact-cover matrix), numbered from 0 in the order the items were
    /// declared to the [`ProblemBuilder`](crate::ProblemBuilder) or listed in a `.dlx` file.
    pub struct ItemId;
}

index_type! {
    /// An option (a row of the exact-cover matrix), numbered from 0 in the order the options were
    /// added.
    pub struct OptionId;
}

/// Converts a `usize` that the caller has already bounded to `u32`, for internal use.
///
/// The builder checks every size against [`crate::MAX_NODES`] before any such conversion, so
/// failure here is a bug in this crate, not bad input.
#[inline]
pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).expect("size checked against MAX_NODES by the builder")
}
