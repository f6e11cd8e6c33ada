#!/bin/bash
# Build a static, stripped Festival 3.1 binary from jollyjinx/SwiftFestivalSolver @ 7cb2f9b5c634
# (Sources/CFestival/festival_3.1__src unchanged; compat/ = that repo's Sources/CFestival/compat).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
for f in src/festival_3.1__src/*.cpp festival_main.cpp; do
  o=build/$(basename "$f" .cpp).o
  [ "$o" -nt "$f" ] && continue
  nice g++ -O3 -std=c++17 -DTHREADS -DLINUX -fpermissive -Isrc/compat -c "$f" -o "$o" 2>>build/warnings.log
done
nice g++ -O3 -static -pthread build/*.o -o build/festival.unstripped
mkdir -p bin && strip -o bin/festival build/festival.unstripped
ls -l bin/festival
