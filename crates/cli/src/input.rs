//! Reading inputs named on the command line (`-` or nothing for stdin).

use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::report::{self, Stopped};

/// An input source: a file, standard input, or a puzzle given as an argument.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    Stdin,
    File(PathBuf),
    /// The text of an argument that names no file and reads as a puzzle (see
    /// [`Source::puzzles`]), and its place among the arguments (from 1).
    Argument(String, usize),
}

impl Source {
    /// `-` or nothing means stdin.
    pub(crate) fn from_arg(arg: Option<&Path>) -> Source {
        match arg {
            None => Source::Stdin,
            Some(p) if p.as_os_str() == "-" => Source::Stdin,
            Some(p) => Source::File(p.to_path_buf()),
        }
    }

    /// The sources named by a command's file arguments: stdin when there are none.
    pub(crate) fn all(files: &[PathBuf]) -> Vec<Source> {
        if files.is_empty() {
            vec![Source::Stdin]
        } else {
            files.iter().map(|f| Source::from_arg(Some(f))).collect()
        }
    }

    /// The sources named by the file arguments of a command that reads puzzles: as
    /// [`all`](Self::all), but an argument that names no file and reads as a puzzle (see
    /// [`reads_as_puzzle`]) is that puzzle.
    pub(crate) fn puzzles(files: &[PathBuf]) -> Vec<Source> {
        let mut sources = Source::all(files);
        for (k, source) in sources.iter_mut().enumerate() {
            if let Source::File(p) = source
                && let Some(text) = p.to_str().filter(|t| reads_as_puzzle(t))
                && !p.exists()
            {
                *source = Source::Argument(text.to_owned(), k + 1);
            }
        }
        sources
    }

    /// Whether reading the source never waits on someone else: a regular file (named, or
    /// standard input read from one) or an argument, not a terminal, a pipe or a device.
    pub(crate) fn is_steady(&self) -> bool {
        match self {
            Source::Argument(..) => true,
            Source::File(p) => fs::metadata(p).is_ok_and(|m| m.is_file()),
            Source::Stdin => stdin_is_file(),
        }
    }

    /// How the source is named in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(p) => p.display().to_string(),
            Source::Argument(_, k) => format!("<argument {k}>"),
        }
    }

    /// The whole content of the source, as bytes (whether it is text is the reader's to say). A
    /// line longer than [`MAX_LINE`], or a stream that is not a regular file longer than
    /// [`MAX_STREAM`], is an error: a device or an endless stream never fills memory. Ctrl-C or
    /// SIGTERM ends the reading ([`Stopped`]).
    pub(crate) fn read_bytes(&self) -> Result<Vec<u8>> {
        let name = self.name();
        match self {
            Source::Stdin => read_bounded(stdin(), &name, MAX_STREAM, 0),
            Source::File(p) => {
                let file = fs::File::open(p).with_context(|| format!("{name}: cannot read"))?;
                let size = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
                let (most, capacity) = match size {
                    Some(len) => (u64::MAX, usize::try_from(len).unwrap_or(0)),
                    None => (MAX_STREAM, 0),
                };
                read_bounded(Cancellable(file), &name, most, capacity)
            }
            Source::Argument(text, _) => Ok(text.clone().into_bytes()),
        }
    }
}

/// A reader of an input that can say whether reading a line from it would wait.
pub(crate) trait Lines: BufRead + Send {
    /// Whether a whole line is at hand (in the buffer): reading it does not wait.
    fn line_ready(&self) -> bool;
}

impl<R: Read + Send> Lines for BufReader<R> {
    fn line_ready(&self) -> bool {
        self.buffer().contains(&b'\n')
    }
}

impl Lines for io::Cursor<Vec<u8>> {
    fn line_ready(&self) -> bool {
        true
    }
}

impl<L: Lines + ?Sized> Lines for Box<L> {
    fn line_ready(&self) -> bool {
        (**self).line_ready()
    }
}

/// Whether standard input is a regular file.
#[cfg(unix)]
fn stdin_is_file() -> bool {
    use std::os::fd::AsFd;
    io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .is_ok_and(|fd| fs::File::from(fd).metadata().is_ok_and(|m| m.is_file()))
}

/// Whether standard input is a regular file (taken as not, where that is not asked).
#[cfg(not(unix))]
fn stdin_is_file() -> bool {
    false
}

/// The longest line [`Source::read_bytes`] reads: 64 MiB (an option of millions of items).
pub(crate) const MAX_LINE: usize = 64 << 20;

/// The most [`Source::read_bytes`] reads from a stream that is not a regular file: 4 GiB.
pub(crate) const MAX_STREAM: u64 = 4 << 30;

/// Reads `reader` to its end (`capacity` bytes expected), refusing a line longer than
/// [`MAX_LINE`] or more than `most` bytes.
fn read_bounded(mut reader: impl Read, name: &str, most: u64, capacity: usize) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(capacity);
    let mut chunk = vec![0; 64 << 10];
    // Where the current line starts.
    let mut line_start = 0usize;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // Ctrl-C or SIGTERM (see [`Cancellable`]).
            Err(_) if report::check_interrupt().is_err() => return Err(Stopped.into()),
            Err(e) => return Err(e).with_context(|| format!("{name}: cannot read")),
        };
        let read = &chunk[..n];
        if let Some(k) = read.iter().rposition(|&b| b == b'\n') {
            line_start = bytes.len() + k + 1;
        }
        bytes.extend_from_slice(read);
        if bytes.len() - line_start > MAX_LINE {
            let line = 1 + bytes[..line_start].iter().filter(|&&b| b == b'\n').count();
            anyhow::bail!(report::Usage(format!(
                "{name}:{line}: a line longer than {} MiB: no problem is written so (this bound \
                 keeps a device or an endless stream from filling memory)",
                MAX_LINE >> 20
            )));
        }
        if bytes.len() as u64 > most {
            anyhow::bail!(report::Usage(format!(
                "{name}: more than {} GiB from a stream that is not a regular file: give the problem \
                 as a file",
                most >> 30
            )));
        }
    }
}

/// A reader that fails with [`Stopped`] once Ctrl-C or SIGTERM came: reading a long line, or a
/// device that never ends one, stops as a search does.
pub(crate) struct Cancellable<R>(pub(crate) R);

impl<R: Read> Read for Cancellable<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        report::check_interrupt().map_err(io::Error::other)?;
        self.0.read(buf)
    }
}

/// Standard input, read so that a signal that arrives while the run waits for it (a line typed
/// at a terminal, a pipe whose writer has not written yet) ends the run at once (see
/// [`report::Waiting`]): whoever reads it must have written out what it answered before.
pub(crate) fn stdin() -> Stdin {
    Stdin { inner: io::stdin() }
}

/// See [`stdin`].
pub(crate) struct Stdin {
    inner: io::Stdin,
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let _waiting = report::Waiting::new();
        self.inner.read(buf)
    }
}

/// Whether an argument reads as one puzzle: a line of 16 or 81 cells, each a digit or one of `.`,
/// `_`, `-`, `*` (an empty cell), or of 256 or 625 cells, which may also be letters.
fn reads_as_puzzle(text: &str) -> bool {
    let empty = |c: char| matches!(c, '.' | '_' | '-' | '*');
    match text.len() {
        16 | 81 => text.chars().all(|c| c.is_ascii_digit() || empty(c)),
        256 | 625 => text.chars().all(|c| c.is_ascii_alphanumeric() || empty(c)),
        _ => false,
    }
}
