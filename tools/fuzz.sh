#!/bin/sh
# Fuzz the protocol input path with libFuzzer for a bounded time:
#   tools/fuzz.sh [SECONDS]     (default 60)
# Installs clang and its fuzzer runtime if missing, builds build-fuzz with
# -fsanitize=fuzzer,address,undefined, seeds the corpus with the protocol transcripts' input
# lines, and runs. Crashes land in build-fuzz/crashes/; the corpus grows in build-fuzz/corpus/.
set -eu
cd "$(dirname "$0")/.."
case "${1:-60}" in -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
seconds=${1:-60}
case "$seconds" in ''|*[!0-9]*) echo "usage: tools/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac

missing=""
for p in clang libclang-rt-14-dev cmake make pkg-config libcunit1-dev uthash-dev libxxhash-dev libcjson-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPICKET_FUZZ=ON >/dev/null
cmake --build build-fuzz --target fuzz_protocol -j "$(nproc)" -- --no-print-directory >/dev/null
mkdir -p build-fuzz/corpus build-fuzz/crashes
i=0
for f in tests/protocol/*.txt; do
    sed -n 's/^> //p' "$f" > "build-fuzz/corpus/transcript-$i"
    i=$((i + 1))
done
echo "fuzz: running fuzz_protocol for $seconds s"
build-fuzz/fuzz_protocol build-fuzz/corpus -max_total_time="$seconds" -max_len=60000 \
    -artifact_prefix=build-fuzz/crashes/ -print_final_stats=1 2>&1 | tail -25
found=$(ls build-fuzz/crashes | wc -l)
echo "fuzz: $found crash file(s) in build-fuzz/crashes"
[ "$found" -eq 0 ]
