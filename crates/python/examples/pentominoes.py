"""The twelve pentominoes packed into a 6x10 box: items are the pieces' names and the cells, as
(row, column) tuples; each placement of a piece in one of its orientations is an option.

    python examples/pentominoes.py        # 9356 packings (2339 up to the box's symmetries)
"""

import dlx

PIECES = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["####", "#..."],
    "N": ["###.", "..##"],
    "P": ["###", "##."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["####", ".#.."],
    "Z": ["##.", ".#.", ".##"],
}
ROWS, COLUMNS = 6, 10


def orientations(rows):
    """Every distinct rotation and reflection of a piece, as sets of cells from (0, 0)."""
    cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    seen = set()
    for _ in range(2):
        for _ in range(4):
            cells = {(c, -r) for r, c in cells}
            low_r, low_c = min(r for r, _ in cells), min(c for _, c in cells)
            shape = frozenset((r - low_r, c - low_c) for r, c in cells)
            seen.add(shape)
        cells = {(r, -c) for r, c in cells}
    return seen


def problem():
    cells = [(r, c) for r in range(ROWS) for c in range(COLUMNS)]
    options = []
    for name, rows in PIECES.items():
        for shape in orientations(rows):
            for dr in range(ROWS):
                for dc in range(COLUMNS):
                    placed = [(r + dr, c + dc) for r, c in shape]
                    if all(r < ROWS and c < COLUMNS for r, c in placed):
                        options.append([name, *sorted(placed)])
    return dlx.Problem(list(PIECES) + cells, options=options)


def draw(p, solution):
    grid = [["."] * COLUMNS for _ in range(ROWS)]
    for option in solution:
        name, *cells = p.options[option]
        for r, c in cells:
            grid[r][c] = name
    return "\n".join("".join(row) for row in grid)


if __name__ == "__main__":
    p = problem()
    solver = dlx.Solver(p)
    print(draw(p, solver.first()))
    print(solver.count(), "packings")
