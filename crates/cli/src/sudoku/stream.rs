//! A batch answered as a stream: the workers read the records themselves, a run of them at a
//! time under a lock, answer them, write what they can of the answers, and hand each run back
//! in the input's order as soon as it and every run before it are done (see
//! [`crate::ordered`]).
//!
//! ```text
//! input --(a run of records, taken in turn)--> worker --(the run, written)--+--> the caller:
//!       --(the next run)---------------------> worker --(the next run)------+    in order
//! ```
//!
//! A worker takes as many records at once as it answers in about [`RUN_TIME`] (at most [`RUN`]),
//! judging by the last it answered, and only those at hand when the input may keep a reader waiting
//! (standard input, a pipe, a device), so that a puzzle typed at a terminal or piped in by a slow
//! generator is answered as soon as it is read. What crosses between threads is then one message
//! per run, and a record is read, answered, written and dropped on one thread: handed from thread
//! to thread, each record and each answer cost an easy puzzle much of what its search costs, and
//! `-j 1` had read and written beside its worker, on a second core (`benches/RESULTS.md`). The
//! answers a worker has made wait in its outbox until the run is done, where the caller takes them
//! when it has waited a while for them ([`Answers::next_written`]): a record is written however
//! long the records after it in its run take.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use dlx_sudoku::{Answer, Matrices, Record, Records, Search, Task, Variant, Watch};

use super::write::Writing;
use crate::input::Lines;
use crate::ordered::{Ordered, Producer, ordered};
use crate::report;

/// Records read per worker thread started: a batch of 20 puzzles gets at most 3 threads,
/// however many were asked for (each thread costs its start and the solvers it makes).
const PIECE: u64 = 8;

/// The most records a worker takes at once.
const RUN: usize = 64;

/// About how long a worker's run of records takes to answer, at most (judged by the run
/// before): long enough that handing the run over costs little beside it, short enough that the
/// last runs of a batch are shared among the workers (hard puzzles are taken one by one).
const RUN_TIME: Duration = Duration::from_micros(500);

/// A run of records' answers, in the input's order, and what ended the stream after them.
pub(super) struct Piece {
    /// The answers.
    pub(super) body: Body,
    /// What ended the stream after these answers, if anything did.
    pub(super) end: Option<End>,
}

/// A run's answers, written or not.
pub(super) enum Body {
    /// Written by the worker (see [`Writing::write`]).
    Written(super::write::Written),
    /// Left for the caller to write, in order.
    Answers(Vec<Answer>),
}

/// What ends a stream.
pub(super) enum End {
    /// Ctrl-C or SIGTERM came before the next answer was whole.
    Stopped,
    /// The input could not be read past the record on this line (0: the first record).
    Failed(io::Error, usize),
}

/// The input, read by the workers in turn.
struct Input<R> {
    records: Records<R>,
    /// The number of the next record (a read error that ends the input has one too).
    next: u64,
    /// The line of the last record read.
    last_line: usize,
    /// Workers started.
    workers: usize,
    /// Nothing more to read: the input ended, or could not be read further.
    ended: bool,
}

/// The answers a worker has made of its run and not handed over yet: the caller may take them
/// while the worker does the rest (see [`Answers::next_written`]).
#[derive(Default)]
struct Outbox {
    /// The number of the first.
    first: u64,
    answers: Vec<Answer>,
}

/// Everything a worker needs, shared by all.
struct Work<R> {
    input: Mutex<Input<R>>,
    /// At most this many workers.
    threads: usize,
    /// Whether reading the input never waits on someone else (a file, an argument): then a
    /// worker takes runs of records whether or not they are in the reader's buffer yet.
    steady: bool,
    /// The search, the task and its rules.
    asked: Asked,
    /// How the answers are written.
    writing: Writing,
    /// Each worker's outbox.
    outboxes: Arc<Mutex<Vec<Arc<Mutex<Outbox>>>>>,
}

/// How a batch is answered: the search, the task and its rules.
pub(super) struct Asked {
    pub(super) matrices: Arc<Matrices>,
    pub(super) variant: Option<Variant>,
    pub(super) task: Task,
    /// Who shows the long counts, which then run on its threads.
    pub(super) watch: Option<(Arc<dyn Watch>, usize)>,
    pub(super) search: Search,
}

/// The caller's end of a stream: the answers in order, a run at a time.
pub(super) struct Answers {
    ordered: Ordered<Piece>,
    outboxes: Arc<Mutex<Vec<Arc<Mutex<Outbox>>>>>,
}

impl Answers {
    /// The next run of answers in order, `None` after the last (see
    /// [`Ordered::next_written`]). Answers a worker has made while it still works on its run
    /// are taken from it once nothing has come for a while: a record is written however long
    /// the records after it in its run take.
    pub(super) fn next_written(
        &mut self,
        flush: impl FnMut() -> io::Result<()>,
    ) -> anyhow::Result<Option<Piece>> {
        let outboxes = &self.outboxes;
        self.ordered.next_written_or(flush, |next| {
            let outboxes = outboxes.lock().unwrap_or_else(PoisonError::into_inner);
            outboxes.iter().find_map(|outbox| {
                let mut outbox = outbox.lock().unwrap_or_else(PoisonError::into_inner);
                if outbox.first != next || outbox.answers.is_empty() {
                    return None;
                }
                let answers = std::mem::take(&mut outbox.answers);
                let count = answers.len() as u64;
                outbox.first += count;
                Some((count, Piece { body: Body::Answers(answers), end: None }))
            })
        })
    }
}

