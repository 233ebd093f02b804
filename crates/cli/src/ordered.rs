//! Work done by several threads and handed back in order, each piece as soon as it and every
//! piece before it are done: how batches and generations write each finished record at once,
//! whatever the output, however long the records after it take.
//!
//! Producers number the pieces (0, 1, ...) and [`send`](Producer::send) them as they finish, in
//! any order; the caller takes them from [`Ordered::next`] in order. A producer asks for
//! [`room`](Producer::room) before it starts piece `k`: at most [`WINDOW`] pieces are ahead of
//! the caller, so that one slow piece holds back the writing of those after it, never the memory.
//!
//! Handing a piece over costs a wake-up of the thread that waits for it (a system call and a
//! switch) whenever that thread sleeps in the channel: per piece, that would be most of the time
//! of an easy puzzle. So while work streams nobody sleeps in the channel: the caller waiting for
//! the next piece, or a producer waiting for room, looks again after a nap of [`NAP`], and the
//! caller sleeps in the channel only once nothing has come for [`NAPPING`]. Twice a run the
//! caller is woken from its nap, which would otherwise be time lost on every run however short:
//! by the first piece, and by each producer that leaves (the last leaves when the work is done).
//!
//! A producer that does a run of pieces together sends them as one
//! ([`send_run`](Producer::send_run)), numbered by the first; a caller that can take the pieces
//! of a run before it is done asks for them when nothing has come for a while
//! ([`Ordered::next_written_or`]).
//!
//! The producers are not joined when the caller stops early (Ctrl-C, a closed pipe): one may be
//! waiting on a terminal for a line that never comes. The process ends with the run, and they
//! with it; each also stops at its next [`room`](Producer::room) or [`send`](Producer::send) once
//! the caller has gone (dropped its [`Ordered`]).

use std::collections::BTreeMap;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

use crate::report;

/// Pieces ahead of the caller, at most.
pub(crate) const WINDOW: u64 = 4096;

/// How long the caller looks for pieces in naps of [`NAP`] before it sleeps until one comes.
const NAPPING: Duration = Duration::from_millis(50);

/// See [`NAPPING`].
const NAP: Duration = Duration::from_millis(1);

/// How long the caller waits for more pieces before it flushes what it wrote of those before.
const FLUSH_WHEN_IDLE: Duration = Duration::from_millis(20);

/// How often the caller flushes while pieces stream without a pause.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// How many pieces streaming without a pause the caller takes between two looks at the clock
/// (each within [`FLUSH_WHEN_IDLE`] of the one before, or the pause flushes).
const CLOCK_EVERY: u64 = 16;

/// How often a caller with nothing to write looks for Ctrl-C or SIGTERM.
const POLL: Duration = Duration::from_millis(100);

/// A channel of numbered pieces: the producers' end (to clone, one per thread) and the caller's.
pub(crate) fn ordered<T>() -> (Producer<T>, Ordered<T>) {
    let (done_tx, done) = channel();
    let window = Arc::new(Window {
        taken: AtomicU64::new(0),
        closed: AtomicBool::new(false),
        caller: std::thread::current(),
    });
    let producer = Producer { done: done_tx, window: Arc::clone(&window) };
    let ordered = Ordered {
        done,
        window,
        waiting: BTreeMap::new(),
        next: 0,
        idle_since: None,
        unflushed: false,
        flushed: Instant::now(),
    };
    (producer, ordered)
}

/// How far the producers are ahead of the caller.
struct Window {
    /// Pieces the caller has taken.
    taken: AtomicU64,
    /// The caller has gone.
    closed: AtomicBool,
    /// The caller's thread, woken from its nap by the first piece and by each producer that
    /// leaves (the last leaves at the end of the work).
    caller: std::thread::Thread,
}

/// The producers' end; the caller's [`Ordered::next`] ends once every clone is dropped.
pub(crate) struct Producer<T> {
    done: Sender<(u64, u64, T)>,
    window: Arc<Window>,
}

impl<T> Clone for Producer<T> {
    fn clone(&self) -> Self {
        Producer { done: self.done.clone(), window: Arc::clone(&self.window) }
    }
}

impl<T> Producer<T> {
    /// Waits until piece `seq` is within [`WINDOW`] of the caller: `false` when the caller has
    /// gone (the producer should stop).
    pub(crate) fn room(&self, seq: u64) -> bool {
        loop {
            if self.window.closed.load(Ordering::Relaxed) {
                return false;
            }
            if seq < self.window.taken.load(Ordering::Relaxed) + WINDOW {
                return true;
            }
            std::thread::sleep(NAP);
        }
    }

