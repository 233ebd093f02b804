"""Sudoku of every size (4x4 to 25x25) and rule set, over the library the ``dlx`` command uses.

A puzzle is text in any form ``dlx solve`` reads (a line of 81 cells, or of any size's cells with
its rule fields such as ``regions=`` and ``cage=``; a block grid; a JSON record), or a dict that
:func:`generate` made. ``rules`` adds rules by name, as ``dlx --rules`` does: ``diagonal``,
``windoku``, ``anti-king``, ``anti-knight``, ``even``; :func:`generate` also makes up ``jigsaw``
regions, ``killer`` cages and ``odd-even`` marks.
"""

from ._native import sudoku as _native

solve = _native.solve
count = _native.count
check = _native.check
rate = _native.rate
generate = _native.generate
svg = _native.svg

__all__ = ["solve", "count", "check", "rate", "generate", "svg"]
