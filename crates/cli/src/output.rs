//! Files written whole or not at all: under a temporary name in their folder, then renamed.

use std::path::Path;

use anyhow::{Context, Result};
use tempfile::NamedTempFile;

/// A file in `dir` under a temporary name ending in `suffix` (removed if the run stops before it
/// is renamed).
pub(crate) fn temporary(dir: &Path, suffix: &str) -> Result<NamedTempFile> {
    tempfile::Builder::new()
        .prefix(".dlx-")
        .suffix(suffix)
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))
}

/// Gives a finished temporary file its name.
pub(crate) fn persist(file: NamedTempFile, path: &Path) -> Result<()> {
    file.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    file.persist(path).map_err(|e| e.error).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
