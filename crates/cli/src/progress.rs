//! The progress of a long `dlx xc` run or a long count of `dlx count`, on stderr: a bar on a
//! terminal (indicatif), or plain lines for a log with `--progress`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use dlx_engine::Progress;
use dlx_sudoku::{Forecast, LongCount, Watch};
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

/// A bar's figures are renewed this often.
const REDRAW: Duration = Duration::from_millis(250);

/// Plain lines come this often.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// The words of a progress report: the fraction done, solutions, nodes per second, time left.
/// The rate and the time left are this run's: `from` is the progress when it began (the pieces a
/// resumed count did before are done, but not by this run).
fn words(progress: &Progress, from: (f64, u64), elapsed: Duration, about: &About) -> String {
    let fraction = progress.fraction();
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let rate = progress.nodes().saturating_sub(from.1) as f64 / seconds;
    let gained = fraction - from.0;
    let left = if gained > 0.0 { seconds * (1.0 - fraction) / gained } else { f64::NAN };
    if !left.is_finite()
        && let Some(forecast) = about.forecast
    {
        // Nothing done yet to measure by: the estimate made before, less the time gone.
        let left = duration((forecast - seconds).max(0.0));
        return format!("{} so far, about {left} left by estimate", duration(seconds));
    }
    let left = if left.is_finite() { format!("{} left", duration(left)) } else { "time left unknown".into() };
    format!("{:.2}% done, {} solutions, {:.0} nodes/s, {left}", 100.0 * fraction, progress.solutions(), rate)
}

/// What a progress display says beside the figures.
#[derive(Debug, Default)]
pub(crate) struct About {
    /// What is being done (`counting p.txt:3`), before the bar; nothing when empty.
    pub(crate) label: String,
    /// The seconds the run was forecast to take on one thread, said until the progress measures.
    pub(crate) forecast: Option<f64>,
}

/// A span of time in words, to the unit that says it best: `42 s`, `17 min`, `5.2 hours`,
/// `3.1 days`, `2.4e14 years`.
pub(crate) fn duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7_200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} hours", s / 3_600.0),
        s if s < YEAR => format!("{:.1} days", s / 86_400.0),
        s if s < 1e4 * YEAR => format!("{:.0} years", s / YEAR),
        s => format!("{:.1e} years", s / YEAR),
    }
}

/// Shows the long counts of a batch's records (see [`dlx_sudoku::Watch`]): says before one goes
/// on when it is forecast to take a day or more, and how to bound it, and shows each while it
/// runs as [`watch`] does, labelled with its record's place.
pub(crate) struct CountBars {
    show: Show,
    /// The input's name, for the labels.
    name: String,
    /// The counts shown: the record's line, the flag that ends its display, and the flag its
    /// thread sets once the bar is cleared.
    running: Mutex<Vec<Shown>>,
}

/// A long count shown (see [`CountBars`]).
type Shown = (usize, Arc<AtomicBool>, Arc<AtomicBool>);

impl CountBars {
    /// Long counts of the records of input `name`, shown as `show` says.
    pub(crate) fn new(show: Show, name: String) -> CountBars {
        CountBars { show, name, running: Mutex::new(Vec::new()) }
    }

