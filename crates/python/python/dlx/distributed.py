"""Counts on a Dask cluster: the pieces of a count handed out to the workers as they free up.

A count is cut into pieces (``Solver.pieces()``: at least 4,096, the same on every machine, each
named by its position), and each task counts a run of them (``Solver.count_pieces``). Dask hands
the tasks out as workers free up, so a fast worker takes more; a task whose worker dies is run
again elsewhere, and its result replaces nothing (a task's count is kept once, by the task), so
no piece is counted twice. The sum is exact however large (a Python ``int``)::

    from dask.distributed import Client
    import dlx, dlx.distributed
    client = Client("scheduler:8786")          # or Client() for a local cluster
    problem = dlx.Problem.read("pentominoes6x10.dlx")
    print(dlx.distributed.count(problem, client))  # 9356

``pip install './crates/python[distributed]'`` brings Dask; the core package does not need it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from ._native import Problem, Solver

__all__ = ["count"]


def _count_pieces(solver: Solver, pieces: list[int]) -> int:
    """One task: the solutions of these pieces, on one thread (Dask runs a task per worker
    thread)."""
    return solver.count_pieces(pieces, threads=1)


def count(
    problem: Union[Problem, Solver],
    client: Any,
    pieces: Optional[int] = None,
    *,
    retries: int = 3,
    progress: Optional[Callable[[int, int], object]] = None,
) -> int:
    """The number of solutions of ``problem`` (or of a ``Solver``, with its settings: a shard,
    a branching rule), counted by the workers of the Dask ``client``.

    ``pieces`` is the number of tasks (default: 16 per worker thread, at most one per piece of
    the cut); each counts a run of consecutive pieces. A task that fails (its worker lost) is run
    again, up to ``retries`` times, by Dask. ``progress(done, tasks)`` is called as each task's
    result comes back.
    """
    from dask.distributed import as_completed

    solver = problem if isinstance(problem, Solver) else Solver(problem)
    n = solver.pieces()
    if pieces is None:
        threads = sum(client.nthreads().values()) or 1
        pieces = 16 * threads
    if pieces < 1:
        raise ValueError("pieces must be at least 1")
    tasks = min(pieces, n)
    # Runs of consecutive pieces, as even as can be.
    runs = [list(range(k * n // tasks, (k + 1) * n // tasks)) for k in range(tasks)]
    # One copy of the solver on each worker (its cut is then made once per worker).
    [shared] = client.scatter([solver], broadcast=True)
    futures = [
        client.submit(_count_pieces, shared, run, retries=retries, pure=False) for run in runs
    ]
    total = 0
    done = 0
    for future in as_completed(futures):
        total += future.result()
        done += 1
        if progress is not None:
            progress(done, tasks)
    return total
