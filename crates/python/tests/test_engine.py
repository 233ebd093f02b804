"""The engine through the built module: Knuth's examples, known counts, colors and bounds against a
brute force written here, the lazy iterator, budgets, Ctrl-C and errors."""

import itertools
import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest

import dlx

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def exact_cover(problem, solution):
    """Whether the options `solution` (numbers) cover the problem as its rules say."""
    primary, secondary, bounds = problem["primary"], problem["secondary"], problem["bounds"]
    covered = {item: 0 for item in primary}
    colors = {}
    for k in solution:
        for element in problem["options"][k]:
            item, color = element if isinstance(element, tuple) else (element, None)
            if item in covered:
                covered[item] += 1
            else:
                assert item in secondary
                if item in colors and (color is None or colors[item] != color):
                    return False
                colors[item] = color
    return all(bounds.get(item, (1, 1))[0] <= n <= bounds.get(item, (1, 1))[1] for item, n in covered.items())


def brute_force(problem):
    """Every set of options that is a solution, found by trying every set."""
    n = len(problem["options"])
    return {
        frozenset(chosen)
        for size in range(n + 1)
        for chosen in itertools.combinations(range(n), size)
        if exact_cover(problem, chosen)
    }


def random_problem(rng):
    """A small problem with colors on some secondary items and bounds on some primary ones."""
    primary = [f"p{k}" for k in range(rng.randint(1, 4))]
    secondary = [f"s{k}" for k in range(rng.randint(0, 3))]
    bounds = {item: tuple(sorted((rng.randint(0, 2), rng.randint(1, 2)))) for item in primary if rng.random() < 0.3}
    bounds = {item: (lo, max(hi, 1)) for item, (lo, hi) in bounds.items()}
    options = []
    for _ in range(rng.randint(1, 9)):
        items = rng.sample(primary, rng.randint(1, len(primary)))
        for s in rng.sample(secondary, rng.randint(0, len(secondary))):
            items.append((s, rng.choice("rg")) if rng.random() < 0.6 else s)
        options.append(items)
    return {"primary": primary, "secondary": secondary, "options": options, "bounds": bounds}


def test_knuths_examples_and_known_counts():
    first = dlx.Solver(dlx.Problem.read(FIXTURES / "knuth7.dlx")).first(labels=True)
    assert sorted(first) == [("A", "D"), ("B", "G"), ("C", "E", "F")]
    for name, count in [
        ("knuth7", 1),
        ("queens8", 92),
        ("langford8", 300),
        ("knuth-colors", 1),
        ("knuth-multiplicities", 1),
        ("word-squares4", 17460),
    ]:
        problem = dlx.Problem.read(FIXTURES / f"{name}.dlx")
        assert dlx.Solver(problem).count() == count, name
        assert dlx.Solver(problem).count(threads=1) == count, name
        assert sum(1 for _ in dlx.Solver(problem).solutions()) == count, name
    # Shards partition the count.
    problem = dlx.Problem.read(FIXTURES / "langford8.dlx")
    assert sum(dlx.Solver(problem, shard=(k, 3)).count() for k in range(3)) == 300


def dominoes(rows, cols):
    """Domino tilings of a board as a problem: a primary item per cell, an option per domino."""
    cells = [f"r{r}c{c}" for r in range(rows) for c in range(cols)]
    options = [[f"r{r}c{c}", f"r{r}c{c + 1}"] for r in range(rows) for c in range(cols - 1)]
    options += [[f"r{r}c{c}", f"r{r + 1}c{c}"] for r in range(rows - 1) for c in range(cols)]
    return dlx.Problem(cells, [], options)


