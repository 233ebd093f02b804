//! Input as an error message shows it: [`Excerpt`] escapes control characters and cuts a long
//! piece after [`Excerpt::MAX_CHARS`] characters, saying how long it was, so that a message never
//! writes a 5 MB name or a raw NUL byte to a terminal.

use std::fmt;

/// A piece of input (a name, a field, a token) as a message quotes it: control characters
/// escaped as Rust escapes them (`\0`, `\u{1b}`), and the first [`Excerpt::MAX_CHARS`]
/// characters of a longer piece followed by `...` and its length.
///
/// ```
/// use dlx_engine::Excerpt;
///
/// assert_eq!(Excerpt("a\0b").to_string(), "a\\0b");
/// let long = "x".repeat(5_000_000);
/// assert_eq!(Excerpt(&long).to_string(), format!("{}... (5000000 bytes)", "x".repeat(64)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

impl Excerpt<'_> {
    /// The most characters of a piece a message shows.
    pub const MAX_CHARS: usize = 64;
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (shown, c) in self.0.chars().enumerate() {
            if shown == Self::MAX_CHARS {
                return write!(f, "... ({} bytes)", self.0.len());
            }
            if c.is_control() {
                write!(f, "{}", c.escape_debug())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}
