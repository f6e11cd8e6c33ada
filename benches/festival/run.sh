#!/bin/bash
# XSokoban at a per-level wall limit: ours (`sokoban solve --threads T`) against Festival 3.1 (`-cores C`),
# two pools running AT ONCE, one level at a time each, each pool pinned to its own half of the CPUs.
# Run from the repo root:  bash benches/festival/run.sh
# Env (defaults = the 16-core run):
#   LEVELS=1-90  THREADS=8  FCORES=8  LIMIT=10  OTIME=$LIMIT  FTIME=$LIMIT  GUARD=420  PIN=1  OUT=$OUT or benches/festival/out
#   (LIMIT is the wall limit of every process; OTIME our --time-limit, FTIME Festival's -time: OTIME=9.5 lets
#   ours stop and print on its own before the kill, as the 2-core anchor protocol does)
#   LIST="3 7 12" (levels instead of LEVELS' range)  SET=data/xsokoban90.xsb  ORDER=shuffle (same seeded order, SEED=16, for both pools; or ORDER=seq)
# Results: $OUT/ours.tsv, $OUT/festival.tsv, $OUT/env.txt, $OUT/log.txt
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export HERE
export LEVELS=${LEVELS:-1-90} THREADS=${THREADS:-8} FCORES=${FCORES:-8} LIMIT=${LIMIT:-10}
export OTIME=${OTIME:-$LIMIT} FTIME=${FTIME:-$LIMIT} GUARD=${GUARD:-420} PIN=${PIN:-1} SET=${SET:-data/xsokoban90.xsb}
export ORDER=${ORDER:-shuffle} SEED=${SEED:-16}
export OUT=${OUT:-$HERE/out}
mkdir -p "$OUT"
chmod +x "$HERE/bin/sokoban" "$HERE/bin/festival" 2>/dev/null
{
  echo "start: $(date -u +%FT%TZ)"
  echo "nproc: $(nproc)"
  echo "uname: $(uname -srm)"
  grep -m1 PRETTY_NAME /etc/os-release 2>/dev/null
  ldd --version 2>/dev/null | head -1
  lscpu 2>/dev/null | head -20
  free -m 2>/dev/null
  echo "loadavg: $(cat /proc/loadavg)"
  echo "settings: LEVELS=$LEVELS THREADS=$THREADS FCORES=$FCORES LIMIT=$LIMIT OTIME=$OTIME FTIME=$FTIME GUARD=$GUARD PIN=$PIN SET=$SET ORDER=$ORDER SEED=$SEED"
  cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null | sed 's/^/thp: /'

  sha256sum "$HERE/bin/sokoban" "$HERE/bin/festival" "$SET"
  cat "$HERE/bin/BUILD_INFO.txt" 2>/dev/null
} > "$OUT/env.txt" 2>&1

python3 - <<'PY' 2>&1 | tee "$OUT/log.txt"
import os, sys, time, json, shutil, tempfile, threading, subprocess, random, mmap

HERE, OUT, SET = os.environ["HERE"], os.environ["OUT"], os.environ["SET"]
THREADS, FCORES = os.environ["THREADS"], os.environ["FCORES"]
LIMIT, OTIME, FTIME = os.environ["LIMIT"], os.environ["OTIME"], os.environ["FTIME"]
GUARD, PIN = float(os.environ["GUARD"]), os.environ["PIN"] == "1"
sys.path.insert(0, HERE)
from levels import parse_levels

levels = parse_levels(SET)
a, _, b = os.environ["LEVELS"].partition("-")
todo = list(range(int(a), int(b or a) + 1))
if os.environ.get("LIST"):  # a list of levels instead of a range: LIST="3 7 12"
    todo = [int(x) for x in os.environ["LIST"].split()]
if os.environ["ORDER"] == "shuffle":
    random.Random(int(os.environ["SEED"])).shuffle(todo)
print(f"{len(levels)} levels in {SET}; order: {' '.join(map(str, todo))}", flush=True)

# Calibration (in a child, so this process's peak RSS stays small): first-touch rate of fresh memory.
# Festival -cores 8 writes ~5.6 GB of fresh memory in every process before it searches.
CAL = r"""
import mmap, time
n = 1 << 31; chunk = b"x" * (1 << 20); m = mmap.mmap(-1, n); t = time.monotonic()
for _ in range(n >> 20): m.write(chunk)
t1 = time.monotonic(); m.seek(0)
for _ in range(n >> 20): m.write(chunk)
t2 = time.monotonic()
print(f"calibration: first touch of 2 GiB {t1-t:.2f} s ({2.147/(t1-t):.2f} GB/s), rewrite {t2-t1:.2f} s")
"""
_c = subprocess.run([sys.executable, "-c", CAL], capture_output=True, text=True)
print((_c.stdout + _c.stderr[-300:]).strip(), flush=True)
# Max RSS: GNU time's %M when /usr/bin/time exists (as in the earlier protocol); otherwise wait4's
# ru_maxrss of `timeout`, which has this Python process's own peak RSS (~10 MB) as a floor.
_gt = os.environ.get("GNU_TIME", "/usr/bin/time")
GTIME = _gt if os.access(_gt, os.X_OK) else None
print(f"rss from: {'GNU time %M' if GTIME else 'wait4 ru_maxrss (floor = python RSS)'}", flush=True)

shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
cpus = sorted(os.sched_getaffinity(0))
half = len(cpus) // 2
cpu_sets = {"ours": cpus[:half] or cpus, "festival": cpus[half:] or cpus}
T0 = time.monotonic()

def ours_cmd(d):
    return [os.path.join(HERE, "bin", "sokoban"), "solve", "L.xsb", "--threads", THREADS,
            "--time-limit", OTIME, "--json"]

def fest_cmd(d):
    os.mkdir(os.path.join(d, "fo"))
    return [os.path.join(HERE, "bin", "festival"), "L.xsb", "-time", FTIME, "-cores", FCORES, "-out_dir", "fo"]

def ours_sol(d, out):
    lurd = note = ""
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("{"): continue
        try: j = json.loads(line)
        except Exception: note = "badjson"; continue
        note = str(j.get("status", ""))
        if j.get("status") == "solved" and j.get("lurd"): lurd = j["lurd"]
    return lurd, note

def fest_sol(d, out):
    p = os.path.join(d, "fo", "solutions.sok")
    if not os.path.exists(p): return "", "nofile"
    lines = open(p, encoding="latin-1").read().splitlines()
    lurd, i = "", 0
    while i < len(lines):
        if lines[i].strip() == "Solution":
            i += 1
            while i < len(lines) and lines[i].strip() and set(lines[i].strip()) <= set("lurdLURD"):
                lurd += lines[i].strip(); i += 1
            break
        i += 1
    return lurd, ""

SOLVERS = {"ours": (ours_cmd, ours_sol), "festival": (fest_cmd, fest_sol)}

def pool(name):
    if PIN:
        os.sched_setaffinity(0, cpu_sets[name])   # this thread only; its children inherit it
    mk, sol = SOLVERS[name]
    rows = []
    with open(os.path.join(OUT, name + ".tsv"), "w") as f:
        f.write("level\trc\twall_s\tmaxrss_kb\tstart_s\tgtime_e\tnote\tlurd\n")
        for lv in todo:
            start = time.monotonic() - T0
            if start > GUARD or lv > len(levels):
                f.write(f"{lv}\t\t\t\t{start:.2f}\t\tnotrun\t\n"); f.flush(); continue
            d = tempfile.mkdtemp(prefix=f"{name}{lv}_", dir=shm)
            with open(os.path.join(d, "L.xsb"), "w") as lf:
                lf.write("\n".join(levels[lv - 1]) + "\n")
            cmd = ["timeout", "-k", "2", LIMIT] + mk(d)
            tf = os.path.join(d, "gtime.txt")
            if GTIME: cmd = [GTIME, "-f", "%e %M", "-o", tf] + cmd
            so = open(os.path.join(d, "stdout.txt"), "wb"); se = open(os.path.join(d, "stderr.txt"), "wb")
            t = time.monotonic()
            p = subprocess.Popen(cmd, cwd=d, stdin=subprocess.DEVNULL, stdout=so, stderr=se)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.monotonic() - t
            p.returncode = rc = os.waitstatus_to_exitcode(status)
            so.close(); se.close()
            rss, te = ru.ru_maxrss, ""
            if GTIME:
                try:
                    te, m = open(tf).read().split()[-2:]; rss = int(m)
                except Exception: te = "?"
            out = open(os.path.join(d, "stdout.txt"), encoding="latin-1").read()
            err = open(os.path.join(d, "stderr.txt"), encoding="latin-1").read().strip().replace("\t", " ")
            lurd, note = sol(d, out)
            if rc in (124, 137): note = (note + " timeout").strip()
            if err: note = (note + " | " + " ".join(err.split())[:150]).strip()
            f.write(f"{lv}\t{rc}\t{wall:.3f}\t{rss}\t{start:.2f}\t{te}\t{note}\t{lurd}\n"); f.flush()
            print(f"{time.monotonic()-T0:7.1f}s {name:8s} L{lv:<3d} rc={rc:<3d} {wall:6.2f}s "
                  f"{rss//1024:6d}MB {'SOL' if lurd else '-  '} {note[:60]}", flush=True)
            shutil.rmtree(d, ignore_errors=True)

print(f"cpus {cpus}; pin={PIN} ours={cpu_sets['ours']} festival={cpu_sets['festival']}", flush=True)
ths = [threading.Thread(target=pool, args=(n,)) for n in ("ours", "festival")]
for t in ths: t.start()
for t in ths: t.join()
print(f"done in {time.monotonic()-T0:.1f}s", flush=True)
PY
echo "end: $(date -u +%FT%TZ)" >> "$OUT/env.txt"
echo "loadavg_end: $(cat /proc/loadavg)" >> "$OUT/env.txt"
