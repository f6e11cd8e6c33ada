#!/usr/bin/env python3
"""Positions along a solution, as levels: where a solver loses its way on a level it cannot solve.

Plays a solution (LURD, from any solver) on one level and writes the position every EVERY pushes
as a level of an XSB file, titled "push N". Solving each as a level of its own shows from how far
into the solution a solver finds the rest, and the first position it fails from is where to look
(a plan that shuts the player out, a dead state it keeps expanding). Every position is one of the
game: the replay checks each move.

    python3 benches/along.py data/xsokoban90.xsb 50 solution.txt 20 > /tmp/along50.xsb
    sokoban solve /tmp/along50.xsb --time-limit 10 --jobs 2 --json

The solution file holds the move string (whitespace ignored); the level is the NUMBER-th of the
file (1-based).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "festival"))
from levels import parse_levels  # noqa: E402

STEPS = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def board(rows, walls, goals, boxes, player):
    out = []
    for r, row in enumerate(rows):
        line = ""
        for c in range(len(row)):
            if (r, c) in walls:
                line += "#"
            elif (r, c) in boxes:
                line += "*" if (r, c) in goals else "$"
            elif (r, c) == player:
                line += "+" if (r, c) in goals else "@"
            else:
                line += "." if (r, c) in goals else " "
        out.append(line.rstrip())
    return "\n".join(out)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    levels, number, solution, every = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    rows = parse_levels(levels)[number - 1]
    cells = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
    walls = {s for s, ch in cells.items() if ch == "#"}
    goals = {s for s, ch in cells.items() if ch in ".*+"}
    boxes = {s for s, ch in cells.items() if ch in "$*"}
    player = next(s for s, ch in cells.items() if ch in "@+")
    moves = "".join(Path(solution).read_text().split())
    print(f"; start\n{board(rows, walls, goals, boxes, player)}\n")
    pushes = 0
    for i, move in enumerate(moves):
        if move.lower() not in STEPS:
            sys.exit(f"move {i + 1}: '{move}' is not one of LURD")
        dr, dc = STEPS[move.lower()]
        ahead = (player[0] + dr, player[1] + dc)
        if ahead in walls:
            sys.exit(f"move {i + 1}: into a wall")
        if ahead in boxes:
            beyond = (ahead[0] + dr, ahead[1] + dc)
            if beyond in walls or beyond in boxes:
                sys.exit(f"move {i + 1}: a push into a wall or a box")
            boxes.remove(ahead)
            boxes.add(beyond)
            pushes += 1
            if pushes % every == 0:
                print(f"; push {pushes}\n{board(rows, walls, goals, boxes, ahead)}\n")
        player = ahead
    if boxes != goals:
        sys.exit("the solution does not solve the level")


if __name__ == "__main__":
    main()