    /// Ends every display and waits (a second at most) until each bar is cleared: the run ends
    /// before the counts do (Ctrl-C), and its last words must not be drawn over.
    pub(crate) fn clear(&self) {
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner).clone();
        for (_, done, _) in &running {
            done.store(true, Ordering::Relaxed);
        }
        let start = Instant::now();
        while running.iter().any(|(.., cleared)| !cleared.load(Ordering::Relaxed))
            && start.elapsed() < Duration::from_secs(1)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Clears a bar when dropped, however the run ends: an early return (Ctrl-C, a closed pipe)
/// leaves no bar drawn where another thread keeps a clone of it.
pub(crate) struct Cleared(pub(crate) ProgressBar);

impl Drop for Cleared {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

impl Watch for CountBars {
    fn long_count(&self, count: &LongCount<'_>) {
        let (name, line) = (&self.name, count.line);
        if let Some(f) = count.forecast.filter(Forecast::is_astronomical) {
            let bound = match count.limit {
                None => "--limit N stops it at N solutions",
                Some(_) => "a smaller --limit stops it sooner",
            };
            // A closed or full stderr only loses the warning.
            let _ = stderr!(
                "dlx: {name}:{line}: this count may take {} on one thread (Knuth's estimate: about \
                 {:.1e} solutions, {:.1e} nodes); {bound}",
                duration(f.seconds),
                f.solutions,
                f.nodes
            );
        }
        if self.show == Show::Nothing {
            return;
        }
        let (done, cleared) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let (show, progress) = (self.show, Arc::clone(count.progress));
        let (until, then) = (Arc::clone(&done), Arc::clone(&cleared));
        let about = About {
            label: format!("counting {name}:{line}"),
            // The forecast is one thread's; the count runs on more.
            forecast: count.forecast.map(|f| f.seconds / count.threads as f64),
        };
        self.running.lock().unwrap_or_else(PoisonError::into_inner).push((line, done, cleared));
        std::thread::spawn(move || {
            watch(show, &progress, &until, &about);
            then.store(true, Ordering::Relaxed);
        });
    }

    fn count_done(&self, line: usize) {
        let shown = self
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|(l, ..)| *l == line)
            .cloned();
        let Some((_, done, cleared)) = shown else { return };
        done.store(true, Ordering::Relaxed);
        // The bar is cleared before the record is written (a second at most: a display that
        // failed never holds the count's answer back).
        let start = Instant::now();
        while !cleared.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.running.lock().unwrap_or_else(PoisonError::into_inner).retain(|(l, ..)| *l != line);
    }
}

/// Shows `progress` on stderr as `show` says, from another thread, until `done` is set; then
/// clears the bar. Run it in a scoped thread beside the search.
pub(crate) fn watch(show: Show, progress: &Arc<Progress>, done: &AtomicBool, about: &About) {
    let label = &about.label;
    if show == Show::Nothing {
        return;
    }
    let start = Instant::now();
    let from = (progress.fraction(), progress.nodes());
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
                ProgressStyle::with_template(if label.is_empty() {
                    "{wide_bar} {msg}"
                } else {
                    "{prefix} {wide_bar} {msg}"
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(label.to_owned());
            let mut next = QUIET_START;
            loop {
                // Per mille, from a fraction in [0, 1]: the cast cannot truncate.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                bar.set_position((progress.fraction() * 1000.0).round() as u64);
                bar.set_message(words(progress, from, start.elapsed(), about));
                // The wait looks for the end between redraws: the bar is cleared soon after it.
                next += REDRAW;
                if !wait(next) {
                    break;
                }
            }
            bar.finish_and_clear();
        }
        Show::Lines => {
            let mut next = QUIET_START;
            loop {
                // A closed or full stderr only ends the reports.
                let label = if label.is_empty() { String::new() } else { format!("{label}: ") };
                if stderr!("dlx: {label}{}", words(progress, from, start.elapsed(), about)).is_err() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A resumed count's rate and time left are this run's: the half done before it started
    /// counts as done, not as done in the run's first seconds.
    #[test]
    fn a_resumed_count_reports_its_own_pace() {
        let progress = Progress::new();
        progress.add_done(0.5, &dlx_engine::Count::from(100u64), 1_000_000);
        let from = (progress.fraction(), progress.nodes());
        progress.add_done(0.1, &dlx_engine::Count::from(5u64), 1_000);
        let said = words(&progress, from, Duration::from_secs(10), &About::default());
        assert_eq!(said, "60.00% done, 105 solutions, 100 nodes/s, 40 s left");
        let forecast = About { label: String::new(), forecast: Some(7_200.0) };
        let fresh = Progress::new();
        let said = words(&fresh, (0.0, 0), Duration::from_secs(30), &forecast);
        assert_eq!(said, "30 s so far, about 120 min left by estimate");
    }

    #[test]
    fn durations_in_words() {
        let said: Vec<String> = [42.0, 1_000.0, 20_000.0, 1e6, 1e9, 1e16].map(duration).to_vec();
        assert_eq!(said, ["42 s", "17 min", "5.6 hours", "11.6 days", "32 years", "3.2e8 years"]);
    }
}