/// Starts answering `records` with up to `threads` workers: the answers, in order, in runs.
/// `steady` says that reading them never waits on someone else (see [`Work::steady`]).
pub(super) fn answers<R: Lines + 'static>(
    records: Records<R>,
    steady: bool,
    threads: usize,
    asked: Asked,
    writing: Writing,
) -> Answers {
    let (producer, ordered) = ordered();
    let input = Input { records, next: 0, last_line: 0, workers: 1, ended: false };
    let outboxes = Arc::default();
    let work = Arc::new(Work {
        input: Mutex::new(input),
        threads: threads.max(1),
        steady,
        asked,
        writing,
        outboxes: Arc::clone(&outboxes),
    });
    std::thread::spawn(move || answer(&work, &producer));
    Answers { ordered, outboxes }
}

/// A worker thread: takes runs of records and answers them until there are no more, or no one
/// to hand them to; starts another worker per [`PIECE`] records read, up to the threads asked.
fn answer<R: Lines + 'static>(work: &Arc<Work<R>>, producer: &Producer<Piece>) {
    let asked = &work.asked;
    let mut solvers = asked.matrices.solvers();
    solvers.set_search(asked.search);
    if let Some((watch, threads)) = &asked.watch {
        solvers.watch(Arc::clone(watch), *threads);
    }
    let outbox = Arc::new(Mutex::new(Outbox::default()));
    work.outboxes.lock().unwrap_or_else(PoisonError::into_inner).push(Arc::clone(&outbox));
    let lock = || outbox.lock().unwrap_or_else(PoisonError::into_inner);
    let (mut records, mut most) = (Vec::<Record>::new(), 1);
    loop {
        let Some((first, mut end)) = take(work, producer, most, &mut records) else { return };
        // The records' numbers, and the read error's after them.
        let last = first + records.len() as u64 + u64::from(end.is_some());
        lock().first = first;
        let start = Instant::now();
        for record in records.drain(..) {
            // After Ctrl-C the rest is not answered; a search it cut short (grids of other sizes
            // can search long) is no answer either.
            if report::check_interrupt().is_err() {
                end = Some(End::Stopped);
                break;
            }
            let a = solvers.answer(record, asked.variant, asked.task, Some(report::cancel_flag()));
            if report::check_interrupt().is_err() {
                end = Some(End::Stopped);
                break;
            }
            lock().answers.push(a);
        }
        // The next run: as many records as take about `RUN_TIME`, at this run's pace.
        let each = start.elapsed() / u32::try_from(last - first).unwrap_or(u32::MAX).max(1);
        most = usize::try_from(RUN_TIME.as_nanos() / each.as_nanos().max(1)).unwrap_or(RUN).clamp(1, RUN);
        // What the caller has not taken: the rest of the run, and the end.
        let (from, answers) = {
            let mut outbox = lock();
            (outbox.first, std::mem::take(&mut outbox.answers))
        };
        if from == last {
            continue;
        }
        let ended = end.is_some();
        let piece = Piece { body: work.writing.write(answers), end };
        if !producer.send_run(from, last - from, piece) || ended {
            return;
        }
    }
}

/// Takes the next run of up to `most` records into `records`: the number of its first, and the
/// read error that ends it, if one does; `None` when there is nothing more to read, or the
/// caller has gone.
fn take<R: Lines + 'static>(
    work: &Arc<Work<R>>,
    producer: &Producer<Piece>,
    most: usize,
    records: &mut Vec<Record>,
) -> Option<(u64, Option<End>)> {
    let mut input = work.input.lock().unwrap_or_else(PoisonError::into_inner);
    // The caller has gone (it stopped early), or the input has ended.
    if input.ended || !producer.room(input.next) {
        return None;
    }
    let mut end = None;
    // A record more only when reading it keeps no one waiting.
    while records.len() < most && (records.is_empty() || work.steady || input.records.get_ref().line_ready())
    {
        match input.records.next() {
            Some(Ok(record)) => {
                input.last_line = record.line;
                records.push(record);
            }
            Some(Err(e)) => {
                end = Some(End::Failed(e, input.last_line));
                input.ended = true;
                break;
            }
            None => {
                input.ended = true;
                break;
            }
        }
    }
    if records.is_empty() && end.is_none() {
        return None;
    }
    let first = input.next;
    input.next += records.len() as u64;
    if !input.ended && input.workers < work.threads && input.next >= input.workers as u64 * PIECE {
        input.workers += 1;
        let (work, producer) = (Arc::clone(work), producer.clone());
        std::thread::spawn(move || answer(&work, &producer));
    }
    Some((first, end))
}
