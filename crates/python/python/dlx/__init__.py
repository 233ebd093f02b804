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

__all__ = ["Problem", "Solver", "Solutions", "Stats", "Interrupted", "covers", "sudoku"]


def _item_of(element):
    """The item an option's element names: ``item`` of ``(item, color)`` and of ``"item:color"``."""
    if isinstance(element, tuple) and len(element) == 2:
        return element[0]
    if isinstance(element, str) and ":" in element:
        return element.split(":", 1)[0]
    return element


def covers(options, primary=None, secondary=(), *, labels=False, **settings):
    """Every exact cover of ``options``, lazily, in one call::

        for cover in dlx.covers([[1, 4, 7], [1, 4], [4, 5, 7], [3, 5, 6], [2, 3, 6, 7], [2, 7]]):
            print(cover)                   # [1, 3, 5]: the options {1, 4}, {3, 5, 6}, {2, 7}

    Each cover is a list of option numbers (the options as given with ``labels=True``).
    ``primary`` defaults to every item the options name, in the order they first come, but those
    in ``secondary``; ``settings`` (``seed``, ``budget``, ``force``, ...) are :class:`Solver`'s.
    """
    if isinstance(options, str):
        raise TypeError('options is a list of options (a string is one option: ["a b"])')
    options = list(options)
    secondary = list(secondary)
    if primary is None:
        others = set(secondary)
        seen = {}
        for option in options:
            for element in option.split() if isinstance(option, str) else option:
                item = _item_of(element)
                if item not in others:
                    seen.setdefault(item)
        primary = list(seen)
    problem = Problem(primary, secondary, options)
    return Solver(problem, **settings).solutions(labels=labels)
