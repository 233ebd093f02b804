"""The examples run as they are, and what they print is checked: the pentomino packings (a known
count) and word squares (each square's rows and columns words of the list, every square found)."""

import itertools
import runpy
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_pentominoes():
    lines = run("pentominoes.py")
    assert lines[-1] == "9356 packings"
    box = lines[:6]
    assert all(len(row) == 10 for row in box)
    assert sorted(set("".join(box))) == sorted("FILNPTUVWXYZ")
    assert all("".join(box).count(piece) == 5 for piece in "FILNPTUVWXYZ")


def test_word_squares_against_brute_force():
    example = runpy.run_path(str(EXAMPLES / "word_square.py"))
    words, n = example["WORDS"], example["N"]
    lines = run("word_square.py")
    # Every square by brute force: three rows of the list whose columns are words too.
    vocabulary = set(words)
    expected = sum(
        1
        for rows in itertools.product(words, repeat=n)
        if all("".join(row[j] for row in rows) in vocabulary for j in range(n))
    )
    assert lines[-1] == f"{expected} squares"
    square = lines[:n]
    assert all(row in vocabulary for row in square)
    assert all("".join(row[j] for row in square) in vocabulary for j in range(n))


def test_the_python_of_the_readme_and_docs_runs():
    root = EXAMPLES.parents[2]
    for name in ["README.md", "docs/python.md"]:
        blocks = (root / name).read_text().split("```python\n")[1:]
        assert blocks, f"{name} shows Python"
        for block in blocks:
            exec(compile(block.split("```")[0], name, "exec"), {})
