"""The defects of issue 49 that the Python package showed, each through the built module as it
was found: a contradiction accepted, a solution lost at each Ctrl-C, several solutions answered
as one, a `.dlx` refused that the command reads, and a solver shared by two threads."""

import signal
import threading
import warnings

import pytest

import dlx


def queens(n):
    """The n queens problem: rows and columns primary, diagonals secondary."""
    rows = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"] for i in range(n) for j in range(n)]
    return dlx.Problem(rows, options=options, secondary=diagonals)


def test_forced_and_excluded_at_once_is_refused():
    p = dlx.Problem(["a"], [], [["a"], ["a"]])
    with pytest.raises(ValueError, match="option 0 is forced, so it cannot be excluded"):
        dlx.Solver(p, force=[0], exclude=[0])
    with pytest.raises(ValueError, match=r"option 0 is forced already \(given twice\)"):
        dlx.Solver(p, force=[0, 0])
    solver = dlx.Solver(p, force=[0], exclude=[1])
    assert (solver.first(), solver.count()) == ([0], 1)


def test_an_interrupted_iterator_loses_no_solution():
    """KeyboardInterrupt raised by a timer every few milliseconds, caught, the loop resumed: every
    solution comes out once, and the listing is whole."""
    p = queens(10)
    total = dlx.Solver(p).count()

    # The timer raises only while the loop runs: one that fired between the loop's end and the
    # timer's stop would escape the test.
    armed = [True]

    def raise_interrupt(signum, frame):
        if armed[0]:
            raise KeyboardInterrupt

    seen, interrupts = [], 0
    it = dlx.Solver(p).solutions()
    previous = signal.signal(signal.SIGALRM, raise_interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.002, 0.002)
    try:
        while True:
            try:
                for s in it:
                    seen.append(s)
                armed[0] = False
                break
            except KeyboardInterrupt:
                interrupts += 1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, previous)
    assert interrupts > 0
    assert len(seen) == total == 724
    assert len({tuple(s) for s in seen}) == total


def test_solve_says_when_there_are_several():
    with pytest.raises(dlx.sudoku.MultipleSolutions) as raised:
        dlx.sudoku.solve("." * 81)
    message, one, two = raised.value.args
    assert "multiple solutions" in message and len(one) == len(two) == 81 and one != two
    assert isinstance(raised.value, ValueError)
    assert len(dlx.sudoku.solve("." * 81, unique=False)) == 81


def test_rules_as_a_string_or_names():
    puzzle = "...93.1...3.4....6.......53.2..1...5.........8...2..6.29.......4....8.2...8.49..."
    assert dlx.sudoku.check(puzzle) == "multiple"
    assert dlx.sudoku.check(puzzle, rules="diagonal") == dlx.sudoku.check(puzzle, rules=["diagonal"]) == "unique"
    assert dlx.sudoku.count(puzzle, rules="diagonal,windoku") == dlx.sudoku.count(puzzle, rules=["diagonal", "windoku"])
    with pytest.raises(TypeError, match="rules= is a string of names"):
        dlx.sudoku.solve(puzzle, rules=7)


def test_threads_zero_is_refused():
    with pytest.raises(ValueError, match="threads must be at least 1"):
        dlx.Solver(queens(6)).count(threads=0)


def test_a_dlx_option_without_primary_item_is_skipped_with_a_warning():
    text = "a | s\na s\ns\na\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p = dlx.Problem.from_dlx(text)
    assert [str(w.message) for w in caught] == ["line 3: option skipped: it has no primary item"]
    assert all(issubclass(w.category, UserWarning) for w in caught)
    assert len(p) == 2 and dlx.Solver(p).count() == 2


def test_one_solver_searches_from_two_threads():
    solver = dlx.Solver(queens(9))
    results, errors = [], []

    def count():
        try:
            results.append(solver.count(threads=1))
        except Exception as e:  # noqa: BLE001 - any error is the failure
            errors.append(e)

    threads = [threading.Thread(target=count) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and results == [352, 352]
