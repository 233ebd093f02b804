//! `dlx.Problem`: an exact-cover problem built from Python data, or read from `.dlx` text.
//!
//! Items are any hashable labels (strings, numbers, tuples); an option is an iterable of them,
//! or a string of them separated by spaces. A secondary item may carry a color in an option:
//! `(item, color)` with any hashable color, or `"item:color"` for a string label. Bounds on
//! primary items (Knuth's multiplicities) are a dict, `{item: (low, high)}` or `{item: count}`.
//! The engine names items by their `str` when those are distinct names of the `.dlx` format, and
//! `#k` otherwise; the labels are kept to give solutions back as the caller's own objects.

use std::sync::Arc;

use dlx_engine::{CancelFlag, DlxRead, ItemId, Preprocessing, Problem, ProblemBuilder};
use pyo3::exceptions::{PyOSError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

/// An exact-cover problem: primary items that every solution covers exactly once (or within
/// their bounds), secondary items covered at most once (or all in one color), and options.
#[pyclass(name = "Problem", module = "dlx", frozen)]
pub(crate) struct PyProblem {
    /// The engine's problem, shared with the searches' threads.
    pub(crate) problem: Arc<Problem>,
    /// Each item's label, by item number.
    pub(crate) labels: Vec<Py<PyAny>>,
    /// Each option as given: a tuple of its elements, by option number.
    pub(crate) options: Vec<Py<PyTuple>>,
}

/// Whether `name` is an item or color name of the `.dlx` format.
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('\u{feff}')
        && !name.chars().any(|c| c.is_whitespace() || c == '|' || c == ':')
}

/// The elements of an option: a string's words, or the items of any other iterable.
fn elements<'py>(option: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(text) = option.cast::<PyString>() {
        let py = option.py();
        return Ok(text.to_cow()?.split_whitespace().map(|w| PyString::new(py, w).into_any()).collect());
    }
    option.try_iter()?.collect()
}

/// The item number of `label` in `index` (label to number), if it is an item.
fn item_of(index: &Bound<'_, PyDict>, label: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if label.hash().is_err() {
        return Ok(None);
    }
    index.get_item(label)?.map(|k| k.extract()).transpose()
}

impl PyProblem {
    /// The options named by `labels` (each an option number, or an option given as when the
    /// problem was made): for `force=` and `exclude=`.
    pub(crate) fn option_numbers(&self, given: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let mut numbers = Vec::new();
        for option in given.try_iter()? {
            let option = option?;
            let k: usize = option.extract().map_err(|_| {
                PyValueError::new_err(format!(
                    "{} is not an option number",
                    option.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                ))
            })?;
            if k >= self.options.len() {
                return Err(PyValueError::new_err(format!(
                    "option {k} does not exist: the problem has {} options",
                    self.options.len()
                )));
            }
            numbers.push(k);
        }
        Ok(numbers)
    }
}

