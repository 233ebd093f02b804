//! The `dlx` Python package's native module, `dlx._native`: the exact-cover engine
//! (`dlx-engine`) and the sudoku library (`dlx-sudoku`) as Python classes and functions.
//!
//! - `problem`: a `Problem` built from Python data (any hashable labels,
//!   colors, bounds) or read from Knuth's `.dlx` format;
//! - `solver`: a `Solver` with first, count (on every core), a lazy iterator
//!   of solutions, statistics, budgets, seeds, forced and excluded options and shards;
//! - `wait`: every search runs on a thread of its own, without the GIL, while the caller's
//!   thread looks for Ctrl-C every `wait::TICK` (a `KeyboardInterrupt` cancels the search);
//! - `sudoku`: solving, counting, rating, generating and drawing puzzles, as `dlx` does.
//!
//! The Python side (`python/dlx`) re-exports these, with type stubs and docstrings.

#![deny(missing_docs)]

use pyo3::prelude::*;

mod count;
mod problem;
mod solver;
mod sudoku;
mod wait;

pyo3::create_exception!(
    _native,
    Interrupted,
    pyo3::exceptions::PyRuntimeError,
    "A search stopped by its budget before its end: what it found is not the whole answer."
);

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<problem::PyProblem>()?;
    m.add_class::<solver::PySolver>()?;
    m.add_class::<solver::PySolutions>()?;
    m.add_class::<solver::PyStats>()?;
    m.add("Interrupted", m.py().get_type::<Interrupted>())?;
    let sudoku = PyModule::new(m.py(), "sudoku")?;
    sudoku::register(&sudoku)?;
    m.add_submodule(&sudoku)?;
    Ok(())
}
