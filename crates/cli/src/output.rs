//! Files written whole or not at all: under a temporary name in their folder, then renamed.

use std::path::Path;

use anyhow::{Context, Result};
use tempfile::NamedTempFile;

/// A file in `dir` under a temporary name ending in `suffix` (removed if the run stops before it
/// is renamed), readable as any file the user makes (mode 0666 less the umask on unix, where a
/// temporary file would be the owner's alone).
pub(crate) fn temporary(dir: &Path, suffix: &str) -> Result<NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".dlx-").suffix(suffix);
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(dir).with_context(|| format!("cannot write in {}", dir.display()))
}

/// Gives a finished temporary file its name.
pub(crate) fn persist(file: NamedTempFile, path: &Path) -> Result<()> {
    file.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    file.persist(path).map_err(|e| e.error).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