#[pymethods]
impl PyProblem {
    /// Problem(primary, secondary=(), options=(), bounds=None, costs=None): `costs`, one whole
    /// number per option (as Knuth's DLX5 takes them), for `Solver.best`.
    #[new]
    #[pyo3(signature = (primary, secondary = None, options = None, bounds = None, costs = None))]
    fn new(
        py: Python<'_>,
        primary: &Bound<'_, PyAny>,
        secondary: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        bounds: Option<&Bound<'_, PyDict>>,
        costs: Option<Vec<u64>>,
    ) -> PyResult<Self> {
        let primary: Vec<Bound<'_, PyAny>> = primary.try_iter()?.collect::<PyResult<_>>()?;
        let secondary: Vec<Bound<'_, PyAny>> = match secondary {
            Some(s) => s.try_iter()?.collect::<PyResult<_>>()?,
            None => Vec::new(),
        };
        let index = PyDict::new(py);
        let mut labels = Vec::with_capacity(primary.len() + secondary.len());
        let mut names = Vec::with_capacity(labels.capacity());
        for (k, label) in primary.iter().chain(&secondary).enumerate() {
            if index.contains(label)? {
                return Err(PyValueError::new_err(format!("item {} is given twice", label.repr()?)));
            }
            index.set_item(label, k)?;
            labels.push(label.clone().unbind());
            names.push(label.str()?.to_string());
        }
        // Items keep their own names when those are names of the format, all distinct.
        let mut seen = std::collections::HashSet::new();
        let named = names.iter().all(|n| is_name(n) && seen.insert(n.as_str()));
        let mut builder = ProblemBuilder::new();
        let declare = |builder: &mut ProblemBuilder, k: usize, bounds: Option<(u32, u32)>| {
            let result = match (named, bounds, k < primary.len()) {
                (true, Some((lo, hi)), _) => builder.primary_with_bounds(names[k].clone(), lo..=hi),
                (true, None, true) => builder.primary(names[k].clone()),
                (true, None, false) => builder.secondary(names[k].clone()),
                (false, Some((lo, hi)), _) => builder.primary_with_bounds(format!("#{k}"), lo..=hi),
                (false, None, true) => builder.anonymous_primary(),
                (false, None, false) => builder.anonymous_secondary(),
            };
            result.map_err(|e| PyValueError::new_err(e.to_string()))
        };
        let mut item_bounds = vec![None; primary.len()];
        if let Some(bounds) = bounds {
            for (label, bound) in bounds.iter() {
                let k = match index.get_item(&label)? {
                    Some(k) => k.extract::<usize>()?,
                    None => {
                        return Err(PyValueError::new_err(format!(
                            "bounds for unknown item {}",
                            label.repr()?
                        )));
                    }
                };
                if k >= primary.len() {
                    return Err(PyValueError::new_err(format!(
                        "bounds for secondary item {}: only primary items have bounds",
                        label.repr()?
                    )));
                }
                let (lo, hi) = match bound.extract::<u32>() {
                    Ok(n) => (n, n),
                    Err(_) => bound.extract::<(u32, u32)>().map_err(|_| {
                        PyValueError::new_err(format!(
                            "the bounds of item {} are {}: give (low, high) or a count",
                            label.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                            bound.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                        ))
                    })?,
                };
                item_bounds[k] = Some((lo, hi));
            }
        }
        for k in 0..labels.len() {
            declare(&mut builder, k, item_bounds.get(k).copied().flatten())?;
        }
        // Colors: each distinct color value its name (its `str` when that is a free name).
        let colors = PyDict::new(py);
        let mut color_names: Vec<String> = Vec::new();
        let mut given = Vec::new();
        if let Some(options) = options {
            if options.is_instance_of::<PyString>() {
                // Iterated, a string would be options of one letter each.
                return Err(PyTypeError::new_err(
                    "options= is a list of options (a string is one option: [\"a b\"])",
                ));
            }
            for (o, option) in options.try_iter()?.enumerate() {
                let option = option?;
                let elements = elements(&option)?;
                let mut items: Vec<(ItemId, Option<usize>)> = Vec::with_capacity(elements.len());
                for element in &elements {
                    let (k, color) = match item_of(&index, element)? {
                        Some(k) => (k, None),
                        None => match resolve_colored(&index, element)? {
                            Some((k, color)) => (k, Some(color)),
                            None => {
                                let shown = element.repr().map_or_else(|_| "?".into(), |r| r.to_string());
                                return Err(PyValueError::new_err(format!(
                                    "option {o}: unknown item {shown}"
                                )));
                            }
                        },
                    };
                    let color = match color {
                        None => None,
                        Some(color) => {
                            if k < primary.len() {
                                return Err(PyValueError::new_err(format!(
                                    "option {o}: item {} is primary: only secondary items take colors",
                                    labels[k].bind(py).repr()?
                                )));
                            }
                            let c = match colors.get_item(&color)? {
                                Some(c) => c.extract::<usize>()?,
                                None => {
                                    let c = color_names.len();
                                    let text = color.str()?.to_string();
                                    let name = if is_name(&text) && !color_names.contains(&text) {
                                        text
                                    } else {
                                        (c..)
                                            .map(|n| format!("c{n}"))
                                            .find(|n| !color_names.contains(n))
                                            .expect("a free name")
                                    };
                                    color_names.push(name);
                                    colors.set_item(&color, c)?;
                                    c
                                }
                            };
                            Some(c)
                        }
                    };
                    items.push((
                        ItemId::new(k).ok_or_else(|| PyValueError::new_err("too many items"))?,
                        color,
                    ));
                }
                let added = builder
                    .option_with_colors(
                        items.iter().map(|&(item, c)| (item, c.map(|c| color_names[c].as_str()))),
                    )
                    .map_err(|e| {
                        // The engine numbers the options as here (each goes to it in order); its
                        // message may name the option already.
                        let text = e.to_string();
                        let named = text.starts_with(&format!("option {o} "));
                        PyValueError::new_err(if named { text } else { format!("option {o}: {text}") })
                    })?;
                if let Some(&cost) = costs.as_ref().and_then(|c| c.get(o)) {
                    builder.set_cost(added, cost).expect("the option just added");
                }
                given.push(PyTuple::new(py, &elements)?.unbind());
            }
        }
        if let Some(costs) = &costs
            && costs.len() != given.len()
        {
            return Err(PyValueError::new_err(format!(
                "{} costs for {} options: give one per option",
                costs.len(),
                given.len()
            )));
        }
        Ok(PyProblem { problem: Arc::new(builder.build()), labels, options: given })
    }

    /// Problem.from_matrix(matrix, *, secondary=(), names=None): a problem from a 0/1 matrix, a
    /// list of lists or a numpy array (any rows of ints or bools): the columns are the items
    /// (named `names`, else their numbers 0, 1, ...), each row an option of the columns where it
    /// has a 1, numbered as the rows. `secondary` names the columns covered at most once. A
    /// value other than 0 or 1, rows of different lengths or a row without a 1 raise ValueError
    /// with the row and column.
    #[staticmethod]
    #[pyo3(signature = (matrix, *, secondary = None, names = None))]
    fn from_matrix(
        py: Python<'_>,
        matrix: &Bound<'_, PyAny>,
        secondary: Option<&Bound<'_, PyAny>>,
        names: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        if matrix.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err("matrix= is rows of 0s and 1s, not a string"));
        }
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut width = None;
        for (r, row) in matrix.try_iter()?.enumerate() {
            let row = row?;
            let mut ones = Vec::new();
            let mut columns = 0;
            for (c, value) in row.try_iter()?.enumerate() {
                let value = value?;
                let bit = match value.extract::<i64>() {
                    Ok(n) => n,
                    Err(_) => value.extract::<bool>().map(i64::from).unwrap_or(-1),
                };
                match bit {
                    0 => {}
                    1 => ones.push(c),
                    _ => {
                        return Err(PyValueError::new_err(format!(
                            "row {r}, column {c}: {} is not 0 or 1",
                            value.str()?
                        )));
                    }
                }
                columns = c + 1;
            }
            match width {
                None => width = Some(columns),
                Some(w) if w != columns => {
                    return Err(PyValueError::new_err(format!(
                        "row {r} has {columns} columns, row 0 has {w}: a matrix's rows are alike"
                    )));
                }
                Some(_) => {}
            }
            if ones.is_empty() {
                return Err(PyValueError::new_err(format!("row {r} has no 1: an option covers some item")));
            }
            rows.push(ones);
        }
        let labels: Vec<Bound<'_, PyAny>> = match names {
            Some(names) => names.try_iter()?.collect::<PyResult<_>>()?,
            None => (0..width.unwrap_or(0)).map(|c| pyo3::types::PyInt::new(py, c).into_any()).collect(),
        };
        if let Some(width) = width.filter(|&w| w != labels.len()) {
            return Err(PyValueError::new_err(format!(
                "names= gives {} names for {width} columns",
                labels.len()
            )));
        }
        let secondary: Vec<Bound<'_, PyAny>> = match secondary {
            Some(s) => s.try_iter()?.collect::<PyResult<_>>()?,
            None => Vec::new(),
        };
        let mut is_secondary = vec![false; labels.len()];
        for label in &secondary {
            let column = labels.iter().position(|l| l.eq(label).unwrap_or(false)).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "secondary= names {}, which is no column",
                    label.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                ))
            })?;
            is_secondary[column] = true;
        }
        let split = |second: bool| {
            let columns = labels.iter().zip(&is_secondary).filter(|&(_, &s)| s == second);
            PyList::new(py, columns.map(|(l, _)| l))
        };
        let options = PyList::empty(py);
        for ones in &rows {
            options.append(PyTuple::new(py, ones.iter().map(|&c| &labels[c]))?)?;
        }
        PyProblem::new(
            py,
            split(false)?.as_any(),
            Some(split(true)?.as_any()),
            Some(options.as_any()),
            None,
            None,
        )
    }

    /// Problem.from_dlx(text): a problem in Knuth's `.dlx` format (items by name, colors as
    /// `item:color`). A malformed text raises ValueError with its line and column.
    #[staticmethod]
    /// An option with no primary item is skipped with a warning (`UserWarning`), as `dlx xc` and
    /// Knuth's programs skip it.
    fn from_dlx(py: Python<'_>, text: &str) -> PyResult<Self> {
        let read = Problem::read_dlx(text.as_bytes()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        warn_read(py, "", &read)?;
        Ok(Self::of_engine(py, read.problem))
    }

    /// Problem.read(path): a problem read from a `.dlx` file.
    #[staticmethod]
    fn read(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let bytes = std::fs::read(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: cannot read: {e}", path.display())))?;
        let read = Problem::read_dlx(&bytes)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        warn_read(py, &format!("{}:", path.display()), &read)?;
        Ok(Self::of_engine(py, read.problem))
    }

    /// The problem in Knuth's `.dlx` format.
    fn to_dlx(&self) -> String {
        self.problem.to_dlx()
    }

    /// The items' labels, primary ones first.
    #[getter]
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.labels.iter().map(|l| l.bind(py)))
    }

    /// The options, each a tuple of its elements as given.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.options.iter().map(|o| o.bind(py)))
    }

    /// problem.preprocess(rounds=None): the smaller problem Knuth's DLX-PRE makes (options and
    /// items no solution needs removed; the same solutions), and each of its options' number in
    /// this problem: `(smaller, origin)`, a solution `s` of `smaller` by option numbers being
    /// `[origin[k] for k in s]` here. Items keep their labels, options their elements (less the
    /// items removed). `rounds` stops sooner. A problem with bounds raises ValueError; a primary
    /// item left without options makes `smaller` that item alone, without options.
    #[pyo3(signature = (rounds = None))]
    fn preprocess(&self, py: Python<'_>, rounds: Option<usize>) -> PyResult<(Self, Vec<usize>)> {
        // Off the GIL, stopped by Ctrl-C (which raises KeyboardInterrupt from the wait).
        let cancel = CancelFlag::new();
        let settings = Preprocessing { max_rounds: rounds, cancel: Some(cancel.clone()) };
        let problem = Arc::clone(&self.problem);
        let reduced = crate::wait::interruptible(py, &cancel, move || problem.preprocess_with(&settings))?
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let smaller = reduced.problem();
        // Items by name: the smaller problem's are some of this one's.
        let labels: Vec<Py<PyAny>> = smaller
            .items()
            .map(|item| {
                let original = self.problem.item(smaller.item_name(item)).expect("an item of the problem");
                self.labels[original.index()].clone_ref(py)
            })
            .collect();
        let mut origin = Vec::with_capacity(smaller.option_count());
        let mut options = Vec::with_capacity(smaller.option_count());
        for option in smaller.options() {
            let original = reduced.original_option(option);
            origin.push(original.index());
            // The elements as given, less those of the items removed (an option's elements are
            // in the order of its items).
            let given = self.options[original.index()].bind(py);
            let kept: Vec<Bound<'_, PyAny>> = self
                .problem
                .option_items(original)
                .zip(given.iter())
                .filter_map(|(item, element)| smaller.item(self.problem.item_name(item)).map(|_| element))
                .collect();
            options.push(PyTuple::new(py, kept)?.unbind());
        }
        let smaller = PyProblem { problem: Arc::new(smaller.clone()), labels, options };
        Ok((smaller, origin))
    }

    /// The number of options.
    fn __len__(&self) -> usize {
        self.options.len()
    }

    /// Pickling (for Dask, Ray, multiprocessing): the problem's `.dlx` text, which keeps its
    /// items, colors, bounds and costs exactly, with the items' labels and the options as given
    /// (Python objects, pickled as Python pickles them).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.get_type::<PyProblem>().getattr("_restore")?;
        let labels = PyList::new(py, self.labels.iter().map(|l| l.bind(py)))?;
        let options = PyList::new(py, self.options.iter().map(|o| o.bind(py)))?;
        let args = PyTuple::new(
            py,
            [self.problem.to_dlx().into_pyobject(py)?.into_any(), labels.into_any(), options.into_any()],
        )?;
        Ok((restore, args))
    }

    /// The inverse of `__reduce__`: the problem of a `.dlx` text, with these labels and options.
    #[staticmethod]
    fn _restore(text: &str, labels: Vec<Py<PyAny>>, options: Vec<Py<PyTuple>>) -> PyResult<Self> {
        let problem = Problem::parse_dlx(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        if labels.len() != problem.item_count() || options.len() != problem.option_count() {
            return Err(PyValueError::new_err(
                "a pickled problem whose labels or options do not fit its text",
            ));
        }
        Ok(PyProblem { problem: Arc::new(problem), labels, options })
    }

    pub(crate) fn __repr__(&self) -> String {
        let p = &self.problem;
        let extras = match (p.has_colors(), p.has_multiplicities()) {
            (true, true) => ", colors, bounds",
            (true, false) => ", colors",
            (false, true) => ", bounds",
            (false, false) => "",
        };
        format!(
            "<dlx.Problem: {} primary, {} secondary items, {} options{extras}>",
            p.primary_count(),
            p.secondary_count(),
            p.option_count()
        )
    }
}

