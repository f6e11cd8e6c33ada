#!/usr/bin/env python3
"""Level-by-level comparison of a `sokoban bench --solutions` file with anchor results.

Usage: benches/compare.py [--tsv] [--anchors DIR] OURS.jsonl COLLECTION [SOLVER ...]

OURS.jsonl is what `sokoban bench … --solutions FILE` (or `sokoban solve --json`) wrote.
COLLECTION is the anchors' name of the level set: microban, microban2, xsokoban, sasquatch,
boxoban_hard300. The anchor directory holds `<solver>__<collection>.tsv` files (columns solver,
collection, level, solved, seconds, pushes, moves, …); it is benches/anchors/ next to this
script unless --anchors names another (e.g. benches/anchors/side-by-side-16core). Prints a
Markdown table per solver and the levels where the two differ, or with --tsv one row per level
with every solver's pushes and seconds (empty where unsolved). Only reads files; standard
library only.
"""

import csv
import json
import os
import sys

# The anchor figures kept in the repository (see benches/anchors/README.md).
DEFAULT_ANCHORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "anchors")


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


def per_level(ours, anchors):
    names = list(anchors)
    print("\t".join(["level", "ours_pushes", "ours_seconds"]
                    + [f"{n}_{c}" for n in names for c in ("pushes", "seconds")]))
    for level in sorted(set(ours) | {l for a in anchors.values() for l in a}):
        row = [str(level)]
        o = ours.get(level, {})
        solved = o.get("status") == "solved"
        row += [str(o["pushes"]), f"{o['seconds']:.3f}"] if solved else ["", ""]
        for n in names:
            a = anchors[n].get(level, {})
            row += [a["pushes"], a["seconds"]] if a.get("solved") == "1" else ["", ""]
        print("\t".join(row))


def main():
    args = sys.argv[1:]
    tsv = "--tsv" in args
    args = [a for a in args if a != "--tsv"]
    anchor_dir = DEFAULT_ANCHORS
    if "--anchors" in args:
        i = args.index("--anchors")
        if i + 1 >= len(args):
            sys.exit(__doc__)
        anchor_dir = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    ours = load_ours(args[0])
    collection, solvers = args[1], args[2:]
    # The old calling convention named the anchor directory third: still accepted.
    if solvers and os.path.isdir(solvers[0]):
        anchor_dir, solvers = solvers[0], solvers[1:]
    solvers = solvers or sorted(
        name.split("__")[0]
        for name in os.listdir(anchor_dir)
        if name.endswith(f"__{collection}.tsv") and not name.startswith("ours__")
    )
    if not solvers:
        sys.exit(f"no <solver>__{collection}.tsv files in {anchor_dir}")
    if tsv:
        anchors = {}
        for solver in solvers:
            path = os.path.join(anchor_dir, f"{solver}__{collection}.tsv")
            if os.path.exists(path):
                anchors[solver] = load_anchor(path)
        per_level(ours, anchors)
        return
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
