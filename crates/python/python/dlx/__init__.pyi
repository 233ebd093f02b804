from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from os import PathLike
from typing import Any, Callable, Literal, Optional, TypedDict, Union, overload

from . import sudoku as sudoku

Label = Hashable
Element = Union[Hashable, tuple[Hashable, Hashable], str]
Option = Union[str, Iterable[Element]]

class CountProgress(TypedDict):
    """What ``Solver.count(progress=...)`` is called with."""
    fraction: float
    solutions: int
    nodes: int
    seconds: float
    left: Optional[float]

class Estimate(TypedDict):
    """``Solver.estimate()``: the nodes and solutions a count would meet, means over the paths."""
    nodes: float
    solutions: float

def covers(
    options: Iterable[Option],
    primary: Optional[Iterable[Label]] = None,
    secondary: Iterable[Label] = (),
    *,
    labels: bool = False,
    **settings: Any,
) -> Solutions:
    """Every exact cover of ``options``, lazily: each a list of option numbers (the options as
    given with ``labels=True``). ``primary`` defaults to every item the options name that is not
    ``secondary``; ``settings`` are ``Solver``'s."""

class Interrupted(RuntimeError):
    """A search stopped by its budget before its end: what it found is not the whole answer."""

class Stats:
    """The figures of a search."""
    @property
    def nodes(self) -> int: ...
    @property
    def guesses(self) -> int: ...
    @property
    def updates(self) -> int: ...
    @property
    def solutions(self) -> int: ...
    @property
    def cleansings(self) -> int: ...

class Problem:
    """An exact-cover problem.

    ``primary`` items are covered exactly once by every solution (or within ``bounds``:
    ``{item: (low, high)}`` or ``{item: count}``), ``secondary`` ones at most once, or all in one
    color. An option is an iterable of item labels, or a string of them separated by spaces; a
    secondary item carries a color as ``(item, color)`` or ``"item:color"``.
    """
    def __init__(
        self,
        primary: Iterable[Label],
        secondary: Optional[Iterable[Label]] = None,
        options: Optional[Iterable[Option]] = None,
        bounds: Optional[Mapping[Label, Union[int, tuple[int, int]]]] = None,
        costs: Optional[Sequence[int]] = None,
    ) -> None: ...
    @staticmethod
    def from_matrix(
        matrix: Iterable[Iterable[Union[int, bool]]],
        *,
        secondary: Iterable[Label] = (),
        names: Optional[Iterable[Label]] = None,
    ) -> Problem:
        """A problem from a 0/1 matrix (a list of lists, a numpy array): columns are items (named
        ``names``, else 0, 1, ...), each row an option of its 1s, numbered as the rows."""
    @staticmethod
    def from_dlx(text: str) -> Problem:
        """A problem in Knuth's ``.dlx`` format; ValueError with line and column if malformed."""
    @staticmethod
    def read(path: Union[str, PathLike[str]]) -> Problem:
        """A problem read from a ``.dlx`` file."""
    def to_dlx(self) -> str:
        """The problem in Knuth's ``.dlx`` format."""
    def preprocess(self, rounds: Optional[int] = None) -> tuple[Problem, list[int]]:
        """The smaller problem Knuth's DLX-PRE makes (the same solutions, options and items that
        no solution needs removed) and each of its options' number in this problem: a solution
        ``s`` of the smaller one by option numbers is ``[origin[k] for k in s]`` here. ``rounds``
        stops sooner; a problem with bounds raises ValueError."""
    @property
    def items(self) -> tuple[Label, ...]: ...
    @property
    def options(self) -> tuple[tuple[Any, ...], ...]: ...
    def __len__(self) -> int: ...

class Solutions(Iterator[list[Any]]):
    """Solutions found as they are read; the search stops when the iterator is dropped."""
    def __next__(self) -> list[Any]: ...
    @property
    def stats(self) -> Stats: ...
    def close(self) -> None: ...

class Solver:
    """Searches of a problem: first(), count(), solutions()."""
    def __init__(
        self,
        problem: Problem,
        *,
        seed: Optional[int] = None,
        tie_break: Optional[Literal["earliest", "last-conflict"]] = None,
        branch: Optional[Literal["mrv", "sharp", "wdeg", "frb"]] = None,
        budget: Optional[int] = None,
        force: Optional[Iterable[int]] = None,
        exclude: Optional[Iterable[int]] = None,
        shard: Optional[tuple[int, int]] = None,
        threads: Optional[int] = None,
        memo: Optional[Literal["auto", "always", "never"]] = None,
    ) -> None: ...
    def first(self, *, labels: bool = False) -> Optional[list[Any]]:
        """The first solution: option numbers, or the options as given with labels=True."""
    def count(
        self,
        limit: Optional[int] = None,
        threads: Optional[int] = None,
        *,
        progress: Optional[Callable[[CountProgress], object]] = None,
        every: float = 1.0,
    ) -> int:
        """The number of solutions (at most ``limit``), on ``threads`` threads (all cores by default).

        A count to the end takes the memo where ``memo`` chooses it (on every thread, exact past 2**64).
        ``progress`` is called about every ``every`` seconds while it runs; what it raises stops the
        count and is raised."""
    def estimate(self, paths: int = 1000, *, seed: int = 0) -> Optional[Estimate]:
        """Knuth's estimate of a count's search from random paths down its tree: orders of magnitude
        before a count starts. None for a problem with bounds."""
    def pieces(self) -> int:
        """How many pieces a count is cut into for a cluster (the same on every machine)."""
    def piece_weights(self) -> list[float]:
        """Each piece's share of the tree by Knuth's estimate, a guess at its size."""
    def count_pieces(self, pieces: list[int], threads: Optional[int] = None) -> int:
        """The solutions of the pieces at these positions; all pieces add up to the count."""
    def zdd(self) -> tuple[str, dict[int, int]]:
        """The ZDD of all solutions in ZDDREAD's text, and the solutions of each size (options in one)."""
    def best(self, k: int = 1, *, labels: bool = False) -> list[tuple[int, list[Any]]]:
        """The ``k`` solutions of least total cost (the sum of their options' costs), cheapest
        first, as ``(cost, solution)``; among equal costs, those found first."""
    def sample(self, n: int, *, seed: int = 0, labels: bool = False) -> list[list[Any]]:
        """``n`` solutions drawn uniformly at random (independently: one may come twice), the same for
        the same ``seed``; [] when there is none. ValueError for a problem with multiplicities."""
    def solutions(self, *, labels: bool = False) -> Solutions:
        """Every solution, lazily."""
    @property
    def stats(self) -> Stats:
        """The figures of the last search."""
