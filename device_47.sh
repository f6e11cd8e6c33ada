#!/bin/bash
# Device check for issue 47 (not committed): per-level default vs fast at 60 s on XSokoban, and
# whole-set wall times of single processes on Microban and Microban II.
B=target/release/sokoban
mkdir -p $OUT/r
python3 benches/per_level.py $B $OUT/r 12 xs-def-60 data/xsokoban90.xsb 1 90 --time-limit 60 -- xs-fast-60 data/xsokoban90.xsb 1 90 --mode fast --time-limit 60 > $OUT/r/per-level.txt 2>&1 &
(
for set in microban microban-ii; do
  for mode in default fast; do
    extra=""; [ $mode = fast ] && extra="--mode fast"
    TIMEFORMAT="whole $set $mode %R s"
    { time $B solve data/$set.xsb --json $extra > $OUT/r/whole-$set-$mode.jsonl 2>/dev/null ; } 2>> $OUT/r/whole.txt
  done
done
for set in microban microban-ii; do
  $B solve data/$set.xsb --json --prove --time-limit 10 --jobs 3 > $OUT/r/prove10-$set.jsonl 2>/dev/null
done
) &
wait
cat $OUT/r/per-level.txt $OUT/r/whole.txt
cd $OUT/r && tar czf ../all.tgz . && cd .. && rm -rf r
