//! `dlx.sudoku`: puzzles of every size and rule set, over the library `dlx` itself uses, so the
//! answers and the generated puzzles are the command's own for the same input and seed.
//!
//! A puzzle is given as text in any form `dlx solve` reads (a line of 81 or any size's cells with
//! its rule fields, a block grid, a JSON record), or as a dict of a JSON record's fields (such as
//! `generate()` returns), which the library reads as that record. `rules` adds rules by name, as
//! `dlx --rules` does.

use dlx_engine::CancelFlag;
use dlx_sudoku::{
    Defaults, Extras, Level, Matrices, Matrix, NamedRules, Plan, Puzzle, Rated, Record, Records, RuleName,
    Run, Size, SolveError, SudokuSolver, Symmetry, Uniqueness, Variant, to_svg,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::wait::interruptible;

pyo3::create_exception!(
    sudoku,
    MultipleSolutions,
    PyValueError,
    "A puzzle given to solve() has more than one solution: args are the message and two of them."
);

/// The rule names of a `rules=` argument: a string of names separated by commas or spaces
/// (`"diagonal"`, `"diagonal,windoku"`), or an iterable of names.
fn rule_names(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(rules) = rules else { return Ok(Vec::new()) };
    if let Ok(text) = rules.extract::<String>() {
        return Ok(text.split([',', ' ']).filter(|n| !n.is_empty()).map(str::to_owned).collect());
    }
    let wrong =
        || PyTypeError::new_err("rules= is a string of names (\"diagonal,windoku\") or an iterable of names");
    let mut names = Vec::new();
    for name in rules.try_iter().map_err(|_| wrong())? {
        names.push(name?.extract::<String>().map_err(|_| wrong())?);
    }
    Ok(names)
}

/// What `rules` name (see [`NamedRules::of`]), refusing the rules made up for each puzzle unless
/// `generating`.
fn named(rules: Option<&Bound<'_, PyAny>>, generating: bool) -> PyResult<NamedRules> {
    let mut names = Vec::new();
    for name in rule_names(rules)? {
        let name = name.parse::<RuleName>().map_err(|e| PyValueError::new_err(e.to_string()))?;
        if name.is_made_up() && !generating {
            return Err(PyValueError::new_err(format!(
                "{name} rules come with each puzzle (its fields); generate() makes them up"
            )));
        }
        names.push(name);
    }
    Ok(NamedRules::of(names))
}

/// The one puzzle `given` holds (text, or a dict of a JSON record's fields), with `rules` added.
fn puzzle(given: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Puzzle> {
    let named = named(rules, false)?;
    let defaults = Defaults { constraints: named.constraints.clone(), ..Defaults::default() };
    let records: Vec<Record> = if let Ok(dict) = given.cast::<PyDict>() {
        // A record as the library reads one of the JSON form: the dict's own values.
        vec![Record::from_json(&value_of(dict.as_any())?, &defaults)]
    } else {
        let text: String = given
            .extract()
            .map_err(|_| PyValueError::new_err("a puzzle is text, or a dict of a JSON record's fields"))?;
        let mut records = Records::new(text.as_bytes());
        if !named.constraints.is_empty() {
            records = records.with_grid_defaults(defaults);
        }
        records.collect::<Result<_, _>>().map_err(error)?
    };
    let mut found = None;
    for record in records {
        if found.is_some() {
            return Err(PyValueError::new_err(format!("line {}: one puzzle at a time", record.line)));
        }
        let grid = record.puzzle_with(named.variant).map_err(|e| {
            let at = e.column.map_or(e.line.to_string(), |c| format!("{}:{c}", e.line));
            PyValueError::new_err(format!("line {at}: {}", e.kind))
        })?;
        grid.rules().validate().map_err(|e| PyValueError::new_err(e.to_string()))?;
        grid.check().map_err(|e| PyValueError::new_err(e.to_string()))?;
        found = Some(grid);
    }
    found.ok_or_else(|| PyValueError::new_err("no puzzle in the text"))
}

/// A Python value of a record (`None`, booleans, numbers, strings, and lists and dicts of them)
/// as the library's JSON value: the reverse of [`json_value`].
fn value_of(object: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if object.is_none() {
        return Ok(Value::Null);
    }
    // `bool` before `int`: Python's `True` is an `int` too.
    if let Ok(b) = object.cast::<pyo3::types::PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(n) = object.extract::<u64>() {
        return Ok(n.into());
    }
    if let Ok(n) = object.extract::<i64>() {
        return Ok(n.into());
    }
    if let Ok(s) = object.cast::<pyo3::types::PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(x) = object.cast::<pyo3::types::PyFloat>() {
        return serde_json::Number::from_f64(x.value())
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err(format!("{x} is not a number JSON has")));
    }
    if let Ok(dict) = object.cast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (key, item) in dict {
            let key: String = key
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("a record's keys are strings, not {key:?}")))?;
            map.insert(key, value_of(&item)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = object.cast::<PyList>() {
        return list.iter().map(|item| value_of(&item)).collect::<PyResult<_>>().map(Value::Array);
    }
    if let Ok(tuple) = object.cast::<pyo3::types::PyTuple>() {
        return tuple.iter().map(|item| value_of(&item)).collect::<PyResult<_>>().map(Value::Array);
    }
    Err(PyTypeError::new_err(format!(
        "a record holds strings, numbers, None, lists and dicts, not {}",
        object.get_type().name()?
    )))
}

/// The 9x9 variants' matrices, built once for the process when a puzzle first needs each (as
/// the command keeps them for a batch).
static MATRICES: std::sync::LazyLock<Matrices> = std::sync::LazyLock::new(Matrices::new);

/// Runs `search` on a solver of `grid`'s rules (over the kept matrix of its variant, or a new one
/// for other rules), off the GIL and stopped by Ctrl-C.
fn searched<T: Send>(
    py: Python<'_>,
    grid: &Puzzle,
    search: impl FnOnce(&mut SudokuSolver<'_>) -> Result<T, SolveError> + Send,
) -> PyResult<T> {
    let cancel = CancelFlag::new();
    let done = interruptible(py, &cancel, || {
        MATRICES.solvers().with(grid, |solver| {
            solver.set_cancel_flag(Some(cancel.clone()));
            search(solver)
        })
    })?;
    done.map_err(error)
}

/// A search's error as Python's.
fn error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// solve(puzzle, rules=None, unique=True): the solution (a line of its cells), or None when
/// there is none. A puzzle with more than one raises `MultipleSolutions` (holding two of them),
/// as the command says "multiple solutions"; `unique=False` returns the first found instead.
#[pyfunction]
#[pyo3(signature = (puzzle, rules = None, unique = true))]
fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    unique: bool,
) -> PyResult<Option<String>> {
    let grid = self::puzzle(puzzle, rules)?;
    if !unique {
        return Ok(searched(py, &grid, |solver| solver.first(&grid))?.map(|s| s.to_line()));
    }
    match searched(py, &grid, |solver| solver.check_unique(&grid))? {
        Uniqueness::Unique(solution) => Ok(Some(solution.to_line())),
        Uniqueness::None => Ok(None),
        Uniqueness::Multiple(one, two) => Err(MultipleSolutions::new_err((
            "the puzzle has multiple solutions (unique=False returns the first found)",
            one.to_line(),
            two.to_line(),
        ))),
    }
}

/// count(puzzle, limit=None, rules=None): the number of solutions (at most `limit`).
#[pyfunction]
#[pyo3(signature = (puzzle, limit = None, rules = None))]
fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: Option<u64>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let grid = self::puzzle(puzzle, rules)?;
    searched(py, &grid, |solver| solver.count(&grid, limit))
}

