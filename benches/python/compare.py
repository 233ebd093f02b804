"""Side by side: counting the same problems through this package (`dlx`), `xcover` and
`exact-cover`, each timed in a fresh process on its first call (import and any compilation
included) and warm (the same call again), on one thread (and `dlx` also on every core, as
`count()` does by default).

    pip install ./crates/python xcover exact-cover
    python benches/python/compare.py [--repeat N]

Problems: the 6x10 pentominoes (fixtures/pentominoes6x10.dlx, 9356 packings), Langford pairs
n = 12 (216,288 with reversals), and 4x4 word squares with colors (fixtures/word-squares4.dlx,
17,460; exact-cover has no colors). Prints one row per problem and package: count, first call and
warm seconds (the median of five calls after the first; medians over --repeat fresh processes),
and the warm ratio to `dlx` on one thread.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def read_dlx(name):
    """Primary items, secondary items and options (lists of words) of a `.dlx` fixture."""
    lines = [l for l in (FIXTURES / name).read_text().splitlines() if l.strip() and not l.startswith("|")]
    head = lines[0].split("|")
    primary, secondary = head[0].split(), (head[1].split() if len(head) > 1 else [])
    return primary, secondary, [l.split() for l in lines[1:]]


def langford(n):
    primary = [str(i) for i in range(1, n + 1)] + [f"s{j}" for j in range(2 * n)]
    options = [[str(i), f"s{j}", f"s{j + i + 1}"] for i in range(1, n + 1) for j in range(2 * n - i - 1)]
    return primary, [], options


PROBLEMS = {
    "pentominoes 6x10": lambda: read_dlx("pentominoes6x10.dlx"),
    "langford 12": lambda: langford(12),
    "word squares 4x4 (colors)": lambda: read_dlx("word-squares4.dlx"),
}


def counter(package, primary, secondary, options):
    """A function that counts the problem's solutions with `package`."""
    if package in ("dlx", "dlx, all cores"):
        import dlx

        problem = dlx.Problem(primary, secondary, options)
        threads = 1 if package == "dlx" else None
        return lambda: dlx.Solver(problem).count(threads=threads)
    if package == "xcover":
        from xcover import covers

        colored = any(":" in word for option in options for word in option)
        return lambda: sum(1 for _ in covers(options, primary=primary, secondary=secondary, colored=colored))
    if package == "exact-cover":
        if secondary:
            return None
        import numpy as np
        import exact_cover

        index = {item: k for k, item in enumerate(primary)}
        matrix = np.zeros((len(options), len(primary)), dtype=bool)
        for r, option in enumerate(options):
            for word in option:
                matrix[r, index[word]] = True
        return lambda: int(exact_cover.get_solution_count(matrix))
    raise ValueError(package)


def one(package, name):
    """In this process: the first call (import included) and a warm one."""
    start = time.perf_counter()
    count = counter(package, *PROBLEMS[name]())
    if count is None:
        print(json.dumps(None))
        return
    first_count = count()
    first = time.perf_counter() - start
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        warm_count = count()
        warm.append(time.perf_counter() - start)
        assert first_count == warm_count
    print(json.dumps({"count": warm_count, "first": first, "warm": statistics.median(warm)}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--one", nargs=2, metavar=("PACKAGE", "PROBLEM"))
    args = parser.parse_args()
    if args.one:
        one(*args.one)
        return
    print("| problem | package | count | first call (s) | warm (s) | warm / dlx |")
    print("|---|---|---|---|---|---|")
    for name in PROBLEMS:
        base = None
        for package in ["dlx", "dlx, all cores", "xcover", "exact-cover"]:
            runs = []
            for _ in range(args.repeat):
                out = subprocess.run(
                    [sys.executable, __file__, "--one", package, name], capture_output=True, text=True
                )
                if out.returncode != 0:
                    runs = None
                    print(f"| {name} | {package} | failed: {out.stderr.strip().splitlines()[-1:]} | | | |")
                    break
                result = json.loads(out.stdout)
                if result is None:
                    break
                runs.append(result)
            if not runs:
                continue
            first = statistics.median(r["first"] for r in runs)
            warm = statistics.median(r["warm"] for r in runs)
            base = base or warm
            print(f"| {name} | {package} | {runs[0]['count']} | {first:.3f} | {warm:.3f} | {warm / base:.1f} |")


if __name__ == "__main__":
    main()
