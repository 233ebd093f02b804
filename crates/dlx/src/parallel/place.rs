//! Where the second thread of a count in two bands runs. Linux often queues a new thread on the
//! processor of the thread that made it, even with another processor idle, and moves it only at
//! the next balancing, milliseconds later: as long as a whole small count on two threads, which
//! the lower band then finishes alone (`benches/RESULTS.md`). So the new thread, once it runs,
//! leaves its maker's processor if it is on it, by allowing itself every processor but that one
//! for a moment; and its maker yields its processor until it has started. Neither is ever
//! pinned: both may run anywhere afterwards.
//!
//! The only module of the crate that calls the C library: `sched_getcpu`, `sched_getaffinity`
//! and `sched_setaffinity` on the calling thread, each of which only reads or writes the set it
//! is given. Elsewhere than on Linux, nothing is moved.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a thread yields, at most, for the thread it has made to start.
const WAIT: Duration = Duration::from_millis(1);

/// The processor the calling thread runs on, if known.
pub(super) fn here() -> Option<usize> {
    imp::here()
}

/// Called first by a new thread made on processor `maker`: moves it to another processor if it is
/// on that one, leaving it free to run on any afterwards; then marks it `started`.
pub(super) fn leave(maker: Option<usize>, started: &AtomicBool) {
    if let Some(maker) = maker {
        imp::leave(maker);
    }
    started.store(true, Ordering::Release);
}

/// Yields the calling thread's processor until `started` is set (by [`leave`]), for at most
/// [`WAIT`].
pub(super) fn wait(started: &AtomicBool) {
    let start = Instant::now();
    while !started.load(Ordering::Acquire) && start.elapsed() < WAIT {
        std::thread::yield_now();
    }
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod imp {
    pub(super) fn here() -> Option<usize> {
        // SAFETY: `sched_getcpu` takes no argument and only returns the calling thread's
        // processor, or -1.
        let cpu = unsafe { libc::sched_getcpu() };
        usize::try_from(cpu).ok()
    }

    pub(super) fn leave(maker: usize) {
        if here() != Some(maker) || maker >= libc::CPU_SETSIZE as usize {
            return;
        }
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `cpu_set_t` is a plain array of words, for which all zeros is the empty set.
        let mut allowed: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: pid 0 is the calling thread; `allowed` is a valid `cpu_set_t` of `size` bytes,
        // which the call only writes.
        if unsafe { libc::sched_getaffinity(0, size, &raw mut allowed) } != 0 {
            return;
        }
        let mut elsewhere = allowed;
        // SAFETY: `maker` is below `CPU_SETSIZE` (checked above), the set's size in bits; and
        // then, as above, pid 0 is the calling thread and the calls only read the sets. The
        // first moves the calling thread to another of its processors, the last allows it all of
        // them again.
        unsafe {
            libc::CPU_CLR(maker, &mut elsewhere);
            if libc::CPU_COUNT(&elsewhere) > 0 && libc::sched_setaffinity(0, size, &raw const elsewhere) == 0
            {
                libc::sched_setaffinity(0, size, &raw const allowed);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn here() -> Option<usize> {
        None
    }

    pub(super) fn leave(_maker: usize) {}
}
