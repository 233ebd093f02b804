//! The progress of a long `dlx xc` run, on stderr: a bar on a terminal (indicatif), or plain lines
//! for a log with `--progress`.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dlx_engine::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::report::stderr;

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Show {
    /// Not at all.
    Nothing,
    /// A bar, redrawn in place (stderr is a terminal).
    Bar,
    /// A line now and then (stderr is a file or a pipe, and `--progress` asked for it).
    Lines,
}

impl Show {
    /// What `--progress` and `--quiet` ask for, on this stderr. `listing` says whether solutions
    /// go to stdout: a bar would then be drawn among them when stdout is the same terminal, so
    /// there is none.
    pub(crate) fn choose(progress: bool, quiet: bool, listing: bool) -> Show {
        if quiet {
            Show::Nothing
        } else if std::io::stderr().is_terminal() {
            if listing && std::io::stdout().is_terminal() {
                return Show::Nothing;
            }
            Show::Bar
        } else if progress {
            Show::Lines
        } else {
            Show::Nothing
        }
    }
}

/// A run shows nothing for its first second: short runs stay quiet.
const QUIET_START: Duration = Duration::from_secs(1);

/// Plain lines come this often.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// The words of a progress report: the fraction done, solutions, nodes per second, time left.
fn words(progress: &Progress, elapsed: Duration) -> String {
    let fraction = progress.fraction();
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let rate = progress.nodes() as f64 / seconds;
    let left = if fraction > 0.0 { seconds * (1.0 - fraction) / fraction } else { f64::NAN };
    let left = if left.is_finite() { format!("{:.0} s left", left) } else { "time left unknown".into() };
    format!("{:.2}% done, {} solutions, {:.0} nodes/s, {left}", 100.0 * fraction, progress.solutions(), rate)
}

/// Shows `progress` on stderr as `show` says, from another thread, until `done` is set; then
/// clears the bar. Run it in a scoped thread beside the search.
pub(crate) fn watch(show: Show, progress: &Arc<Progress>, done: &AtomicBool) {
    if show == Show::Nothing {
        return;
    }
    let start = Instant::now();
    let wait = |until: Duration| {
        while start.elapsed() < until {
            if done.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        true
    };
    if !wait(QUIET_START) {
        return;
    }
    match show {
        Show::Bar => {
            let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template("{wide_bar} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            while !done.load(Ordering::Relaxed) {
                // Per mille, from a fraction in [0, 1]: the cast cannot truncate.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                bar.set_position((progress.fraction() * 1000.0).round() as u64);
                bar.set_message(words(progress, start.elapsed()));
                std::thread::sleep(Duration::from_millis(250));
            }
            bar.finish_and_clear();
        }
        Show::Lines => {
            let mut next = QUIET_START;
            loop {
                // A closed or full stderr only ends the reports.
                if stderr!("dlx: {}", words(progress, start.elapsed())).is_err() {
                    return;
                }
                next += LINE_EVERY;
                if !wait(next) {
                    return;
                }
            }
        }
        Show::Nothing => {}
    }
}
