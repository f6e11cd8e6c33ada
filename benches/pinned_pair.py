#!/usr/bin/env python3
"""Two solver runs side by side, level by level, each pinned to a core of its own: the way to
compare two builds (or one build with and without a flag) on a shared machine whose speed moves
from hour to hour, since both sides meet the same machine at the same moment.

    benches/pinned_pair.py OUT FILE FIRST LAST BIN_A "ARGS_A" BIN_B "ARGS_B"
    benches/pinned_pair.py --summary OUT

For each level from FIRST to LAST, `BIN_A solve FILE --level N --json ARGS_A` runs on core 0
and `BIN_B ... ARGS_B` on core 1 (`taskset`), at the same time; the next level starts when
both have ended. OUT gets one JSON line per level: `level`, and for each side `A` and `B` its
status, the seconds to its answer (`found_seconds`), the search that found it and the
expansions. Every solution is replayed by the solver's own verifier before it is reported.
The summary prints each side's levels solved, the median and sum of the seconds to the
answers, the levels left, and the levels one side solved and the other did not.

Example (a build against itself without the one-thread turns, XSokoban at 10 s):

    benches/pinned_pair.py /tmp/x.jsonl data/xsokoban90.xsb 1 90 \\
        target/release/sokoban "--time-limit 10 --threads 1 --no-turns" \\
        target/release/sokoban "--time-limit 10 --threads 1"
"""
import json, subprocess, sys


def run_pair(out, path, first, last, sides):
    with open(out, "w") as res:
        for level in range(first, last + 1):
            procs = []
            for core, (binary, args) in enumerate(sides):
                cmd = ["taskset", "-c", str(core), binary, "solve", path, "--level", str(level), "--json"]
                procs.append(subprocess.Popen(cmd + args.split(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
            row = {"level": level}
            for name, proc in zip("AB", procs):
                out_text, _ = proc.communicate()
                lines = out_text.decode().strip().splitlines()
                r = json.loads(lines[-1]) if lines else {"status": "crashed"}
                found = r.get("found_seconds")
                row[name] = [r.get("status"), found and round(found, 2), r.get("found_by"), r.get("nodes")]
            res.write(json.dumps(row) + "\n")
            res.flush()


def summary(out):
    rows = [json.loads(line) for line in open(out)]
    for side in "AB":
        solved = sorted(r[side][1] or 0.0 for r in rows if r[side][0] == "solved")
        left = [r["level"] for r in rows if r[side][0] != "solved"]
        median = solved[len(solved) // 2] if solved else 0.0
        print(f"{side}: {len(solved)}/{len(rows)} solved, median {median:.2f} s, sum {sum(solved):.1f} s, left {left}")
    for r in rows:
        if (r["A"][0] == "solved") != (r["B"][0] == "solved"):
            print(f"  level {r['level']}: A {r['A'][:3]}, B {r['B'][:3]}")


def main():
    if sys.argv[1:2] == ["--summary"]:
        summary(sys.argv[2])
        return
    out, path, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    sides = [(sys.argv[5], sys.argv[6]), (sys.argv[7], sys.argv[8])]
    run_pair(out, path, first, last, sides)
    summary(out)


if __name__ == "__main__":
    main()
