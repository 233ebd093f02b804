//! Searches off the GIL, stopped by Ctrl-C: the work runs on a scoped thread of its own while the
//! caller's thread sleeps without the GIL and, every [`TICK`], takes it back to let Python run its
//! signal handlers. A `KeyboardInterrupt` (or any exception a handler raises) cancels the work
//! through its flag, waits for it to end, and is raised.

use std::time::Duration;

use dlx_engine::CancelFlag;
use pyo3::prelude::*;

/// How often the caller's thread looks for signals.
pub(crate) const TICK: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own, cancelled through `cancel` if a signal handler raises.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &CancelFlag,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let handle = scope.spawn(work);
        loop {
            py.detach(|| {
                let mut slept = Duration::ZERO;
                while !handle.is_finished() && slept < TICK {
                    std::thread::sleep(Duration::from_millis(1));
                    slept += Duration::from_millis(1);
                }
            });
            if handle.is_finished() {
                return Ok(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            }
            if let Err(raised) = py.check_signals() {
                cancel.cancel();
                let _ = py.detach(|| handle.join());
                cancel.clear();
                return Err(raised);
            }
        }
    })
}
