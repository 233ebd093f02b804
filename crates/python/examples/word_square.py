"""Word squares with colors (Knuth's XCC problems): each row and each column of a 3x3 square is a
word of the list. Rows and columns are primary items; each cell is a secondary item whose color is
its letter, so that a row's word and a column's word agree where they cross.

    python examples/word_square.py        # the squares of the list below
"""

import dlx

WORDS = "ace age ago aid ale ape arc are art ate bad bag ban bar bat bed bee beg cab can cap car cat ear eat eel ego era ice net one ore pea pen per pet rag ran rat red ten tea toe".split()
N = 3


def problem(words):
    rows = [("row", i) for i in range(N)]
    columns = [("column", j) for j in range(N)]
    cells = [(i, j) for i in range(N) for j in range(N)]
    options = []
    for word in words:
        for i in range(N):
            options.append([("row", i), *[((i, j), word[j]) for j in range(N)]])
            options.append([("column", i), *[((j, i), word[j]) for j in range(N)]])
    return dlx.Problem(rows + columns, cells, options)


def square(p, solution):
    letters = {}
    for option in solution:
        for element in p.options[option][1:]:
            cell, letter = element
            letters[cell] = letter
    return "\n".join("".join(letters[(i, j)] for j in range(N)) for i in range(N))


if __name__ == "__main__":
    p = problem(WORDS)
    solver = dlx.Solver(p)
    squares = list(solver.solutions())
    print(square(p, squares[0]))
    print(len(squares), "squares")
