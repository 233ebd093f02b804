"""Exact cover with Knuth's dancing links, from Python.

Build a :class:`Problem` from any hashable labels (with colors and bounds if you like), or read
one in Knuth's ``.dlx`` format, then ask a :class:`Solver` for the first solution, the count (on
every core), or every solution, lazily::

    import dlx
    p = dlx.Problem("abc", options=["a b", "c", "a", "b c"])
    print(dlx.Solver(p).count())           # 2
    for sol in dlx.Solver(p).solutions(labels=True):
        print(sol)                         # [('a', 'b'), ('c',)] and [('a',), ('b', 'c')]

Searches release the GIL, and Ctrl-C (``KeyboardInterrupt``) stops one (the wait for its result
looks for signals every 20 ms), leaving the solver usable. A search stopped by its ``budget`` raises :class:`Interrupted`: a partial count is
never returned. ``dlx.sudoku`` solves, counts, rates, generates and draws sudoku of every size and
rule set, as the ``dlx`` command does.
"""

from ._native import Interrupted, Problem, Solutions, Solver, Stats
from . import sudoku

__all__ = ["Problem", "Solver", "Solutions", "Stats", "Interrupted", "sudoku"]
