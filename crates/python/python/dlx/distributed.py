"""Counts on a Dask cluster: the pieces of a count handed out to the workers as they free up.

A count is cut into pieces (``Solver.pieces()``: at least 4,096, the same on every machine, each
named by its position), and each task counts a run of them (``Solver.count_pieces``). The runs
are of about equal size by Knuth's estimate of each piece's share of the tree
(``Solver.piece_weights()``), and the heaviest go first: Dask hands the tasks out as workers free
up, so a fast worker takes more and the last tasks are light ones. A task whose worker dies is
run again elsewhere, and its result replaces nothing (a task's count is kept once, by the task),
so no piece is counted twice. The sum is exact however large (a Python ``int``)::

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

    ``pieces`` is the number of tasks (default: 32 per worker thread, at most one per piece of
    the cut); each counts a run of consecutive pieces, the runs of about equal estimated size,
    handed out heaviest first. A task that fails (its worker lost) is run again, up to
    ``retries`` times, by Dask. ``progress(done, tasks)`` is called as each task's result comes
    back.
    """
    from dask.distributed import as_completed

    solver = problem if isinstance(problem, Solver) else Solver(problem)
    n = solver.pieces()
    if pieces is None:
        threads = sum(client.nthreads().values()) or 1
        pieces = 32 * threads
    if pieces < 1:
        raise ValueError("pieces must be at least 1")
    runs = _runs(solver.piece_weights(), min(pieces, n))
    # One copy of the solver on each worker (its cut is then made once per worker).
    [shared] = client.scatter([solver], broadcast=True)
    # The heaviest runs first: Dask starts the tasks of higher priority first.
    futures = [
        client.submit(_count_pieces, shared, run, retries=retries, pure=False, priority=len(runs) - rank)
        for rank, (_, run) in enumerate(sorted(runs, key=lambda weighed: -weighed[0]))
    ]
    total = 0
    done = 0
    for future in as_completed(futures):
        total += future.result()
        done += 1
        if progress is not None:
            progress(done, len(runs))
    return total


def _runs(weights: list[float], tasks: int) -> list[tuple[float, list[int]]]:
    """The pieces cut into ``tasks`` runs of consecutive pieces (at most one per piece), each of
    about ``1/tasks`` of the weights' sum, with its weight."""
    total = sum(weights)
    runs: list[tuple[float, list[int]]] = []
    run: list[int] = []
    weight = before = 0.0
    for piece, w in enumerate(weights):
        run.append(piece)
        weight += w
        # Runs still to make after this one: it ends where the weights so far reach the next
        # multiple of the share, or where each of them needs one of the pieces left.
        left = tasks - len(runs) - 1
        if left > 0 and (before + weight >= total * (len(runs) + 1) / tasks or len(weights) - piece - 1 == left):
            runs.append((weight, run))
            before += weight
            run, weight = [], 0.0
    if run:
        runs.append((weight, run))
    return runs
