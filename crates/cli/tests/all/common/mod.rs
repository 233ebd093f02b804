//! Running the built `dlx` binary, shared by the end-to-end tests.
#![allow(dead_code, unreachable_pub)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The path of a fixture file.
pub fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(name).to_str().unwrap().to_owned()
}

/// Runs `dlx` with these arguments and standard input.
pub fn dlx(args: &[&str], stdin: &str) -> Output {
    dlx_bytes(args, stdin.as_bytes())
}

/// Runs `dlx` with these arguments and raw bytes as standard input.
pub fn dlx_bytes(args: &[&str], stdin: &[u8]) -> Output {
    dlx_with(args, stdin, Stdio::piped(), Stdio::piped())
}

/// Runs `dlx` with these arguments and standard input, its stdout and stderr sent where asked
/// (captured when piped).
pub fn dlx_with(args: &[&str], stdin: &[u8], stdout: Stdio, stderr: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap();
    // Written from another thread, so that a large input cannot deadlock against a full stdout;
    // a command that stops reading early (a usage error) closes the pipe, which is no failure.
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// Runs `dlx` with `args`, killing it after `limit`: `None` when it had to be killed. Only a
/// guard against a search without end: a run that ends at all ends in a small share of it.
pub fn bounded(args: &[&str], limit: Duration) -> Option<std::process::Output> {
    let child = Command::new(env!("CARGO_BIN_EXE_dlx"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    // Its output is read as it comes (a full pipe would stop it), on another thread.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output().unwrap()));
    match receiver.recv_timeout(limit) {
        Ok(output) => Some(output),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid]).status();
            None
        }
    }
}
