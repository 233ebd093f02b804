//! Searches off the GIL, stopped by Ctrl-C: the work runs on a scoped thread of its own and
//! hands its result over a channel, while the caller's thread waits on the channel without the
//! GIL and, every [`TICK`], takes it back to let Python run its signal handlers. A
//! `KeyboardInterrupt` (or any exception a handler raises) cancels the work through its flag,
//! waits for it to end, and is raised. A short search costs no more than its own time: the wait
//! ends the moment the result is sent.

use std::sync::mpsc::{RecvTimeoutError, channel};
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
    watched(py, cancel, work, |_| Ok(()))
}

/// [`interruptible`], calling `tick` with the GIL at each look for signals: a raise there cancels
/// the work as a signal does.
pub(crate) fn watched<T: Send>(
    py: Python<'_>,
    cancel: &CancelFlag,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (send, mut receive) = channel();
        let handle = scope.spawn(move || {
            // The receiver outlives the work unless a signal ended the wait: then nobody reads.
            let _ = send.send(work());
        });
        loop {
            let (back, waited) = py.detach(move || {
                let waited = receive.recv_timeout(TICK);
                (receive, waited)
            });
            receive = back;
            match waited {
                Ok(done) => return Ok(done),
                Err(RecvTimeoutError::Disconnected) => {
                    // The work panicked before it could send: raise its panic here.
                    let panic = handle.join().expect_err("a thread that ended without sending panicked");
                    std::panic::resume_unwind(panic)
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(raised) = py.check_signals().and_then(|()| tick(py)) {
                cancel.cancel();
                let _ = py.detach(|| handle.join());
                cancel.clear();
                return Err(raised);
            }
        }
    })
}