def test_the_memo_counts_tilings_exactly_past_2_to_the_64():
    # The published counts of domino tilings of the square (OEIS A004003).
    assert dlx.Solver(dominoes(8, 8)).count() == 12_988_816
    assert dlx.Solver(dominoes(14, 14)).count() == 112_202_208_776_036_178_000_000
    assert dlx.Solver(dominoes(6, 6), memo="always").count() == 6_728
    assert dlx.Solver(dominoes(6, 6), memo="never").count() == 6_728
    with pytest.raises(ValueError, match="memo"):
        dlx.Solver(dominoes(2, 2), memo="sometimes")
    # The memo does not change a count where subproblems seldom meet again.
    problem = dlx.Problem.read(FIXTURES / "langford8.dlx")
    assert dlx.Solver(problem, memo="always").count() == 300
    # On two threads, the memo's table shared, exactly all the same.
    assert dlx.Solver(dominoes(14, 14)).count(threads=2) == 112_202_208_776_036_178_000_000
    solver = dlx.Solver(dominoes(14, 14), threads=2)
    solver.count()
    assert solver.stats.solutions == 112_202_208_776_036_178_000_000
    # With multiplicities too: the 0-1 matrices of 7x7 whose lines sum to 2 (OEIS A001499).
    sums = dlx.Problem.read(FIXTURES / "line-sums7.dlx")
    for memo in ["auto", "always", "never"]:
        assert dlx.Solver(sums, memo=memo).count(threads=1) == 3_110_940
    assert dlx.Solver(sums, memo="always").count(threads=2) == 3_110_940


def transfer_matrix(rows, cols):
    """Domino tilings of a board counted row by row, independently of the engine: a state is the
    set of cells of the next row that dominoes down from this one cover."""
    ways = {0: 1}
    for _ in range(rows):
        after = {}

        def fill(covered, c, down, n):
            if c == cols:
                after[down] = after.get(down, 0) + n
            elif covered >> c & 1:
                fill(covered, c + 1, down, n)
            else:
                fill(covered, c + 1, down | 1 << c, n)
                if c + 1 < cols and not covered >> (c + 1) & 1:
                    fill(covered, c + 2, down, n)

        for state, n in ways.items():
            fill(state, 0, 0, n)
        ways = after
    return ways.get(0, 0)


def test_counts_past_2_to_the_128_are_exact_ints():
    # 200x4: about 2^300 tilings; a Python int however large, on one thread and on two, in the
    # figures, by size in the ZDD, and in shards that add up.
    want = transfer_matrix(200, 4)
    assert want.bit_length() > 256
    problem = dominoes(200, 4)
    solver = dlx.Solver(problem)
    assert solver.count(threads=1) == want
    assert solver.stats.solutions == want
    assert dlx.Solver(problem).count(threads=2) == want
    assert dlx.Solver(problem).zdd()[1] == {400: want}
    assert sum(dlx.Solver(problem, shard=(k, 3)).count() for k in range(3)) == want
    for tiling in dlx.Solver(problem).sample(3, seed=2):
        assert len(tiling) == 400


def test_samples_are_uniform_solutions_by_seed():
    # The 36 domino tilings of 4x4, drawn 300 times each: every draw a tiling, the chi-square
    # statistic under its 0.1% critical value for 35 degrees of freedom (66.6).
    problem = dominoes(4, 4)
    every = {frozenset(s) for s in dlx.Solver(problem).solutions()}
    solver = dlx.Solver(problem)
    drawn = solver.sample(36 * 300, seed=3)
    tally = {}
    for s in drawn:
        assert frozenset(s) in every
        tally[frozenset(s)] = tally.get(frozenset(s), 0) + 1
    chi2 = sum((tally.get(s, 0) - 300) ** 2 / 300 for s in every)
    assert chi2 < 66.6, chi2
    assert solver.sample(20, seed=5) == solver.sample(20, seed=5)
    assert solver.sample(20, seed=5) != solver.sample(20, seed=6)
    assert dlx.Solver(dlx.Problem(["a", "b"], [], [["a"]])).sample(3) == []
    # Tilings past 2^64, drawn from the memo's counts.
    for tiling in dlx.Solver(dominoes(14, 14)).sample(2, seed=1):
        assert len(tiling) == 98
    with pytest.raises(ValueError, match="multiplicities"):
        dlx.Solver(dlx.Problem.read(FIXTURES / "knuth-multiplicities.dlx")).sample(1)


