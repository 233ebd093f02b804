"""dlx.distributed on a real Dask cluster of worker processes (LocalCluster), and pickling."""

import os
import pickle
import signal
from pathlib import Path

import pytest

import dlx

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def test_problems_and_solvers_pickle():
    # Labels and options as given, colors, bounds and costs all come back.
    problem = dlx.Problem(
        [("row", 1), "b"], ["x"], options=[[("row", 1), ("x", "red")], ["b", ("x", "red")], ["b"]],
        bounds={"b": (1, 2)}, costs=[3, 0, 7],
    )
    again = pickle.loads(pickle.dumps(problem))
    assert again.items == problem.items and again.options == problem.options
    assert again.to_dlx() == problem.to_dlx()
    # {0, 1}, {0, 2} and {0, 1, 2} (b covered twice, within its bounds; x red both times).
    assert dlx.Solver(again).count() == dlx.Solver(problem).count() == 3
    solver = dlx.Solver(problem, branch="frb", exclude=[2], budget=10**6)
    copy = pickle.loads(pickle.dumps(solver))
    assert copy.count() == solver.count() == 1
    sharded = dlx.Solver(dlx.Problem.read(FIXTURES / "queens8.dlx"), shard=(1, 3), tie_break="last-conflict")
    assert pickle.loads(pickle.dumps(sharded)).count() == sharded.count()


def test_pieces_add_up_to_the_count():
    solver = dlx.Solver(dlx.Problem.read(FIXTURES / "langford8.dlx"))
    n = solver.pieces()
    assert n >= 1
    halves = solver.count_pieces(list(range(0, n, 2))) + solver.count_pieces(list(range(1, n, 2)))
    assert halves == solver.count() == 300
    with pytest.raises(ValueError, match="does not exist"):
        solver.count_pieces([n])


@pytest.mark.parametrize("memo", ["never", "auto", "always"])
def test_pieces_counted_call_by_call_add_up(memo):
    # The first call chooses where counts run (bit sets here) and whether they take the memo;
    # the later ones take that choice rather than probe again: the same count.
    solver = dlx.Solver(dlx.Problem.read(FIXTURES / "pentominoes6x10.dlx"), memo=memo)
    n = solver.pieces()
    assert sum(solver.count_pieces(list(range(k, n, 8)), threads=1) for k in range(8)) == 9356


def test_tasks_are_runs_of_about_equal_weight():
    import random

    from dlx.distributed import _runs

    rng = random.Random(5)
    for _ in range(500):
        n = rng.randint(1, 60)
        tasks = rng.randint(1, n)
        weights = [rng.random() ** 8 for _ in range(n)]
        runs = _runs(weights, tasks)
        # As many runs as asked, each piece once, in order, each run weighing what it says.
        assert len(runs) == tasks
        assert [piece for _, run in runs for piece in run] == list(range(n))
        assert all(run and weight == pytest.approx(sum(weights[k] for k in run)) for weight, run in runs)
        # No run but one piece weighs more than its share and the piece that ends it.
        share = sum(weights) / tasks
        assert all(len(run) == 1 or weight - weights[run[-1]] < share * (1 + 1e-9) for weight, run in runs)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield cluster, client


def test_a_count_on_two_worker_processes_is_one_processes(cluster):
    import dlx.distributed

    _, client = cluster
    problem = dlx.Problem.read(FIXTURES / "pentominoes6x10.dlx")
    seen = []
    total = dlx.distributed.count(problem, client, pieces=40, progress=lambda done, n: seen.append((done, n)))
    assert total == 9356 and isinstance(total, int)
    assert seen[-1] == (40, 40)
    # A solver's settings travel with it: a branching rule and a shard.
    solver = dlx.Solver(problem, branch="sharp", shard=(2, 5))
    assert dlx.distributed.count(solver, client, pieces=7) == solver.count(threads=1)


def test_a_worker_killed_mid_count_changes_nothing(cluster):
    import dlx.distributed

    _, client = cluster
    problem = dlx.Problem.read(FIXTURES / "pentominoes6x10.dlx")
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def kill_one(done, n):
        # After the first results, one worker process dies (its nanny starts another); Dask runs
        # its tasks again elsewhere.
        if done == 3 and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    total = dlx.distributed.count(problem, client, pieces=64, progress=kill_one)
    assert killed and total == 9356
