#!/usr/bin/env python3
"""Checks that two builds of `sokoban` give the same answers, level by level.

For each level set, both binaries run `solve --json` under the same node limit (so the result
does not depend on machine speed) and the script compares status, push count and expanded-node
count. A difference is printed and makes the exit status 1. Run it before and after a change of
the search core:

    git stash; cargo build --release; cp target/release/sokoban /tmp/sokoban-before; git stash pop
    cargo build --release
    benches/same_answers.py /tmp/sokoban-before target/release/sokoban

`--record FILE` saves the first binary's answers, `--against FILE` compares the second binary
with saved answers instead of running the first one. Both run `--mode pushes`; to compare with
a build from before the pushes mode's second (moves) pass, add `--extra=--no-moves-tiebreak`
for the newer binary (the node limit counts both passes).
"""
import argparse
import json
import subprocess
import sys

SETS = [
    ("data/microban.xsb", None, 300_000),
    ("data/microban-ii.xsb", None, 300_000),
    ("data/boxoban-hard.xsb", "1-300", 300_000),
    ("data/xsokoban90.xsb", "1-10", 300_000),
]


def answers(binary, extra):
    out = {}
    for path, levels, node_limit in SETS:
        cmd = [binary, "solve", path, "--mode", "pushes", "--json", "--node-limit", str(node_limit)]
        cmd += ["--time-limit", "600"] + extra
        if levels:
            cmd += ["--levels", levels]
        run = subprocess.run(cmd, capture_output=True, text=True)
        for line in run.stdout.splitlines():
            r = json.loads(line)
            out[f"{path}#{r['level']}"] = [r["status"], r.get("pushes"), r.get("nodes")]
        print(f"{binary}: {path} done", file=sys.stderr)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before", help="binary before the change (ignored with --against)")
    p.add_argument("after", nargs="?", help="binary after the change")
    p.add_argument("--record", help="save the first binary's answers to this JSON file and stop")
    p.add_argument("--against", help="compare with answers saved by --record")
    p.add_argument("--extra", default="", help="extra solve options, e.g. '--mode moves'")
    args = p.parse_args()
    extra = args.extra.split()
    if args.record:
        with open(args.record, "w") as f:
            json.dump(answers(args.before, extra), f, indent=0, sort_keys=True)
        return 0
    if args.against:
        with open(args.against) as f:
            before = json.load(f)
        after = answers(args.after or args.before, extra)
    else:
        before, after = answers(args.before, extra), answers(args.after, extra)
    diffs = 0
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            diffs += 1
            print(f"{key}: before {before.get(key)} after {after.get(key)}")
    print(f"{len(before)} levels compared, {diffs} differ (status, pushes, expanded nodes)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
