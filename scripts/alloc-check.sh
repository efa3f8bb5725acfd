#!/usr/bin/env bash
# The allocation gate for CI: builds rivulet-bench in release and counts heap
# allocations per event (sync chain, subject fan-out: budget 0) and per subscription
# (a 3-operator chain), exiting non-zero when a count is over its budget in
# Benchmarks/Sources/rivulet-bench/AllocCheck.swift. Prints the build and check times.
#   scripts/alloc-check.sh            reuses Benchmarks/.build (incremental)
#   scripts/alloc-check.sh --cold     builds into a fresh directory (what a CI runner
#                                     without a cache pays), removed afterwards
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd -P)"
started=$(date +%s)
if [ "${1:-}" = "--cold" ]; then
    scratch="$(mktemp -d "${TMPDIR:-/tmp}/rivulet-alloc-check.XXXXXX")"
    trap 'rm -rf "$scratch"' EXIT
    export RIVULET_BENCH_BUILD="$scratch"
fi
status=0
"$root/Benchmarks/run.sh" --alloc-check || status=$?
echo "alloc-check: $(( $(date +%s) - started )) s in all, exit status $status" >&2
exit "$status"