impl PyProblem {
    /// A problem read by the engine: items labelled by their names, options by their words.
    fn of_engine(py: Python<'_>, problem: Problem) -> PyProblem {
        let labels: Vec<Py<PyAny>> = problem
            .items()
            .map(|item| PyString::new(py, problem.item_name(item)).into_any().unbind())
            .collect();
        let options = problem
            .options()
            .map(|option| {
                let words =
                    problem.option_items(option).zip(problem.option_colors(option)).map(|(item, color)| {
                        let name = problem.item_name(item);
                        match color {
                            Some(color) => format!("{name}:{color}"),
                            None => name.to_owned(),
                        }
                    });
                PyTuple::new(py, words).expect("strings make a tuple").unbind()
            })
            .collect();
        PyProblem { problem: Arc::new(problem), labels, options }
    }
}

/// An element that names a secondary item with a color: `(item, color)`, or `"item:color"`.
fn resolve_colored<'py>(
    index: &Bound<'py, PyDict>,
    element: &Bound<'py, PyAny>,
) -> PyResult<Option<(usize, Bound<'py, PyAny>)>> {
    let py = element.py();
    if let Ok(pair) = element.cast::<PyTuple>()
        && pair.len() == 2
        && let Some(k) = item_of(index, &pair.get_item(0)?)?
    {
        return Ok(Some((k, pair.get_item(1)?)));
    }
    if let Ok(text) = element.cast::<PyString>()
        && let Some((name, color)) = text.to_cow()?.rsplit_once(':')
        && let Some(k) = item_of(index, &PyString::new(py, name).into_any())?
    {
        return Ok(Some((k, PyString::new(py, color).into_any())));
    }
    Ok(None)
}

/// Warns (`UserWarning`) of what reading a `.dlx` passed over, as `dlx xc` says it on stderr:
/// options without a primary item, and options that repeat the item line; `at` names the file.
fn warn_read(py: Python<'_>, at: &str, read: &DlxRead) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    for line in &read.skipped {
        let message = format!("{at}line {line}: option skipped: it has no primary item");
        PyErr::warn(py, &category, &std::ffi::CString::new(message).expect("no NUL"), 1)?;
    }
    if let Some(&line) = read.items_again.first() {
        let message = format!(
            "{at}line {line}: this option repeats the item line: a second problem? (read as options)"
        );
        PyErr::warn(py, &category, &std::ffi::CString::new(message).expect("no NUL"), 1)?;
    }
    Ok(())
}