def test_the_zdd_holds_every_solution_by_size():
    # {A B, C}, {A, B C} and {A B C}: one solution of one option, two of two.
    problem = dlx.Problem(["A", "B", "C"], [], [["A", "B"], ["C"], ["A"], ["B", "C"], ["A", "B", "C"]])
    text, sizes = dlx.Solver(problem).zdd()
    assert sizes == {1: 1, 2: 2}
    lines = text.splitlines()
    assert all(": (~" in line for line in lines) and lines[-1].endswith(")")
    text, sizes = dlx.Solver(dominoes(8, 8)).zdd()
    assert sizes == {32: 12_988_816}
    with pytest.raises(ValueError, match="bit sets"):
        dlx.Solver(dlx.Problem.read(FIXTURES / "knuth-multiplicities.dlx")).zdd()


def test_colors_and_bounds_agree_with_brute_force():
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        data = random_problem(rng)
        try:
            problem = dlx.Problem(data["primary"], data["secondary"], data["options"], data["bounds"])
        except ValueError:
            continue  # an option that names an item twice: refused, as the engine refuses it
        expected = brute_force(data)
        found = {frozenset(s) for s in dlx.Solver(problem).solutions()}
        assert found == expected, data
        assert dlx.Solver(problem).count() == len(expected), data
        for solution in found:
            assert exact_cover(data, solution)
        checked += 1
    assert checked > 200


def test_labels_colors_and_round_trip():
    problem = dlx.Problem(
        [1, 2, (3, "x")],
        ["z"],
        options=[[1, ("z", "red")], [2, (3, "x"), ("z", "red")], [2, (3, "x"), "z:blue"], [1, 2, (3, "x")]],
    )
    assert dlx.Solver(problem).count() == 2
    assert sorted(map(sorted, dlx.Solver(problem).solutions())) == [[0, 1], [3]]
    # Items whose str are not names of the format are named #k; colors keep their str.
    again = dlx.Problem.from_dlx(problem.to_dlx())
    assert dlx.Solver(again).count() == 2
    words = dlx.Problem.from_dlx("a b | x\na x:1\nb x:1\nb x:2\n")
    assert words.options == (("a", "x:1"), ("b", "x:1"), ("b", "x:2"))
    assert dlx.Solver(words).first(labels=True) == [("a", "x:1"), ("b", "x:1")]


def test_the_iterator_is_lazy_and_stops():
    problem = dlx.Problem.read(FIXTURES / "pentominoes6x10.dlx")
    solutions = dlx.Solver(problem).solutions()
    first = [next(solutions) for _ in range(3)]
    assert len({tuple(s) for s in first}) == 3
    for s in first:
        items = [i for k in s for i in problem.options[k]]
        assert sorted(items) == sorted(problem.items)
    solutions.close()
    assert list(solutions) == []


def test_budgets_raise_and_never_return_a_part():
    problem = dlx.Problem.read(FIXTURES / "langford8.dlx")
    solver = dlx.Solver(problem, budget=50)
    with pytest.raises(dlx.Interrupted):
        solver.count(threads=1)
    with pytest.raises(dlx.Interrupted):
        list(solver.solutions())
    assert dlx.Solver(problem, budget=10**9).count() == 300


def test_force_exclude_seed_and_tie_break():
    problem = dlx.Problem.read(FIXTURES / "queens8.dlx")
    first = dlx.Solver(problem).first()
    # Forced options come first in a solution; forcing and excluding an option split the count.
    assert dlx.Solver(problem, force=[first[0]]).first()[0] == first[0]
    with_it = dlx.Solver(problem, force=[first[0]]).count(threads=1)
    without_it = dlx.Solver(problem, exclude=[first[0]]).count(threads=1)
    assert (with_it + without_it, with_it > 0) == (92, True)
    assert dlx.Solver(problem, seed=5).count() == 92
    assert dlx.Solver(problem, tie_break="last-conflict").count() == 92
    with pytest.raises(ValueError, match="tie"):
        dlx.Solver(problem, tie_break="sideways")
    with pytest.raises(ValueError, match="one thread"):
        dlx.Solver(problem, force=[first[0]]).count(threads=2)


