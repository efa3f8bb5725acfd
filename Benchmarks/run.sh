#!/usr/bin/env bash
# Builds rivulet-bench in release and runs it: the table of time per unit and ratios,
# then the allocation counts. Options go to rivulet-bench, e.g.
#   Benchmarks/run.sh                 the full table (about a minute)
#   Benchmarks/run.sh --alloc-check   allocation budgets only; exits 1 when one is exceeded
#   Benchmarks/run.sh --quick         a smaller, faster smoke run
# RIVULET_BENCH_BUILD sets the build directory (default Benchmarks/.build).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd -P)"
root="$(dirname "$here")"
scratch="${RIVULET_BENCH_BUILD:-$here/.build}"
package="$here"

# SwiftPM names a local package after its directory. When the checkout itself is
# called "benchmarks", Rivulet (at "..") and this package (at "Benchmarks") get the
# same name and the build cannot tell them apart; build from a mirror under another
# name then. `cp -u` leaves unchanged files alone, so rebuilds stay incremental.
if [ "$(basename "$root" | tr '[:upper:]' '[:lower:]')" = "benchmarks" ]; then
    mirror="${TMPDIR:-/tmp}/rivulet-bench-mirror/rivulet"
    mkdir -p "$mirror/Benchmarks"
    sync_tree() { # source destination
        mkdir -p "$2"
        cp -a -u "$1/." "$2/"
        (cd "$2" && find . -depth -print) | while IFS= read -r entry; do
            [ -e "$1/$entry" ] || rm -rf "${2:?}/$entry"
        done
    }
    cp -a -u "$root/Package.swift" "$mirror/"
    sync_tree "$root/Sources" "$mirror/Sources"
    cp -a -u "$here/Package.swift" "$mirror/Benchmarks/"
    sync_tree "$here/Sources" "$mirror/Benchmarks/Sources"
    # Files may have been added or removed: have SwiftPM plan the build again.
    touch "$mirror/Package.swift" "$mirror/Benchmarks/Package.swift"
    package="$mirror/Benchmarks"
fi

swift build -c release --package-path "$package" --scratch-path "$scratch" --product rivulet-bench
exec "$scratch/release/rivulet-bench" "$@"
