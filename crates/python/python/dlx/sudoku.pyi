from collections.abc import Iterable
from typing import Any, Literal, Optional, Union

Puzzle = Union[str, dict[str, Any]]

class MultipleSolutions(ValueError):
    """solve() was given a puzzle with more than one solution: args are the message and two."""

def solve(puzzle: Puzzle, rules: Union[str, Iterable[str], None] = None, unique: bool = True) -> Optional[str]:
    """The solution, as a line of its cells; None when there is none. Raises MultipleSolutions when
    there are several, unless ``unique=False`` asks for the first found."""
def count(puzzle: Puzzle, limit: Optional[int] = None, rules: Union[str, Iterable[str], None] = None) -> int:
    """The number of solutions, counting no further than ``limit``."""
def check(puzzle: Puzzle, rules: Union[str, Iterable[str], None] = None) -> Literal["unique", "none", "multiple"]:
    """Whether the puzzle has one solution, none, or several."""
def rate(puzzle: Puzzle, rules: Union[str, Iterable[str], None] = None) -> dict[str, Any]:
    """Level, rating on Sudoku Explainer's scale, hardest technique, solutions (up to 2), effort."""
def svg(puzzle: Puzzle, rules: Union[str, Iterable[str], None] = None) -> str:
    """The puzzle drawn as an SVG document."""
def generate(
    n: int = 1,
    size: Union[int, str, None] = None,
    rules: Union[str, Iterable[str], None] = None,
    difficulty: Optional[Literal["easy", "medium", "hard", "expert"]] = None,
    seed: int = 0,
    symmetry: Optional[str] = None,
    minimal: bool = False,
) -> list[dict[str, Any]]:
    """Puzzles as ``dlx generate --seed SEED -f json`` makes them, one dict each."""
