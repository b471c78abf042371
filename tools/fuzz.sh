#!/bin/sh
# Fuzz the engine's input with libFuzzer for a bounded time:
#   tools/fuzz.sh [SECONDS]                      protocol lines (default 60 s)
#   tools/fuzz.sh sequences [SECONDS] [JOBS]     event sequences: real transcripts, mutated a line
#                                                at a time; a go not answered in 20 s is a hang
# Installs clang and its fuzzer runtime if missing, builds build-fuzz with
# -fsanitize=fuzzer,address,undefined, seeds the corpus (the protocol transcripts' input lines;
# for sequences, what engines are sent in arena games of every game and preset), and runs.
# Crashes and hangs land in build-fuzz/crashes/; the corpus grows in build-fuzz/corpus*/.
set -eu
cd "$(dirname "$0")/.."
target=protocol
case "${1:-}" in
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    sequences) target=sequences; shift ;;
esac
seconds=${1:-60}
jobs=${2:-1}
for n in "$seconds" "$jobs"; do
    case "$n" in ''|*[!0-9]*|0) echo "usage: tools/fuzz.sh [sequences] [SECONDS] [JOBS]" >&2; exit 2 ;; esac
done

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
mkdir -p build-fuzz/crashes
if [ "$target" = protocol ]; then
    cmake --build build-fuzz --target fuzz_protocol -j "$(nproc)" -- --no-print-directory >/dev/null
    mkdir -p build-fuzz/corpus
    i=0
    for f in tests/protocol/*.txt; do
        sed -n 's/^> //p' "$f" > "build-fuzz/corpus/transcript-$i"
        i=$((i + 1))
    done
    echo "fuzz: running fuzz_protocol for $seconds s"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build-fuzz/fuzz_protocol build-fuzz/corpus -max_total_time="$seconds" -max_len=60000 \
        -artifact_prefix=build-fuzz/crashes/ -print_final_stats=1 2>&1 | tail -25
else
    cmake --build build-fuzz --target fuzz_sequences picket-arena picket-engine -j "$(nproc)" \
        -- --no-print-directory >/dev/null
    corpus=build-fuzz/corpus-sequences
    mkdir -p "$corpus"
    if [ -z "$(ls "$corpus")" ]; then
        # One transcript for each engine process of short arena runs, random against the
        # heuristic in every game, preset and table size: its first 250 lines (a hand or two,
        # so that an input runs in milliseconds).
        log=build-fuzz/sequences.log
        runs="2 -preset cotgrave|2 -preset cotton|2 -preset ducoeur-letter|2 -preset ducoeur-report|3 -game highcard"
        for n in 2 3 4 5 6 7 8; do runs="$runs|$n -game court-circular -players $n"; done
        k=0
        echo "$runs" | tr '|' '\n' | while read -r seats how; do
            engines=""
            for i in $(seq 1 "$seats"); do
                bot=random; [ $((i % 2)) -eq 0 ] && bot=heuristic
                engines="$engines -engine cmd=build-fuzz/tools/picket-engine name=$bot$i option.bot=$bot"
            done
            rm -f "$log"
            # shellcheck disable=SC2086
            ASAN_OPTIONS=detect_leaks=0 build-fuzz/tools/picket-arena $how $engines -rounds 1 -seed $((k + 1)) \
                -quiet -log "$log" >/dev/null 2>&1 || { echo "fuzz: the arena failed ($how)" >&2; exit 1; }
            awk -v dir="$corpus" -v k="$k" '$3 == ">" {
                    line = $0; sub(/^[^ ]+ [^ ]+ > /, "", line)
                    f = dir "/" k "-" $2; if (!(f in seen)) { printf "%c", 65 + (length(seen) % 50) > f; seen[f] = 1 }
                    if (++lines[f] <= 250) print line >> f
                }' "$log"
            k=$((k + 1))
        done
    fi
    echo "fuzz: running fuzz_sequences for $seconds s, $jobs job(s), $(ls "$corpus" | wc -l) transcripts in the corpus"
    # libFuzzer logs each job to build-fuzz/fuzz-N.log (one job: fuzz-main.log); the final
    # statistics are summed below.
    (cd build-fuzz && rm -f fuzz-*.log && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ./fuzz_sequences corpus-sequences -max_total_time="$seconds" \
        -max_len=60000 -timeout=60 -rss_limit_mb=4096 -jobs="$jobs" -workers="$jobs" \
        -artifact_prefix=crashes/ -print_final_stats=1 >fuzz-main.log 2>&1 || true)
    cat build-fuzz/fuzz-*.log | awk '/stat::number_of_executed_units/ { n += $2 } /stat::new_units_added/ { u += $2 }
        END { printf "fuzz: %d inputs run, %d new corpus units\n", n, u }'
fi
found=$(ls build-fuzz/crashes | wc -l)
echo "fuzz: $found crash or hang file(s) in build-fuzz/crashes"
[ "$found" -eq 0 ]
