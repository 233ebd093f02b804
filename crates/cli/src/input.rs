//! Reading inputs named on the command line (`-` or nothing for stdin).

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::report;

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

    /// How the source is named in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(p) => p.display().to_string(),
            Source::Argument(_, k) => format!("<argument {k}>"),
        }
    }

    /// The whole content of the source, as bytes (whether it is text is the reader's to say).
    pub(crate) fn read_bytes(&self) -> Result<Vec<u8>> {
        match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                stdin().read_to_end(&mut bytes).context("<stdin>: cannot read")?;
                Ok(bytes)
            }
            Source::File(p) => fs::read(p).with_context(|| format!("{}: cannot read", p.display())),
            Source::Argument(text, _) => Ok(text.clone().into_bytes()),
        }
    }
}

/// Standard input, read so that a signal that arrives while the run waits for it (a line typed
/// at a terminal, a pipe whose writer has not written yet) ends the run at once (see
/// [`report::Waiting`]): whoever reads it must have written out what it answered before.
pub(crate) fn stdin() -> Stdin {
    Stdin { inner: io::stdin().lock() }
}

/// See [`stdin`].
pub(crate) struct Stdin {
    inner: io::StdinLock<'static>,
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
