#!/usr/bin/env python3
"""Level-by-level comparison of a `sokoban bench --solutions` file with anchor results.

Usage: benches/compare.py OURS.jsonl COLLECTION ANCHOR_DIR [SOLVER ...]

OURS.jsonl is what `sokoban bench … --solutions FILE` (or `sokoban solve --json`) wrote.
ANCHOR_DIR holds `<solver>__<collection>.tsv` files (columns solver, collection, level, solved,
seconds, pushes, moves, …), e.g. ../shared/anchor-results. Prints a Markdown table per solver
and the levels where the two differ. Only reads files; standard library only.
"""

import csv
import json
import os
import sys


def load_ours(path):
    ours = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                row = json.loads(line)
                ours[row["level"]] = row
    return ours


def load_anchor(path):
    rows = {}
    with open(path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            rows[int(row["level"])] = row
    return rows


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    ours = load_ours(sys.argv[1])
    collection, anchor_dir = sys.argv[2], sys.argv[3]
    solvers = sys.argv[4:] or sorted(
        name.split("__")[0]
        for name in os.listdir(anchor_dir)
        if name.endswith(f"__{collection}.tsv")
    )
    print("| solver | both solved | only we | only they | we fewer pushes | equal pushes | they fewer pushes "
          "| our s (both) | their s (both) |")
    print("|---|---|---|---|---|---|---|---|---|")
    details = []
    for solver in solvers:
        path = os.path.join(anchor_dir, f"{solver}__{collection}.tsv")
        if not os.path.exists(path):
            continue
        theirs = load_anchor(path)
        both = only_we = only_they = fewer = equal = more = 0
        our_s = their_s = 0.0
        for level in sorted(set(ours) | set(theirs)):
            we = ours.get(level, {}).get("status") == "solved"
            they = theirs.get(level, {}).get("solved") == "1"
            if we and they:
                both += 1
                our_s += ours[level]["seconds"]
                their_s += float(theirs[level]["seconds"])
                a, b = ours[level]["pushes"], int(theirs[level]["pushes"])
                if a < b:
                    fewer += 1
                elif a == b:
                    equal += 1
                else:
                    more += 1
                    details.append(f"{solver}: level {level}: they push {b}, we push {a}")
            elif we:
                only_we += 1
                details.append(f"{solver}: level {level}: only we solve it")
            elif they:
                only_they += 1
                details.append(f"{solver}: level {level}: only they solve it ({theirs[level]['seconds']} s)")
        print(f"| {solver} | {both} | {only_we} | {only_they} | {fewer} | {equal} | {more} "
              f"| {our_s:.2f} | {their_s:.2f} |")
    print()
    for line in details:
        print(f"- {line}")


if __name__ == "__main__":
    main()
