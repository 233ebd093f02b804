//! Exit statuses, diagnostics on stderr and the count of worker threads: the policies every command
//! shares.
//!
//! * **0**: the run did what was asked (a closed pipe on stdout or stderr also ends it with 0:
//!   the reader has gone, as `head` does; see `is_broken_pipe`).
//! * **1**: an input could not be read (the other inputs were still answered), an output could
//!   not be written (a full disk), or `generate` fell short of the puzzles asked for.
//! * **2**: the command line was misused, or an input was malformed (in a batch: some record,
//!   reported in place; the rest of the batch was answered).
//! * **3**: with `--strict`, some puzzle had no solution or several.
//! * **130**: interrupted by Ctrl-C (SIGINT), **143**: stopped by SIGTERM. What was written is
//!   whole records, and stderr says the run was interrupted. A search stops within a few
//!   milliseconds of the signal; a run waiting for standard input ends at once.

use std::fmt;
use std::io::{self, Write};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use anyhow::Result;

/// The exit statuses, as the top-level `--help` and the manual page say them.
pub(crate) const EXIT_STATUS: &str = "Exit status: 0 on success (and when a pipe closes: `dlx ... | \
    head`); 1 when an input could not be read (the others are still answered) or an output could \
    not be written; 2 for bad arguments or a malformed input (in a batch: some record was \
    malformed, the rest answered); 3 with `--strict` when some puzzle has no solution or several; \
    130 after Ctrl-C and 143 after SIGTERM (whole records written, and stderr says so).";

/// How fast puzzles went, as `--stats` says it: puzzles per second, and under one a second the
/// seconds each took (`s/puzzle`), where a rate rounded to 0 would say nothing.
pub(crate) fn pace(puzzles: u64, seconds: f64) -> String {
    if puzzles == 0 || seconds <= 0.0 {
        return "0 puzzles/s".to_owned();
    }
    let rate = puzzles as f64 / seconds;
    match rate {
        r if r >= 10.0 => format!("{r:.0} puzzles/s"),
        r if r >= 1.0 => format!("{r:.1} puzzles/s"),
        r => format!("{:.1} s/puzzle", 1.0 / r),
    }
}

/// Exit status for a malformed input or a misused command line.
pub(crate) const EXIT_INVALID: u8 = 2;

/// Exit status for an input that could not be read or an output that could not be written.
pub(crate) const EXIT_FAILURE: u8 = 1;

/// Exit status with `--strict` when some puzzle has no solution or several.
pub(crate) const EXIT_NOT_UNIQUE: u8 = 3;

/// Exit status after Ctrl-C, as shells report a process ended by SIGINT.
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Exit status after SIGTERM, as shells report a process ended by it.
pub(crate) const EXIT_TERMINATED: u8 = 143;

/// The run was interrupted by Ctrl-C or SIGTERM: exit status 130 or 143 ([`stopped_status`]).
#[derive(Debug, thiserror::Error)]
#[error("interrupted; the output holds whole records up to that point, and no more")]
pub(crate) struct Stopped;

/// The flag a signal sets: batches check it between records, searches through the engine's
/// cancel flag.
pub(crate) fn cancel_flag() -> &'static dlx_engine::CancelFlag {
    static FLAG: OnceLock<dlx_engine::CancelFlag> = OnceLock::new();
    FLAG.get_or_init(dlx_engine::CancelFlag::new)
}

/// The exit status of the signal that stopped the run (SIGTERM: 143; Ctrl-C, or none: 130).
static STOPPED_STATUS: AtomicU8 = AtomicU8::new(EXIT_INTERRUPTED);

/// Set while the run waits for standard input (a line typed at a terminal, a pipe not written
/// yet): a signal then ends it at once, as nothing is half written (whoever reads stdin writes out
/// what it answered before).
static WAITING: AtomicBool = AtomicBool::new(false);

/// The exit status of a run that a signal stopped.
pub(crate) fn stopped_status() -> u8 {
    STOPPED_STATUS.load(Ordering::Relaxed)
}

