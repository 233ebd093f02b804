//! The engines people run `dlx` under, for real: GNU parallel and a Slurm cluster of one machine
//! (`.ci/slurm`), with the commands and the script `docs/cli.md` shows. Where they cannot run
//! (not installed, which `.ci/setup` does as root; no root for Slurm's daemons), each test says so
//! in one line and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{self, dlx};

/// Whether GNU parallel runs here; if not, says so on stderr.
fn gnu_parallel() -> bool {
    let found = Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("GNU parallel is not installed here (`.ci/setup` installs it): its test is skipped");
    }
    found
}

/// The lines of the `sh` block of `docs/cli.md` that holds a line starting with `first`, from
/// that line on.
fn documented(first: &str) -> Vec<String> {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md")).unwrap();
    let lines: Vec<&str> = docs.lines().collect();
    let start =
        lines.iter().position(|l| l.starts_with(first)).unwrap_or_else(|| panic!("no `{first}` line"));
    lines[start..].iter().take_while(|l| !l.starts_with("```")).map(|l| (*l).to_owned()).collect()
}

/// Runs `script` with `sh` in `dir`, `dlx` the binary under test; its stdout.
fn shell(script: &str, dir: &Path) -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_dlx"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("sh").arg("-c").arg(script).current_dir(dir).env("PATH", path).output().unwrap();
    assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// `docs/cli.md`'s GNU parallel recipe, as written: 64 shards, each a process of its own, merged
/// to the count of one process (the 4x4 word squares, colors and all).
#[test]
fn sixty_four_shards_through_gnu_parallel_merge_to_one_count() {
    if !gnu_parallel() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(common::fixture("word-squares4.dlx"), dir.path().join("problem.dlx")).unwrap();
    let recipe = documented("parallel dlx xc --count --shard");
    assert_eq!(recipe.len(), 2, "the recipe is the shards' line and the merge: {recipe:?}");
    let merged = shell(&recipe.join("\n"), dir.path());
    let parts = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().starts_with("part")));
    assert_eq!(parts.count(), 64);
    let whole = dlx(&["xc", "--count", dir.path().join("problem.dlx").to_str().unwrap()], "");
    assert_eq!(merged, String::from_utf8(whole.stdout).unwrap());
    assert_eq!(merged, "17460\n");
}

/// `docs/cli.md`'s `parallel --pipe` recipe, with pieces of 37 puzzles instead of 1,000: the
/// answers of one `dlx solve`, in the same order.
#[test]
fn puzzles_through_gnu_parallel_pipe_keep_their_order() {
    if !gnu_parallel() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dlx(&["generate", "-n", "300", "--seed", "11"], "");
    assert!(puzzles.status.success());
    std::fs::write(dir.path().join("puzzles.txt"), &puzzles.stdout).unwrap();
    let recipe = documented("parallel --pipe --keep-order");
    assert_eq!(recipe.len(), 1, "{recipe:?}");
    assert!(recipe[0].contains("-N 1000"), "{recipe:?}");
    shell(&recipe[0].replace("-N 1000", "-N 37"), dir.path());
    let piped = std::fs::read_to_string(dir.path().join("solved.txt")).unwrap();
    let whole = dlx(&["solve", dir.path().join("puzzles.txt").to_str().unwrap()], "");
    assert_eq!(piped, String::from_utf8(whole.stdout).unwrap());
    assert_eq!(piped.lines().count(), 300);
}

/// Whether a one-machine Slurm cluster can start here (root, Slurm's and munge's daemons); if
/// not, says so on stderr.
fn slurm() -> bool {
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout == b"0\n");
    let found = ["slurmctld", "slurmd", "sbatch", "munged"].iter().all(|c| {
        Command::new("sh").arg("-c").arg(format!("command -v {c}")).output().is_ok_and(|o| o.status.success())
    });
    if !(root && found) {
        eprintln!(
            "Slurm cannot start here (it needs root, slurm-wlm and munge, which `.ci/setup` installs): its test is skipped"
        );
    }
    root && found
}

/// Stops the cluster when the test ends, passed or failed.
struct Down(PathBuf);

impl Drop for Down {
    fn drop(&mut self) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/slurm");
        let _ = Command::new(script).arg("down").arg(&self.0).status();
    }
}

/// `docs/cli.md`'s job-array script, as written, submitted with `sbatch --array=0-15 --wait` to a
/// Slurm cluster of this machine: its 16 parts merge to the count of one process.
#[test]
fn a_slurm_job_array_merges_to_one_count() {
    if !slurm() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cluster = dir.path().join("cluster");
    std::fs::create_dir(&cluster).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/slurm");
    let _down = Down(cluster.clone());
    let up = Command::new(&script).arg("up").arg(&cluster).output().unwrap();
    assert!(up.status.success(), "the cluster started: {}", String::from_utf8_lossy(&up.stderr));
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::copy(common::fixture("word-squares4.dlx"), work.join("problem.dlx")).unwrap();
    let job = documented("#!/bin/sh");
    assert_eq!(job.len(), 2, "{job:?}");
    assert!(job[1].contains("$SLURM_ARRAY_TASK_COUNT"), "{job:?}");
    std::fs::write(work.join("count.sh"), job.join("\n") + "\n").unwrap();
    let conf = format!("SLURM_CONF={}", cluster.join("slurm.conf").display());
    shell(
        &format!("export {conf}; timeout 300 sbatch --quiet --array=0-15 --wait -o /dev/null count.sh"),
        &work,
    );
    let merged = shell("dlx merge part*.json", &work);
    let parts = std::fs::read_dir(&work)
        .unwrap()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().starts_with("part")));
    assert_eq!(parts.count(), 16);
    assert_eq!(merged, "17460\n");
}
