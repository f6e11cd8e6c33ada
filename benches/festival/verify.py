#!/usr/bin/env python3
"""Check and summarise a run of benches/festival/run.sh (or run_all.sh).

usage: python3 benches/festival/verify.py [RESULTS_DIR] [--set data/xsokoban90.xsb] [--bin PATH_TO_SOKOBAN]
RESULTS_DIR holds ours.tsv and festival.tsv (default benches/festival/out).

Every claimed LURD is replayed twice: by a small replayer in this file (lowercase = walk, uppercase = push,
all boxes on goals at the end) and by `sokoban verify --json`. A level counts as solved only if the process
ended within the limit (rc not 124/137) and both replays accept the solution.
"""
import json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
args = sys.argv[1:]
def opt(name, default):
    if name in args:
        i = args.index(name); v = args[i + 1]; del args[i:i + 2]; return v
    return default
SET = opt("--set", os.path.join(ROOT, "data/xsokoban90.xsb"))
BIN = opt("--bin", os.path.join(ROOT, "target", "release", "sokoban"))
RES = args[0] if args else os.path.join(HERE, "out")
sys.path.insert(0, HERE)
from levels import parse_levels

def replay(rows, lurd):
    """Return (ok, pushes, moves, error)."""
    walls, boxes, goals, player = set(), set(), set(), None
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "#": walls.add((y, x))
            if c in "$*": boxes.add((y, x))
            if c in ".*+": goals.add((y, x))
            if c in "@+": player = (y, x)
    if player is None or len(boxes) != len(goals): return False, 0, 0, "bad level"
    d = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
    pushes = 0
    for i, ch in enumerate(lurd):
        if ch.lower() not in d: return False, pushes, i, f"bad char {ch!r} at {i}"
        dy, dx = d[ch.lower()]
        n = (player[0] + dy, player[1] + dx)
        if n in walls: return False, pushes, i, f"wall at move {i+1}"
        if n in boxes:
            if not ch.isupper(): return False, pushes, i, f"unmarked push at move {i+1}"
            b2 = (n[0] + dy, n[1] + dx)
            if b2 in walls or b2 in boxes: return False, pushes, i, f"blocked push at move {i+1}"
            boxes.remove(n); boxes.add(b2); pushes += 1
        elif ch.isupper(): return False, pushes, i, f"push mark without box at move {i+1}"
        player = n
    if boxes != goals: return False, pushes, len(lurd), "not solved at end"
    return True, pushes, len(lurd), ""

def load(name):
    p = os.path.join(RES, name + ".tsv")
    rows = {}
    if not os.path.exists(p): return rows
    lines = open(p).read().splitlines()
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) < 8: f += [""] * (8 - len(f))
        rows[int(f[0])] = dict(level=int(f[0]), rc=f[1], wall=float(f[2]) if f[2] else None,
                               rss=int(f[3]) if f[3] else None, note=f[6], lurd=f[7].strip())
    return rows

def ours_verify(levels_path, claims):
    """{level: (valid, pushes, moves)} from `sokoban verify --json`."""
    if not claims or not os.path.exists(BIN): return {}
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as t:
        t.write("level\tlurd\n")
        for lv, s in sorted(claims.items()): t.write(f"{lv}\t{s}\n")
    out = subprocess.run([BIN, "verify", levels_path, t.name, "--json"], capture_output=True, text=True).stdout
    os.unlink(t.name)
    res = {}
    for line in out.splitlines():
        if line.startswith("{"):
            j = json.loads(line)
            res[j["level"]] = (j["status"] == "valid", j.get("pushes"), j.get("moves"))
    return res

levels = parse_levels(SET)
solvers = ["ours", "festival"]
data = {s: load(s) for s in solvers}
solved = {}
print(f"results: {RES}   levels: {SET} ({len(levels)})   verifier: {BIN if os.path.exists(BIN) else 'python only'}")
for s in solvers:
    rows = data[s]
    claims = {lv: r["lurd"] for lv, r in rows.items() if r["lurd"]}
    ov = ours_verify(SET, claims)
    solved[s] = {}
    for lv, r in rows.items():
        r["status"] = "notrun" if "notrun" in r["note"] else ("timeout" if r["rc"] in ("124", "137") else "fail")
        if not r["lurd"]: continue
        ok, pushes, moves, err = replay(levels[lv - 1], r["lurd"])
        ok2 = ov.get(lv, (None,))[0] if ov else None
        if ok2 is not None and ok2 != ok:
            print(f"  DISAGREE {s} L{lv}: python={ok} ({err}) sokoban verify={ok2}")
        if ok and ok2 is not False and r["rc"] not in ("124", "137"):
            r["status"] = "solved"; r["pushes"], r["moves"] = pushes, moves
            solved[s][lv] = r
        else:
            r["status"] = "invalid" if not ok or ok2 is False else "late"   # late: valid, but rc 124/137
            print(f"  {r['status'].upper()} {s} L{lv}: rc={r['rc']} {err}")

print()
print(f"{'solver':9s} {'solved':>7s} {'sum s':>8s} {'median s':>9s} {'timeouts':>8s} {'fail':>5s} {'late':>5s} {'invalid':>7s} "
      f"{'notrun':>6s} {'maxRSS MiB all/solved':>22s}")
for s in solvers:
    rows = data[s]; sv = solved[s]
    walls = [r["wall"] for r in sv.values()]
    cnt = lambda st: sum(1 for r in rows.values() if r["status"] == st)
    rss_all = max([r["rss"] for r in rows.values() if r["rss"]] or [0]) // 1024
    rss_sol = max([r["rss"] for r in sv.values()] or [0]) // 1024
    print(f"{s:9s} {len(sv):3d}/{len(rows):<3d} {sum(walls):8.2f} {statistics.median(walls) if walls else 0:9.2f} "
          f"{cnt('timeout'):8d} {cnt('fail'):5d} {cnt('late'):5d} {cnt('invalid'):7d} {cnt('notrun'):6d} "
          f"{rss_all:>13d} / {rss_sol:<6d}")
a, b = solved["ours"], solved["festival"]
both = sorted(set(a) & set(b))
print()
print(f"only ours solved ({len(set(a) - set(b))}): {sorted(set(a) - set(b))}")
print(f"only festival solved ({len(set(b) - set(a))}): {sorted(set(b) - set(a))}")
print(f"neither ({len(set(data['ours']) - set(a) - set(b))}): {sorted(set(data['ours']) - set(a) - set(b))}")
if both:
    sa, sb = sum(a[l]["wall"] for l in both), sum(b[l]["wall"] for l in both)
    pa, pb = sum(a[l]["pushes"] for l in both), sum(b[l]["pushes"] for l in both)
    ma, mb = sum(a[l]["moves"] for l in both), sum(b[l]["moves"] for l in both)
    print(f"both solved ({len(both)}): wall sum ours {sa:.2f} s, festival {sb:.2f} s (ours/festival {sa/sb:.2f}); "
          f"pushes {pa} vs {pb}; moves {ma} vs {mb}")
    fewer = [l for l in both if b[l]["pushes"] < a[l]["pushes"]]
    print(f"levels where festival has fewer pushes than ours: {fewer}")