def test_branching_rules_keep_the_solutions():
    # Six queens with the rows' items named "#r..." after the columns': Knuth's DLX2-SHARP
    # branches on rows, in 105 nodes with the root; DLX2 on columns, in 111.
    n = 6
    items = [f"c{c}" for c in range(n)] + [f"#r{r}" for r in range(n)]
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [[f"c{c}", f"#r{r}", f"a{r + c}", f"b{r - c + n - 1}"] for r in range(n) for c in range(n)]
    problem = dlx.Problem(items, diagonals, options)
    spec = {"primary": items, "secondary": diagonals, "bounds": {}, "options": options}
    found = {}
    for rule in ["mrv", "sharp", "wdeg", "frb"]:
        solver = dlx.Solver(problem, branch=rule)
        found[rule] = sorted(sorted(s) for s in solver.solutions())
        assert all(exact_cover(spec, s) for s in found[rule])
        assert solver.count(threads=1) == 4 and dlx.Solver(problem, branch=rule).count(threads=2) == 4
    assert found["sharp"] == found["mrv"] == found["wdeg"] == found["frb"]
    sharp = dlx.Solver(problem, branch="sharp")
    sharp.count(threads=1)
    plain = dlx.Solver(problem)
    plain.count(threads=1)
    assert (plain.stats.nodes, sharp.stats.nodes) == (110, 104)
    with pytest.raises(ValueError, match="branching rule"):
        dlx.Solver(problem, branch="dom")
    with pytest.raises(ValueError, match="mrv"):
        dlx.Solver(problem, branch="wdeg", tie_break="last-conflict")
    with pytest.raises(ValueError, match="DLX5"):
        dlx.Solver(problem, branch="frb").best(1)


def queens(n):
    """The n-queens problem: rows and columns primary, diagonals secondary."""
    rows, cols = [f"r{i}" for i in range(n)], [f"c{j}" for j in range(n)]
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"] for i in range(n) for j in range(n)]
    return dlx.Problem(rows + cols, diagonals, options)


