from collections.abc import Iterable
from typing import Any, Literal, Optional, Union

Puzzle = Union[str, dict[str, Any]]

def solve(puzzle: Puzzle, rules: Optional[Iterable[str]] = None) -> Optional[str]:
    """The solution, as a line of its cells; None when there is none."""
def count(puzzle: Puzzle, limit: Optional[int] = None, rules: Optional[Iterable[str]] = None) -> int:
    """The number of solutions, counting no further than ``limit``."""
def check(puzzle: Puzzle, rules: Optional[Iterable[str]] = None) -> Literal["unique", "none", "multiple"]:
    """Whether the puzzle has one solution, none, or several."""
def rate(puzzle: Puzzle, rules: Optional[Iterable[str]] = None) -> dict[str, Any]:
    """Level, rating on Sudoku Explainer's scale, hardest technique, solutions (up to 2), effort."""
def svg(puzzle: Puzzle, rules: Optional[Iterable[str]] = None) -> str:
    """The puzzle drawn as an SVG document."""
def generate(
    n: int = 1,
    size: Union[int, str, None] = None,
    rules: Optional[Iterable[str]] = None,
    difficulty: Optional[Literal["easy", "medium", "hard", "expert"]] = None,
    seed: int = 0,
    symmetry: Optional[str] = None,
    minimal: bool = False,
) -> list[dict[str, Any]]:
    """Puzzles as ``dlx generate --seed SEED -f json`` makes them, one dict each."""
