//! Standard output written through a buffer that is never held back long: a thread beside the
//! run flushes what has waited in it for [`AT_MOST`]. A listing whose solutions come seldom (or
//! in a burst, then none for an hour) shows each within a second, in a file or a pipe as at a
//! terminal, and still writes in large blocks while they stream.

use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long written bytes may wait in the buffer.
const AT_MOST: Duration = Duration::from_secs(1);

/// How often the flushing thread looks.
const LOOK: Duration = Duration::from_millis(100);

/// Standard output (or another writer), buffered, flushed within [`AT_MOST`] (see the module's
/// docs).
pub(crate) struct Timely<W: Write = Stdout> {
    state: Mutex<State<W>>,
    done: AtomicBool,
}

struct State<W: Write> {
    out: BufWriter<W>,
    /// When the oldest bytes not flushed were written.
    since: Option<Instant>,
    /// A flush by the thread that failed: the run's next write or flush returns it.
    failed: Option<io::Error>,
}

impl Timely {
    /// Runs `run` with standard output as a [`Timely`] writer.
    pub(crate) fn run<R>(run: impl FnOnce(&mut &Timely) -> R) -> R {
        Timely::run_on(io::stdout(), run)
    }
}

impl<W: Write + Send> Timely<W> {
    /// Runs `run` with `inner` as a [`Timely`] writer.
    pub(crate) fn run_on<R>(inner: W, run: impl FnOnce(&mut &Timely<W>) -> R) -> R {
        let timely = Timely {
            state: Mutex::new(State { out: BufWriter::new(inner), since: None, failed: None }),
            done: AtomicBool::new(false),
        };
        std::thread::scope(|scope| {
            let flusher = scope.spawn(|| {
                while !timely.done.load(Ordering::Relaxed) {
                    std::thread::park_timeout(LOOK);
                    let mut state = timely.lock();
                    if state.since.is_some_and(|t| t.elapsed() >= AT_MOST) {
                        state.since = None;
                        if let Err(e) = state.out.flush() {
                            state.failed = Some(e);
                        }
                    }
                }
            });
            let result = run(&mut &timely);
            // The run ends now, not at the thread's next look.
            timely.done.store(true, Ordering::Relaxed);
            flusher.thread().unpark();
            result
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State<W>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<W: Write + Send> Write for &Timely<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut state = self.lock();
        if let Some(e) = state.failed.take() {
            return Err(e);
        }
        state.since.get_or_insert_with(Instant::now);
        state.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut state = self.lock();
        if let Some(e) = state.failed.take() {
            return Err(e);
        }
        state.since.get_or_insert_with(Instant::now);
        state.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut state = self.lock();
        if let Some(e) = state.failed.take() {
            return Err(e);
        }
        state.since = None;
        state.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::Timely;

    /// A writer whose bytes the test reads while the run goes on.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A line written and then nothing more for a while reaches the writer within about a
    /// second, though the buffer is far from full and the run goes on.
    #[test]
    fn what_waits_is_flushed_within_a_second() {
        let sink = Shared::default();
        let seen = sink.clone();
        Timely::run_on(sink, |out| {
            out.write_all(b"one solution\n").unwrap();
            let start = Instant::now();
            while seen.0.lock().unwrap().is_empty() {
                assert!(start.elapsed() < Duration::from_secs(10), "held back");
                std::thread::sleep(Duration::from_millis(20));
            }
            assert_eq!(&*seen.0.lock().unwrap(), b"one solution\n");
        });
    }
}
