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

    /// The sources named by a command's file arguments: stdin when there are none.
    pub(crate) fn all(files: &[PathBuf]) -> Vec<Source> {
        if files.is_empty() {
            vec![Source::Stdin]
        } else {
            files.iter().map(|f| Source::from_arg(Some(f))).collect()
        }
    }

    /// How the source is named in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// The whole content of the source, as bytes (whether it is text is the reader's to say).
    pub(crate) fn read_bytes(&self) -> Result<Vec<u8>> {
        match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
                Ok(bytes)
            }
            Source::File(p) => fs::read(p).with_context(|| format!("cannot read {}", p.display())),
        }
    }
}
