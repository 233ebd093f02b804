"""Sudoku of every size (4x4 to 25x25) and rule set, over the library the ``dlx`` command uses.

A puzzle is text in any form ``dlx solve`` reads (a line of 81 cells, or of any size's cells with
its rule fields such as ``regions=`` and ``cage=``; a block grid; a JSON record), or a dict of a
JSON record's fields (such as :func:`generate` returns), read as that record is. ``rules`` adds rules by name, as ``dlx --rules`` does: ``diagonal``,
``windoku``, ``anti-king``, ``anti-knight``, ``even``; :func:`generate` also makes up ``jigsaw``
regions, ``killer`` cages and ``odd-even`` marks. ``rules`` is a string (``"diagonal,windoku"``) or
an iterable of names.

:func:`solve` answers a puzzle with one solution; one with several raises
:class:`MultipleSolutions` (a ``ValueError`` whose ``args`` hold the message and two solutions),
unless ``unique=False`` asks for the first found.
"""

from ._native import sudoku as _native

MultipleSolutions = _native.MultipleSolutions
solve = _native.solve
count = _native.count
check = _native.check
rate = _native.rate
generate = _native.generate
svg = _native.svg

__all__ = ["MultipleSolutions", "solve", "count", "check", "rate", "generate", "svg"]
