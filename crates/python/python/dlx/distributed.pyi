from typing import Any, Callable, Optional, Union

from . import Problem, Solver

def count(
    problem: Union[Problem, Solver],
    client: Any,
    pieces: Optional[int] = None,
    *,
    retries: int = 3,
    progress: Optional[Callable[[int, int], object]] = None,
) -> int: ...