    /// Hands piece `seq` to the caller: `false` when the caller has gone.
    pub(crate) fn send(&self, seq: u64, piece: T) -> bool {
        self.send_run(seq, 1, piece)
    }

    /// Hands the caller the run of `count` pieces from `seq` as one (a worker that did them
    /// together): `false` when the caller has gone.
    pub(crate) fn send_run(&self, seq: u64, count: u64, piece: T) -> bool {
        let sent = self.done.send((seq, count, piece)).is_ok();
        if seq == 0 {
            self.window.caller.unpark();
        }
        sent
    }
}

impl<T> Drop for Producer<T> {
    fn drop(&mut self) {
        self.window.caller.unpark();
    }
}

/// What [`Ordered::next`] found.
enum Next<T> {
    /// The next piece in order.
    Piece(T),
    /// Nothing came for the time asked: the caller may flush its output, look for a signal.
    Idle,
    /// Every producer has gone, and every piece they sent has been taken.
    End,
}

/// The caller's end: the pieces in order. Dropping it tells the producers to stop.
pub(crate) struct Ordered<T> {
    done: Receiver<(u64, u64, T)>,
    window: Arc<Window>,
    /// Runs of pieces done before some piece ahead of them, by their first: how many, the run.
    waiting: BTreeMap<u64, (u64, T)>,
    /// The number of the next piece to take.
    next: u64,
    /// Since when nothing has come.
    idle_since: Option<Instant>,
    /// Whether the caller wrote since its output was last flushed, and when that was.
    unflushed: bool,
    flushed: Instant,
}

impl<T> Ordered<T> {
    /// The next piece in order, `None` after the last, for a caller that writes each piece as it
    /// comes: `flush` flushes what it wrote of those before, at once when the pieces pause
    /// (after [`FLUSH_WHEN_IDLE`]) and every [`FLUSH_EVERY`] or so while they stream, so that
    /// each is out within about a second whatever the output. Ctrl-C or SIGTERM while nothing
    /// comes ends the wait with [`Stopped`](report::Stopped), what was written flushed.
    pub(crate) fn next_written(
        &mut self,
        flush: impl FnMut() -> io::Result<()>,
    ) -> anyhow::Result<Option<T>> {
        self.next_written_or(flush, |_| None)
    }

    /// [`next_written`](Self::next_written) for producers that do runs of pieces and hold the
    /// ones done while they do the rest: once nothing has come for a while, `steal(k)` takes
    /// the run of pieces from `k`, the next in order, that a producer holds, if one does (how
    /// many, the run). A run done is then written however long the pieces after it take.
    pub(crate) fn next_written_or(
        &mut self,
        mut flush: impl FnMut() -> io::Result<()>,
        mut steal: impl FnMut(u64) -> Option<(u64, T)>,
    ) -> anyhow::Result<Option<T>> {
        loop {
            let wait = if self.unflushed { FLUSH_WHEN_IDLE } else { POLL };
            match self.next(wait) {
                Next::End => return Ok(None),
                Next::Idle => {
                    if let Some((count, piece)) = steal(self.next).filter(|&(count, _)| count > 0) {
                        self.idle_since = None;
                        self.took(count);
                        self.unflushed = true;
                        return Ok(Some(piece));
                    }
                    if self.unflushed {
                        flush()?;
                        (self.unflushed, self.flushed) = (false, Instant::now());
                    }
                    // A signal while the pieces are awaited (a line typed at a terminal, a
                    // pipe's writer, a long search).
                    report::check_interrupt()?;
                }
                Next::Piece(piece) => {
                    // The clock read every few pieces: per piece, it shows in an easy batch.
                    if self.unflushed
                        && self.next.is_multiple_of(CLOCK_EVERY)
                        && self.flushed.elapsed() >= FLUSH_EVERY
                    {
                        flush()?;
                        self.flushed = Instant::now();
                    }
                    self.unflushed = true;
                    return Ok(Some(piece));
                }
            }
        }
    }