/// check(puzzle, rules=None): "unique", "none" or "multiple".
#[pyfunction]
#[pyo3(signature = (puzzle, rules = None))]
fn check(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<&'static str> {
    let grid = self::puzzle(puzzle, rules)?;
    Ok(match searched(py, &grid, |solver| solver.check_unique(&grid))? {
        Uniqueness::Unique(_) => "unique",
        Uniqueness::None => "none",
        _ => "multiple",
    })
}

/// rate(puzzle, rules=None): a dict of the level, the rating on Sudoku Explainer's scale, the
/// hardest technique, the number of solutions (up to 2) and the search effort, as `dlx rate`.
#[pyfunction]
#[pyo3(signature = (puzzle, rules = None))]
fn rate<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let grid = self::puzzle(puzzle, rules)?;
    let rating = searched(py, &grid, |solver| solver.rate(&grid))?;
    let dict = PyDict::new(py);
    dict.set_item("level", rating.logic.level().name())?;
    dict.set_item("rating", rating.logic.rating())?;
    dict.set_item("technique", rating.logic.hardest_name())?;
    dict.set_item("solutions", rating.solutions)?;
    dict.set_item("nodes", rating.nodes)?;
    dict.set_item("guesses", rating.guesses)?;
    Ok(dict)
}

/// svg(puzzle, rules=None): the puzzle drawn as an SVG document.
#[pyfunction]
#[pyo3(signature = (puzzle, rules = None))]
fn svg(puzzle: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    Ok(to_svg(&self::puzzle(puzzle, rules)?))
}

