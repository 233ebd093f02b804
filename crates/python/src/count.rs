//! Counts of solutions as Python's `int`, exact however large: one that fits in 128 bits is
//! converted directly, a larger one through its decimal digits.

use dlx_engine::Count;
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// A count on its way to Python, as an `int`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PyCount(pub(crate) Count);

impl<'py> IntoPyObject<'py> for &PyCount {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.0.to_u128() {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => py.get_type::<PyInt>().call1((self.0.to_string(),)),
        }
    }
}

impl<'py> IntoPyObject<'py> for PyCount {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        (&self).into_pyobject(py)
    }
}

impl std::fmt::Display for PyCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
