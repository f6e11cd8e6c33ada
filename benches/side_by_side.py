#!/usr/bin/env python3
"""Expanded nodes per CPU second of two `sokoban` builds, measured side by side.

Both binaries solve the same level sets under the same node limit, alternating run by run
(A, B, A, B, ...), so both see the same machine load. Speed is expanded nodes divided by the
process's user+system CPU time (which a busy machine disturbs far less than wall time); the best
of the rounds is reported for each binary, with the ratio B/A.

    benches/side_by_side.py /tmp/sokoban-before target/release/sokoban --rounds 3
    benches/side_by_side.py A B --mode fast --sets xsokoban-1-30,sasquatch-1-20 --node-limit 5000
"""
import argparse
import json
import os
import subprocess
import sys

import sokoban_cli

SETS = [
    ("microban", ["data/microban.xsb"], 200_000),
    ("xsokoban 1-10", ["data/xsokoban90.xsb", "--levels", "1-10"], 200_000),
]

# More sets by name for --sets, each run under --node-limit (or 200,000).
NAMED = {
    "microban": ["data/microban.xsb"],
    "xsokoban-1-10": ["data/xsokoban90.xsb", "--levels", "1-10"],
    "xsokoban-1-30": ["data/xsokoban90.xsb", "--levels", "1-30"],
    "sasquatch-1-20": ["data/sasquatch.xsb", "--levels", "1-20"],
}


def run(binary, args, node_limit, mode):
    before = os.times()
    out = subprocess.run(
        [binary, "solve", *args, "--mode", mode, "--json", "--node-limit", str(node_limit), "--time-limit", "600",
         *sokoban_cli.one_thread(binary)],
        capture_output=True, text=True,
    ).stdout
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    nodes = sum(json.loads(line)["nodes"] for line in out.splitlines())
    return nodes, cpu


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--mode", default="pushes", help="the solve mode of both binaries, e.g. fast")
    p.add_argument("--sets", default="", help=f"comma-separated sets of {', '.join(NAMED)} instead of the default ones")
    p.add_argument("--node-limit", type=int, default=200_000, help="node limit per level for --sets")
    args = p.parse_args()
    sets = SETS
    if args.sets:
        sets = [(name, NAMED[name], args.node_limit) for name in args.sets.split(",")]
    print("| set | A nodes/s | B nodes/s | B/A | nodes (A, B) |")
    print("|---|---|---|---|---|")
    for name, sel, limit in sets:
        best = {args.a: 0.0, args.b: 0.0}
        nodes = {}
        for _ in range(args.rounds):
            for binary in (args.a, args.b):
                n, cpu = run(binary, sel, limit, args.mode)
                nodes[binary] = n
                best[binary] = max(best[binary], n / cpu)
        a, b = best[args.a], best[args.b]
        print(f"| {name} | {a:,.0f} | {b:,.0f} | {b / a:.3f} | {nodes[args.a]:,}, {nodes[args.b]:,} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
