//! A batch answered as a stream: records are read in a thread of their own, answered by workers
//! started as the records come, and handed back in the input's order as soon as each one and
//! every one before it is done (see [`crate::ordered`]).
//!
//! ```text
//! reader --(seq, record)--> workers (1 per PIECE records read, up to the threads asked)
//!    |                        |
//!    +--(seq, read error)-----+--(seq, answer)--> the caller: in order, by seq
//! ```
//!
//! Nothing waits for a batch to fill: a puzzle typed at a terminal, or piped in by a slow
//! generator, is answered as soon as it is read.

use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};

use dlx_sudoku::{Answer, Matrices, Record, Records, Search, Task, Variant, Watch};

use crate::ordered::{Ordered, Producer, ordered};
use crate::report;

/// Records read per worker thread started: a batch of 20 puzzles gets at most 3 threads,
/// however many were asked for (each thread costs its start and the solvers it makes).
const PIECE: u64 = 8;

/// Records a worker takes at once when that many are waiting and the last one it answered was
/// quick (at most [`QUICK`] nodes): one lock for several easy puzzles, while hard ones are taken
/// one by one, so that the last of a batch are shared among the workers.
const TAKEN: usize = 8;

/// See [`TAKEN`].
const QUICK: u64 = 1000;

/// What the stream hands out, in the input's order. (An answer is boxed: moved whole through the
/// channels, its hundreds of bytes cost an easy puzzle more than the allocation.)
pub(super) enum Item {
    /// A record's answer; `None` when Ctrl-C or SIGTERM came before it was whole.
    Answer(Option<Box<Answer>>),
    /// The input could not be read past the record on this line (0: the first record): the
    /// last item.
    Failed(io::Error, usize),
}

/// Everything a worker needs, shared by all.
struct Work {
    matrices: Arc<Matrices>,
    variant: Option<Variant>,
    task: Task,
    jobs: Mutex<Receiver<(u64, Record)>>,
    /// Who shows the long counts, and on how many threads they run.
    watch: Option<(Arc<dyn Watch>, usize)>,
    /// The search that answers.
    search: Search,
}

/// Starts answering `records` for `task` with up to `threads` workers: the answers, in order.
/// `watch` shows the long counts, which then run on its threads; `search` answers.
pub(super) fn answers<R: BufRead + Send + 'static>(
    records: Records<R>,
    threads: usize,
    matrices: Arc<Matrices>,
    variant: Option<Variant>,
    task: Task,
    watch: Option<(Arc<dyn Watch>, usize)>,
    search: Search,
) -> Ordered<Item> {
    let (producer, answers) = ordered();
    let (jobs_tx, jobs) = channel();
    let work = Arc::new(Work { matrices, variant, task, jobs: Mutex::new(jobs), watch, search });
    std::thread::spawn(move || read(records, threads, &work, &jobs_tx, &producer));
    answers
}

/// The reader thread: reads each record (once there is room for it), starts a worker per
/// [`PIECE`] records up to `threads`, and hands the record to them; a read error goes straight
/// to the caller, in its place.
fn read<R: BufRead + Send + 'static>(
    records: Records<R>,
    threads: usize,
    work: &Arc<Work>,
    jobs: &Sender<(u64, Record)>,
    producer: &Producer<Item>,
) {
    let (mut workers, mut last_line) = (0, 0);
    for (seq, record) in (0u64..).zip(records) {
        // The caller has gone (it stopped early): so does the reader.
        if !producer.room(seq) {
            return;
        }
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                producer.send(seq, Item::Failed(e, last_line));
                return;
            }
        };
        last_line = record.line;
        if workers < threads && seq >= workers as u64 * PIECE {
            let (work, producer) = (Arc::clone(work), producer.clone());
            std::thread::spawn(move || answer(&work, &producer));
            workers += 1;
        }
        if jobs.send((seq, record)).is_err() {
            return;
        }
    }
}

/// A worker thread: answers records until there are no more, or no one to hand them to.
fn answer(work: &Work, producer: &Producer<Item>) {
    let mut solvers = work.matrices.solvers();
    solvers.set_search(work.search);
    if let Some((watch, threads)) = &work.watch {
        solvers.watch(Arc::clone(watch), *threads);
    }
    let (mut taken, mut quick) = (Vec::with_capacity(TAKEN), false);
    loop {
        if taken.is_empty() {
            let jobs = work.jobs.lock().unwrap_or_else(PoisonError::into_inner);
            let Ok(job) = jobs.recv() else { return };
            taken.push(job);
            if quick {
                taken.extend(std::iter::from_fn(|| jobs.try_recv().ok()).take(TAKEN - 1));
                taken.reverse();
            }
        }
        let Some((seq, record)) = taken.pop() else { return };
        // After Ctrl-C the rest is not answered; a search it cut short (grids of other sizes can
        // search long) is no answer either.
        let answer = match report::check_interrupt() {
            Ok(()) => {
                Some(Box::new(solvers.answer(record, work.variant, work.task, Some(report::cancel_flag()))))
                    .filter(|_| report::check_interrupt().is_ok())
            }
            Err(_) => None,
        };
        quick = answer.as_ref().is_some_and(|a| a.nodes <= QUICK);
        if !producer.send(seq, Item::Answer(answer)) {
            return;
        }
    }
}