/// A signal arrived with `status`: the first sets [`cancel_flag`], so that the run stops at a
/// record's end (a search within a few milliseconds); a second one, or one while the run waits
/// for standard input, ends the run at once.
fn on_signal(status: u8) {
    STOPPED_STATUS.store(status, Ordering::Relaxed);
    if cancel_flag().is_cancelled() || WAITING.load(Ordering::Relaxed) {
        let _ = write_stderr(format_args!("dlx: {Stopped}"));
        std::process::exit(i32::from(status));
    }
    cancel_flag().cancel();
}

/// Makes Ctrl-C (SIGINT) and SIGTERM stop the run as [`on_signal`] says instead of killing the
/// process. If the handler cannot be installed, they simply end the process.
pub(crate) fn catch_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
            for signal in signals.forever() {
                on_signal(if signal == SIGTERM { EXIT_TERMINATED } else { EXIT_INTERRUPTED });
            }
        });
    }
    #[cfg(not(unix))]
    {
        let _ = ctrlc::set_handler(|| on_signal(EXIT_INTERRUPTED));
    }
}

/// While the value lives, the run waits for standard input: a signal ends it at once.
pub(crate) struct Waiting(());

impl Waiting {
    /// Marks a wait for standard input (and ends the run now if a signal came before).
    pub(crate) fn new() -> Waiting {
        WAITING.store(true, Ordering::Relaxed);
        if cancel_flag().is_cancelled() {
            let _ = write_stderr(format_args!("dlx: {Stopped}"));
            std::process::exit(i32::from(stopped_status()));
        }
        Waiting(())
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        WAITING.store(false, Ordering::Relaxed);
    }
}

/// `Err(Stopped)` once Ctrl-C (or SIGTERM) came.
pub(crate) fn check_interrupt() -> Result<(), Stopped> {
    if cancel_flag().is_cancelled() { Err(Stopped) } else { Ok(()) }
}

/// Misuse of the command line that clap's own checks do not see: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Usage(pub(crate) String);

/// Writes one line on stderr. A failed write is an error like a failed write to stdout: a closed
/// stderr ends the run quietly, a full one with status 1; it never aborts the process.
pub(crate) fn write_stderr(args: fmt::Arguments<'_>) -> io::Result<()> {
    let mut stderr = io::stderr().lock();
    stderr.write_fmt(args)?;
    stderr.write_all(b"\n")
}

/// `stderr!("...", ...)`: [`write_stderr`] with `format!` arguments.
macro_rules! stderr {
    ($($arg:tt)*) => {
        $crate::report::write_stderr(format_args!($($arg)*))
    };
}
pub(crate) use stderr;

/// Whether an error is a write to a closed pipe (`dlx ... | head`), which ends the run quietly.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| match e.downcast_ref::<io::Error>() {
        Some(e) => e.kind() == io::ErrorKind::BrokenPipe,
        None => {
            e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind)
                == Some(io::ErrorKind::BrokenPipe)
        }
    })
}

/// The most worker threads a command accepts; larger values are refused (exit status 2).
pub(crate) const MAX_THREADS: u64 = 1024;

/// The worker threads of a run for `threads` asked (all cores when `None`): never more than the
/// cores, as batches are pure computation and a thread beyond the cores cannot speed them up
/// (the callers also start no more than their work has pieces).
pub(crate) fn workers(threads: Option<u64>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    threads.map_or(cores, |n| usize::try_from(n).unwrap_or(usize::MAX)).clamp(1, cores)
}

#[cfg(test)]
mod tests {
    use super::pace;

    /// A slow run says how long each puzzle took rather than a rate rounded to nothing.
    #[test]
    fn pace_never_rounds_to_nothing() {
        assert_eq!(pace(2, 110.0), "55.0 s/puzzle");
        assert_eq!(pace(5, 2.0), "2.5 puzzles/s");
        assert_eq!(pace(49_158, 1.0), "49158 puzzles/s");
        assert_eq!(pace(0, 3.0), "0 puzzles/s");
    }
}
