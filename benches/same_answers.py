#!/usr/bin/env python3
"""Checks that two builds of `sokoban` give the same answers, level by level.

For each mode and level set, both binaries run `solve --json` under the same node limit (so the
result does not depend on machine speed) and the script compares status, push count and
expanded-node count. A difference is printed and makes the exit status 1. Run it before and
after a change of a search engine:

    git stash; cargo build --release; cp target/release/sokoban /tmp/sokoban-before; git stash pop
    cargo build --release
    benches/same_answers.py /tmp/sokoban-before target/release/sokoban --mode pushes,fast,auto

`--mode` takes a comma-separated list of `pushes`, `fast` and `auto`, each with a node limit of
its own (`NODE_LIMITS`, or `--node-limit N` for all of them); `--sets` picks level sets by name
(`SETS`; by default those of the first mode listed in `DEFAULT_SETS`). Every run also has a
time limit of 600 s per level, which no level reaches: with a node limit, the fast engine's
backward searches are paced by expansions, not by the clock, so all three modes give the same
answers from run to run.

`--record FILE` saves the first binary's answers to FILE and stops; `--against FILE` compares
the binary given (the second, or else the first) with answers saved so, on the modes and sets
asked for (answers of other modes or sets in FILE are skipped). To compare with a build from
before the pushes mode's second (moves) pass, add `--extra=--no-moves-tiebreak` for the newer
binary (the node limit counts both passes). Since auto's proof became a short attempt by
default, a newer binary's `--mode auto --extra=--prove` gives what an older one's `--mode auto`
gave (run auto on its own then: --extra applies to every mode of a run).
"""
import argparse
import json
import subprocess
import sys

import sokoban_cli

# Name: (file, level range or None).
SETS = {
    "microban": ("data/microban.xsb", None),
    "microban-ii": ("data/microban-ii.xsb", None),
    "xsokoban": ("data/xsokoban90.xsb", None),
    "xsokoban-1-10": ("data/xsokoban90.xsb", "1-10"),
    "sasquatch": ("data/sasquatch.xsb", None),
    "boxoban-hard": ("data/boxoban-hard.xsb", "1-300"),
}

# The sets a mode runs when --sets is not given.
DEFAULT_SETS = {
    "pushes": ["microban", "microban-ii", "xsokoban", "sasquatch"],
    "fast": ["microban", "microban-ii", "xsokoban", "sasquatch"],
    "auto": ["microban", "microban-ii", "xsokoban", "sasquatch"],
}

# Expanded states per level, small enough that every set of a mode takes a minute or two on one
# core (XSokoban the longest); `auto` may spend its limit twice (the fast engine, then the A*
# proof).
NODE_LIMITS = {"pushes": 50_000, "fast": 5_000, "auto": 5_000}


def answers(binary, modes, sets, node_limit, extra):
    out = {}
    for mode in modes:
        limit = node_limit or NODE_LIMITS[mode]
        for name in sets or DEFAULT_SETS[mode]:
            path, levels = SETS[name]
            cmd = [binary, "solve", path, "--mode", mode, "--json", "--node-limit", str(limit), *sokoban_cli.one_thread(binary)]
            cmd += ["--time-limit", "600"] + extra
            if levels:
                cmd += ["--levels", levels]
            run = subprocess.run(cmd, capture_output=True, text=True)
            for line in run.stdout.splitlines():
                r = json.loads(line)
                out[key(mode, name, r["level"])] = [r["status"], r.get("pushes"), r.get("nodes")]
            print(f"{binary}: {mode} {name} (node limit {limit}) done", file=sys.stderr)
    return out


def key(mode, name, level):
    return f"{mode} {name}#{level}"


def asked(k, modes, sets):
    mode, rest = k.split(" ", 1)
    name = rest.split("#", 1)[0]
    return mode in modes and name in (sets or DEFAULT_SETS[mode])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before", help="binary before the change (the one compared with --against)")
    p.add_argument("after", nargs="?", help="binary after the change")
    p.add_argument("--record", help="save the first binary's answers to this JSON file and stop")
    p.add_argument("--against", help="compare with answers saved by --record")
    p.add_argument("--mode", default="pushes", help="comma-separated modes: pushes, fast, auto")
    p.add_argument("--sets", default="", help=f"comma-separated sets of {', '.join(SETS)}")
    p.add_argument("--node-limit", type=int, help="one node limit for every mode")
    p.add_argument("--extra", default="", help="extra solve options, e.g. '--no-pulls'")
    args = p.parse_args()
    modes = [m for m in args.mode.split(",") if m]
    sets = [s for s in args.sets.split(",") if s]
    for m in modes:
        if m not in NODE_LIMITS:
            p.error(f"unknown mode {m}")
    for s in sets:
        if s not in SETS:
            p.error(f"unknown set {s}")
    run = lambda binary: answers(binary, modes, sets, args.node_limit, args.extra.split())
    if args.record:
        with open(args.record, "w") as f:
            json.dump(run(args.before), f, indent=0, sort_keys=True)
        return 0
    if args.against:
        with open(args.against) as f:
            before = {k: v for k, v in json.load(f).items() if asked(k, modes, sets)}
        after = run(args.after or args.before)
    else:
        before, after = run(args.before), run(args.after)
    diffs = 0
    for k in sorted(set(before) | set(after)):
        if before.get(k) != after.get(k):
            diffs += 1
            print(f"{k}: before {before.get(k)} after {after.get(k)}")
    print(f"{len(before)} levels compared, {diffs} differ (status, pushes, expanded nodes)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