    /// The next piece in order, waiting at most `wait` for it.
    fn next(&mut self, wait: Duration) -> Next<T> {
        // Read the clock only once nothing has come (a read per piece shows in an easy batch).
        let mut start = None;
        loop {
            if let Some((count, piece)) = self.waiting.remove(&self.next) {
                self.took(count);
                return Next::Piece(piece);
            }
            let received = match self.done.try_recv() {
                Ok(piece) => Some(piece),
                Err(TryRecvError::Disconnected) => None,
                Err(TryRecvError::Empty) => {
                    let left = wait.saturating_sub(start.get_or_insert_with(Instant::now).elapsed());
                    if left.is_zero() {
                        return Next::Idle;
                    }
                    if self.idle_since.get_or_insert_with(Instant::now).elapsed() < NAPPING {
                        std::thread::park_timeout(NAP.min(left));
                        continue;
                    }
                    match self.done.recv_timeout(left) {
                        Ok(piece) => Some(piece),
                        Err(RecvTimeoutError::Timeout) => return Next::Idle,
                        Err(RecvTimeoutError::Disconnected) => None,
                    }
                }
            };
            match received {
                // The piece awaited: taken without a stay in `waiting`.
                Some((seq, count, piece)) if seq == self.next => {
                    self.idle_since = None;
                    self.took(count);
                    return Next::Piece(piece);
                }
                Some((seq, count, piece)) => {
                    self.idle_since = None;
                    self.waiting.insert(seq, (count, piece));
                }
                // Every producer has gone: what is waiting is all there is (in order, unless a
                // producer died before it sent a piece).
                None => {
                    return match self.waiting.pop_first() {
                        Some((_, (_, piece))) => Next::Piece(piece),
                        None => Next::End,
                    };
                }
            }
        }
    }

    /// The caller has taken a run of `count` pieces, the next in order.
    fn took(&mut self, count: u64) {
        self.next += count;
        self.window.taken.store(self.next, Ordering::Relaxed);
    }
}

impl<T> Drop for Ordered<T> {
    fn drop(&mut self) {
        self.window.closed.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces sent in any order by several threads come out in order, each as soon as those
    /// before it are in; a piece not sent yet holds back the ones after it, not the ones before.
    #[test]
    fn pieces_come_out_in_order() {
        let (producer, mut ordered) = ordered::<u64>();
        let wait = Duration::from_secs(10);
        producer.send(1, 10);
        producer.send(0, 0);
        assert!(matches!(ordered.next(wait), Next::Piece(0)));
        assert!(matches!(ordered.next(wait), Next::Piece(10)));
        producer.send(3, 30);
        assert!(matches!(ordered.next(Duration::from_millis(5)), Next::Idle));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let producer = producer.clone();
                std::thread::spawn(move || {
                    for seq in (2..200).filter(|s| s % 4 == t && *s != 3) {
                        assert!(producer.room(seq));
                        producer.send(seq, seq * 10);
                    }
                })
            })
            .collect();
        drop(producer);
        for seq in 2..200 {
            match ordered.next(wait) {
                Next::Piece(piece) => assert_eq!(piece, seq * 10),
                _ => panic!("piece {seq} missing"),
            }
        }
        assert!(matches!(ordered.next(wait), Next::End));
        threads.into_iter().for_each(|t| t.join().unwrap());
    }

    /// Runs of pieces come out in order with single pieces; a run the caller takes from a
    /// producer still at work (once nothing has come) moves the caller past it.
    #[test]
    fn runs_come_out_in_order_and_can_be_taken_early() {
        let (producer, mut ordered) = ordered::<Vec<u64>>();
        producer.send_run(3, 2, vec![3, 4]);
        producer.send_run(0, 3, vec![0, 1, 2]);
        producer.send(5, vec![5]);
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.extend(ordered.next_written(|| Ok(())).unwrap().unwrap());
        }
        assert_eq!(seen, (0..6).collect::<Vec<_>>());
        // Pieces 6 and 7 are done, held by a producer that works on 8.
        let mut asked = Vec::new();
        let steal = |k| {
            asked.push(k);
            (k == 6).then(|| (2, vec![6, 7]))
        };
        assert_eq!(ordered.next_written_or(|| Ok(()), steal).unwrap(), Some(vec![6, 7]));
        assert_eq!(asked, [6]);
        assert!(producer.room(8 + WINDOW - 1), "the pieces taken make room");
        producer.send(8, vec![8]);
        drop(producer);
        assert_eq!(ordered.next_written(|| Ok(())).unwrap(), Some(vec![8]));
        assert_eq!(ordered.next_written(|| Ok(())).unwrap(), None);
    }

    /// A producer ahead by the whole window waits for the caller, and stops when it goes.
    #[test]
    fn the_window_bounds_the_lead_and_closes() {
        let (producer, ordered) = ordered::<u64>();
        assert!(producer.room(WINDOW - 1));
        let ahead = producer.clone();
        let waiter = std::thread::spawn(move || ahead.room(WINDOW));
        std::thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished(), "piece WINDOW waits for the caller to take piece 0");
        drop(ordered);
        assert!(!waiter.join().unwrap(), "the caller has gone: no room");
        assert!(!producer.send(0, 0));
    }
}