def test_ctrl_c_stops_a_search_and_leaves_the_solver_usable():
    solver = dlx.Solver(queens(20))
    stopped = {}

    def interrupt():
        time.sleep(0.3)
        stopped["at"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    # Python's own handler, which raises KeyboardInterrupt: a suite started where SIGINT is
    # ignored (`cmd &` from a script, nohup) would otherwise never see the signal, and wait.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for search in (lambda: solver.count(threads=1), lambda: solver.count(), lambda: list(solver.solutions())):
            threading.Thread(target=interrupt).start()
            with pytest.raises(KeyboardInterrupt):
                search()
            assert time.monotonic() - stopped["at"] < 0.2
    finally:
        signal.signal(signal.SIGINT, previous)
    assert dlx.Solver(queens(6)).count() == 4
    assert solver.first() is not None


def test_errors_say_it_in_pythons_terms():
    with pytest.raises(ValueError, match=r"bounds 3 to 1 are invalid"):
        dlx.Problem(["a"], options=[["a"]], bounds={"a": (3, 1)})
    with pytest.raises(ValueError) as empty:
        dlx.Problem(["a"], options=[[]])
    assert str(empty.value) == "option 0 is empty"
    with pytest.raises(TypeError, match="a list of options"):
        dlx.Problem(["a", "b"], options="ab")
    with pytest.raises(ValueError, match=r"unknown rule `kiler` \(known: .*; did you mean `killer`\?\)"):
        dlx.sudoku.generate(1, rules=["kiler"])


def test_errors_say_where_and_what():
    with pytest.raises(ValueError, match="line 2, column 1: unknown item `c`"):
        dlx.Problem.from_dlx("a b\nc\n")
    with pytest.raises(ValueError, match=r"option 1: unknown item 'q'"):
        dlx.Problem(["a"], options=[["a"], ["q"]])
    with pytest.raises(ValueError, match="given twice"):
        dlx.Problem(["a", "a"])
    with pytest.raises(ValueError, match="only secondary items take colors"):
        dlx.Problem(["a"], options=[[("a", 1)]])
    with pytest.raises(ValueError, match="only primary items have bounds"):
        dlx.Problem(["a"], ["s"], bounds={"s": 2})
    with pytest.raises(OSError, match="cannot read"):
        dlx.Problem.read("no-such-file.dlx")
    with pytest.raises(ValueError, match="shard= is for count"):
        dlx.Solver(queens(4), shard=(0, 2)).first()
    with pytest.raises(ValueError, match="option 9 does not exist"):
        dlx.Solver(queens(2), force=[9])


def test_the_solvers_stats_are_its_last_search_whichever_call_ran_it():
    # Issue 52: after list(s.solutions()) the solver's stats were all zeros.
    solver = dlx.Solver(dlx.Problem.read(FIXTURES / "langford8.dlx"))
    solutions = solver.solutions()
    found = list(solutions)
    assert len(found) == 300
    assert solver.stats.solutions == 300 and solver.stats.nodes > 300
    assert solver.stats.nodes == solutions.stats.nodes
    solver.first()
    assert solver.stats.solutions == 1


def test_a_0_1_matrix_is_a_problem():
    # Knuth's example: the columns are items 0-6, the rows options; rows 1, 3, 5 cover them.
    matrix = [
        [0, 0, 1, 0, 1, 1, 0],
        [1, 0, 0, 1, 0, 0, 1],
        [0, 1, 1, 0, 0, 1, 0],
        [1, 0, 0, 1, 0, 0, 0],
        [0, 1, 0, 0, 0, 0, 1],
        [0, 0, 0, 1, 1, 0, 1],
    ]
    problem = dlx.Problem.from_matrix(matrix)
    assert problem.items == tuple(range(7))
    solutions = [sorted(s) for s in dlx.Solver(problem).solutions()]
    assert solutions == [[0, 3, 4]]
    assert all(exact_cover({"primary": range(7), "secondary": [], "bounds": {}, "options": problem.options}, s)
               for s in solutions)
    # Bools, named columns, and a secondary column that may stay uncovered.
    named = dlx.Problem.from_matrix([[True, False, True], [False, True, False], [True, False, False]],
                                    names="abc", secondary="c")
    assert sorted(map(sorted, dlx.Solver(named).solutions(labels=True))) == [[("a",), ("b",)], [("a", "c"), ("b",)]]
    try:
        import numpy
    except ImportError:
        numpy = None
    if numpy is not None:
        array = numpy.array(matrix, dtype=numpy.int8)
        assert dlx.Solver(dlx.Problem.from_matrix(array)).count() == 1
        assert dlx.Solver(dlx.Problem.from_matrix(array.astype(bool))).count() == 1
    for bad, what in [
        ([[0, 2], [1, 0]], "row 0, column 1: 2 is not 0 or 1"),
        ([[1, 0], [1]], "row 1 has 1 columns, row 0 has 2"),
        ([[1, 0], [0, 0]], "row 1 has no 1"),
        ([[1, 0]], "secondary= names 'x'"),
    ]:
        with pytest.raises(ValueError, match=what):
            dlx.Problem.from_matrix(bad, secondary=["x"] if "secondary" in what else ())
    with pytest.raises(ValueError, match="names= gives 3 names for 2 columns"):
        dlx.Problem.from_matrix([[1, 1]], names="abc")
    with pytest.raises(TypeError):
        dlx.Problem.from_matrix("0110")


def test_covers_in_one_call():
    options = [[1, 4, 7], [1, 4], [4, 5, 7], [3, 5, 6], [2, 3, 6, 7], [2, 7]]
    assert [sorted(c) for c in dlx.covers(options)] == [[1, 3, 5]]
    assert [sorted(c) for c in dlx.covers(["a b", "c", "a", "b c"])] == [[0, 1], [2, 3]]
    # A secondary item, with colors, is not made primary.
    colored = [["a", ("x", "red")], ["b", "x:red"], ["a", "b"]]
    assert sorted(sorted(c) for c in dlx.covers(colored, secondary=["x"])) == [[0, 1], [2]]
    # Primary given: here an item no option names, so nothing covers.
    assert list(dlx.covers(options, primary=range(1, 9))) == []
    # Solver settings pass through.
    assert len(list(dlx.covers(["a", "b", "a b"], labels=True, force=[2]))) == 1
    with pytest.raises(TypeError):
        dlx.covers("a b")


def test_a_long_count_reports_its_progress_and_estimate():
    seen = []
    count = dlx.Solver(queens(11)).count(progress=seen.append, every=0.01, threads=1)
    assert count == 2_680
    # However short the count, the last report is of the whole.
    assert seen[-1]["fraction"] == 1.0 and seen[-1]["solutions"] == count and seen[-1]["left"] == 0
    for report in seen:
        assert set(report) == {"fraction", "solutions", "nodes", "seconds", "left"}
        assert 0.0 <= report["fraction"] <= 1.0 and report["solutions"] <= count
    fractions = [r["fraction"] for r in seen]
    assert fractions == sorted(fractions)

    class Enough(Exception):
        pass

    def stop(report):
        raise Enough(report["seconds"])

    solver = dlx.Solver(queens(13))
    with pytest.raises(Enough):
        solver.count(progress=stop, every=0.05)
    assert solver.count(limit=5) == 5
    with pytest.raises(ValueError, match="every=0"):
        solver.count(progress=print, every=0)
    with pytest.raises(ValueError, match="not with force= or exclude="):
        dlx.Solver(queens(6), force=[0]).count(progress=print)

    estimate = dlx.Solver(queens(8)).estimate(2000, seed=1)
    assert set(estimate) == {"nodes", "solutions"}
    assert 92 / 2 < estimate["solutions"] < 92 * 2
    assert dlx.Solver(dlx.Problem.read(FIXTURES / "line-sums7.dlx")).estimate() is None


def test_preprocess_keeps_the_solutions_and_the_labels():
    # Knuth's first example of DLX-PRE: three options and four items go.
    problem = dlx.Problem.from_dlx("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n")
    smaller, origin = problem.preprocess()
    assert smaller.to_dlx() == "A B E\nE\nA\nB\n"
    assert origin == [0, 3, 4]
    assert smaller.items == ("A", "B", "E")
    assert smaller.options == (("E",), ("A",), ("B",))
    solution = dlx.Solver(smaller).first()
    assert sorted(origin[k] for k in solution) == [0, 3, 4]

    # Random problems with colors: the same solutions, mapped back; labels and elements kept.
    rng = random.Random(54)
    for _ in range(200):
        spec = random_problem(rng)
        spec["bounds"] = {}
        problem = dlx.Problem(spec["primary"], spec["secondary"], spec["options"])
        smaller, origin = problem.preprocess()
        expected = {frozenset(s) for s in dlx.Solver(problem).solutions()}
        assert {frozenset(origin[k] for k in s) for s in dlx.Solver(smaller).solutions()} == expected
        assert set(smaller.items) <= set(problem.items)
        for option, k in zip(smaller.options, origin):
            assert set(option) <= set(map(lambda e: tuple(e) if isinstance(e, list) else e, problem.options[k]))

    with pytest.raises(ValueError, match="may be covered 0 to 2 times"):
        dlx.Problem(["a"], options=[["a"]], bounds={"a": (0, 2)}).preprocess()


def test_best_gives_the_cheapest_solutions():
    problem = dlx.Problem(["a", "b"], ["x"], [["a"], ["b"], ["a", "b"], ["a", ("x", 1)], ["b", ("x", 1)]],
                          costs=[3, 4, 5, 1, 2])
    best = dlx.Solver(problem).best(3)
    assert [cost for cost, _ in best] == [3, 5, 5]
    assert sorted(best[0][1]) == [3, 4]
    # From the .dlx text, `|n` as Knuth's DLX5 writes it; counts ignore costs.
    text = dlx.Problem.from_dlx("a b\na |3\nb |4\na b |5\n")
    assert dlx.Solver(text).best(k=1, labels=True) == [(5, [("a", "b")])]
    assert dlx.Solver(text).count() == 2
    with pytest.raises(ValueError, match="2 costs for 5 options"):
        dlx.Problem(["a", "b"], ["x"], problem.options, costs=[1, 2])
