"""dlx.sudoku through the built module: the same answers and the same generated puzzles as the
`dlx` command, round trips through every function, and errors that say where."""

import json
import subprocess
from pathlib import Path

import pytest

import dlx

ROOT = Path(__file__).resolve().parents[3]
PUZZLE = "5176...34289..4...3462.5.9.6.2....1..38..6.47..........9.....787.34..56.........."
SOLUTION = "517698234289134756346275891672849315138526947954713682495362178723481569861957423"


def command(*args):
    """What the `dlx` command prints (built from this checkout)."""
    done = subprocess.run(
        ["cargo", "run", "--quiet", "-p", "dlx-cli", "--", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_solve_count_check_and_rate():
    assert dlx.sudoku.solve(PUZZLE) == SOLUTION
    assert dlx.sudoku.count(PUZZLE) == 1
    assert dlx.sudoku.check(PUZZLE) == "unique"
    assert dlx.sudoku.check("." * 80 + "1") == "multiple"
    assert dlx.sudoku.count("." * 80 + "1", limit=10) == 10
    # r1c9 can only be 9, and column 9 has its 9: no solution.
    none = "12345678." + "........9" + "." * 63
    assert (dlx.sudoku.solve(none), dlx.sudoku.count(none), dlx.sudoku.check(none)) == (None, 0, "none")
    rated = dlx.sudoku.rate(PUZZLE)
    line = command("rate", "-f", "json", PUZZLE)
    expected = json.loads(line)
    assert (rated["level"], rated["technique"]) == (expected["level"], expected["technique"])
    assert abs(rated["rating"] - expected["rating"]) < 1e-6
    # Rules by name, as --rules: a diagonal puzzle that is unique only as one.
    diagonal = "...93.1...3.4....6.......53.2..1...5.........8...2..6.29.......4....8.2...8.49..."
    assert dlx.sudoku.check(diagonal, rules=["diagonal"]) == "unique"
    assert dlx.sudoku.solve(diagonal, rules=["diagonal"]) == command("solve", "--rules", "diagonal", diagonal).split()[0]


def test_generated_puzzles_are_the_commands_and_read_back():
    for args, kwargs in [
        ([], {}),
        (["--size", "6", "--rules", "killer"], {"size": 6, "rules": ["killer"]}),
        (["--rules", "jigsaw", "--difficulty", "easy"], {"rules": ["jigsaw"], "difficulty": "easy"}),
        (["--size", "16"], {"size": 16}),
    ]:
        made = dlx.sudoku.generate(3, seed=11, **kwargs)
        printed = [json.loads(l) for l in command("generate", "-n", "3", "--seed", "11", "-f", "json", *args).splitlines()]
        assert made == printed, args
        for puzzle in made:
            assert dlx.sudoku.check(puzzle) == "unique"
            assert dlx.sudoku.solve(puzzle) == puzzle["solution"]
            assert dlx.sudoku.rate(puzzle)["level"] == puzzle["level"]
            assert dlx.sudoku.svg(puzzle).startswith("<svg")
            assert puzzle["technique"] != "guessing"
    minimal = dlx.sudoku.generate(2, rules=["killer"], seed=3, minimal=True)
    assert all(p["minimal"] for p in minimal)


def test_errors_say_where_and_what():
    with pytest.raises(ValueError, match="digit 5 appears twice in row 1"):
        dlx.sudoku.solve("55" + "." * 79)
    with pytest.raises(ValueError, match="no puzzle"):
        dlx.sudoku.solve("")
    with pytest.raises(ValueError, match="one puzzle at a time"):
        dlx.sudoku.count(PUZZLE + "\n" + PUZZLE)
    with pytest.raises(ValueError, match="generate"):
        dlx.sudoku.solve(PUZZLE, rules=["killer"])
    with pytest.raises(ValueError, match="hexagonal"):
        dlx.sudoku.generate(1, rules=["hexagonal"])


def test_a_dict_is_read_as_the_json_record_it_holds():
    assert dlx.sudoku.solve({"puzzle": PUZZLE, "solution": SOLUTION, "variant": "classic"}) == SOLUTION
    diagonal = "...93.1...3.4....6.......53.2..1...5.........8...2..6.29.......4....8.2...8.49..."
    assert dlx.sudoku.check({"puzzle": diagonal}) == "multiple"
    assert dlx.sudoku.check({"puzzle": diagonal, "variant": "diagonal"}) == "unique"
    assert dlx.sudoku.count({"puzzle": "." * 16, "size": 4}) == 288
    # Nothing given is dropped: an unknown field is an error, as in a JSON line.
    with pytest.raises(ValueError, match='unknown field "colour"'):
        dlx.sudoku.solve({"puzzle": PUZZLE, "colour": "red"})
    with pytest.raises(ValueError, match='"size" is'):
        dlx.sudoku.solve({"puzzle": PUZZLE, "size": [9]})
    with pytest.raises(TypeError, match="keys are strings"):
        dlx.sudoku.solve({"puzzle": PUZZLE, 1: 2})
    with pytest.raises(TypeError, match="not set"):
        dlx.sudoku.solve({"puzzle": PUZZLE, "rules": {"diagonal"}})
