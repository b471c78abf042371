#!/bin/sh
# One command from a fresh Debian 12 machine to a result:
#   tools/setup.sh main   install what is missing, build, run the main job (an arena gauntlet)
#   tools/setup.sh test   install what is missing (also Debian's chromium, Node.js and npm if
#                         absent, and tests/browser's npm packages: playwright-core, which
#                         downloads no browser), build three configurations (gcc, clang, gcc
#                         with AddressSanitizer + UndefinedBehaviorSanitizer) and run the whole
#                         test suite through ctest in each (the browser test in the gcc build)
# Installs with apt-get as root, or through sudo otherwise. Every build warns as an error.
set -eu
cd "$(dirname "$0")/.."

usage() { echo "usage: tools/setup.sh main|test" >&2; exit 2; }
[ $# -eq 1 ] || usage
mode=$1
case "$mode" in main|test) ;; -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; *) usage ;; esac

packages="gcc make cmake pkg-config clang libcunit1-dev uthash-dev libxxhash-dev libcjson-dev python3 python3-torch gnuplot-nox parallel libncurses-dev tmux libmicrohttpd-dev"
# The browser test (picket-serve's table in Debian's chromium, driven by playwright-core from npm).
if [ "$mode" = test ]; then
    packages="$packages chromium"
    command -v node >/dev/null 2>&1 || packages="$packages nodejs"
    command -v npm >/dev/null 2>&1 || packages="$packages npm"
fi
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

if [ "$mode" = test ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
    echo "setup: installing tests/browser's npm packages (playwright-core; no browser is downloaded)"
    (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

jobs=$(nproc 2>/dev/null || echo 2)
build() { # dir, compiler, extra cmake options...
    dir=$1; cc=$2; shift 2
    CC=$cc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPICKET_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs" -- --no-print-directory
}

if [ "$mode" = main ]; then
    build build gcc
    # The default engine (the strongest bundled bot) in a gauntlet against the heuristic and PIMC,
    # in duplicate pairs at the bots' fixed default budgets, with the standings. Its results and
    # records are this job's own output: a new run replaces them.
    rm -rf build/main-results.jsonl build/main-records
    exec ./build/tools/picket-arena \
        -engine cmd=build/tools/picket-engine name=default \
        -engine cmd=build/tools/picket-engine name=heuristic option.bot=heuristic \
        -engine cmd=build/tools/picket-engine name=pimc option.bot=pimc \
        -each option.info=false -preset cotgrave -rounds 80 -seed 1 -concurrency 2 \
        -results build/main-results.jsonl -records build/main-records
fi

build build gcc
# The browser test runs once, in the gcc build.
build build-clang clang -DPICKET_BROWSER_TEST=OFF
build build-asan gcc -DPICKET_SANITIZE=ON -DPICKET_BROWSER_TEST=OFF
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for dir in build-asan build-clang build; do
    echo "== ctest in $dir"
    (cd "$dir" && ctest --output-on-failure -V -j "$jobs" --timeout 1200)
done