/// generate(n=1, size=9, rules=None, difficulty=None, seed=0, symmetry=None, minimal=False):
/// puzzles as `dlx generate --seed SEED -f json` makes them, one dict each (`puzzle`, `solution`,
/// `level`, `technique`, `seed`, `minimal`, and the rules' fields).
#[pyfunction]
#[pyo3(signature = (n = 1, size = None, rules = None, difficulty = None, seed = 0, symmetry = None, minimal = false))]
#[allow(clippy::too_many_arguments)]
fn generate<'py>(
    py: Python<'py>,
    n: u64,
    size: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    difficulty: Option<&str>,
    seed: u64,
    symmetry: Option<&str>,
    minimal: bool,
) -> PyResult<Bound<'py, PyList>> {
    let named = named(rules, true)?;
    let size = match size {
        None => Size::CLASSIC,
        Some(size) => size.str()?.to_cow()?.parse::<Size>().map_err(error)?,
    };
    let level = difficulty.map(|d| d.parse::<Level>().map_err(error)).transpose()?;
    let symmetry = symmetry.map(|s| s.parse::<Symmetry>().map_err(error)).transpose()?;
    let run = Run { level, ease: !minimal, ..Run::new(seed) };
    let variant = named.variant.unwrap_or(Variant::Classic);
    // The command's own plan: the same rules, generator and run for the same arguments.
    let plan =
        Plan::new(size, variant, &named.constraints, Extras::from(&named), symmetry, run).map_err(error)?;
    let cancel = CancelFlag::new();
    let made = interruptible(py, &cancel, || {
        let matrix = Matrix::new(&plan.rules);
        let mut generator = plan.generator(&matrix, Some(cancel.clone()));
        (0..n)
            .map(|index| plan.make(&mut generator, index, &mut |_, _| {}, Some(&cancel)))
            .collect::<Vec<_>>()
    })?;
    let list = PyList::empty(py);
    for numbered in made {
        let numbered = numbered.map_err(error)?;
        let rated = Rated::of(&numbered.generated.puzzle);
        let record = plan.record(&numbered, Some(rated));
        let dict = PyDict::new(py);
        for (key, value) in &record {
            dict.set_item(key, json_value(py, value)?)?;
        }
        list.append(dict)?;
    }
    Ok(list)
}

/// A value of a record (strings, numbers, `null`, and lists and maps of them) as a Python object.
fn json_value<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_value(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_value(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Adds the functions to the `sudoku` module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MultipleSolutions", m.py().get_type::<MultipleSolutions>())?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    Ok(())
}
