//! Reading inputs named on the command line (`-` or nothing for stdin).

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// An input source: a file, or standard input.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    Stdin,
    File(PathBuf),
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

    /// How the source is named in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// The whole text of the source.
    pub(crate) fn read_to_string(&self) -> Result<String> {
        match self {
            Source::Stdin => {
                let mut text = String::new();
                io::stdin().read_to_string(&mut text).context("cannot read standard input")?;
                Ok(text)
            }
            Source::File(p) => fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display())),
        }
    }
}
