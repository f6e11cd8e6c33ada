#!/bin/bash
# The whole device session, from the repo root: bash benches/festival/run_all.sh
# (a) XSokoban 10 s: ours --threads 8 against Festival -cores 8, two pools at once, 8 CPUs each.
# (b) XSokoban and Sasquatch 10 s, one thread each: ours --threads 1 against Festival -cores 1
#     (-time 80: strategy A gets the whole 10 s), 8 instances of two pools at once (16 processes).
# Files: $OUT/x8/{ours,festival,env,log}, $OUT/one/{ours,festival}.tsv (a set column added), $OUT/one/log.txt
set -u
H=$(dirname "$0")
ROOT=$OUT
OUT=$ROOT/x8 GUARD=${GUARD_A:-300} bash $H/run.sh > /dev/null 2>&1
mv $ROOT/x8/log.txt $ROOT/x8/log.txt 2>/dev/null
mkdir -p $ROOT/one /tmp/one
pids=()
for set in xsokoban90:90 sasquatch:50; do
  name=${set%%:*}; n=${set##*:}
  q=$(( (n + 3) / 4 ))
  for i in 0 1 2 3; do
    a=$(( i * q + 1 )); b=$(( (i + 1) * q )); [ $b -gt $n ] && b=$n
    OUT=/tmp/one/$name-$i SET=data/$name.xsb LEVELS=$a-$b THREADS=1 FCORES=1 FTIME=80 PIN=0 ORDER=seq \
      GUARD=${GUARD_B:-110} bash $H/run.sh > /dev/null 2>&1 &
    pids+=($!)
  done
done
wait "${pids[@]}"
for s in ours festival; do
  { printf 'set\t'; head -1 /tmp/one/xsokoban90-0/$s.tsv
    for d in /tmp/one/*; do tail -n +2 $d/$s.tsv | sed "s/^/$(basename $d | sed 's/-[0-9]*$//')\t/"; done
  } > $ROOT/one/$s.tsv
done
cat /tmp/one/*/log.txt > $ROOT/one/log.txt
cp /tmp/one/xsokoban90-0/env.txt $ROOT/one/env.txt 2>/dev/null
ls -la $ROOT/*
for s in ours festival; do echo "$s x8: $(awk -F'\t' 'NR>1 && $8!=""' $ROOT/x8/$s.tsv | wc -l) claimed"; echo "$s one: $(awk -F'\t' 'NR>1 && $9!=""' $ROOT/one/$s.tsv | wc -l) claimed"; done
