#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer, then under AddressSanitizer, each in
# its own build folder, and prints how long each took (build and tests together).
#
#   scripts/sanitizers.sh            both
#   scripts/sanitizers.sh thread     ThreadSanitizer only
#   scripts/sanitizers.sh address    AddressSanitizer only
#
# Extra arguments after the sanitizer name go to `swift test` (e.g. --filter Stress).
# Logs: .build-tsan/tsan.log and .build-asan/asan.log. The exit status is non-zero when
# a run failed or a sanitizer reported anything.
set -uo pipefail
cd "$(dirname "$0")/.."

run() {
    local sanitizer=$1 scratch=$2 log=$3
    shift 3
    mkdir -p "$scratch"
    local started=$SECONDS
    # halt_on_error=0 for TSan: every report of the run is printed, not just the first.
    TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}" \
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" \
        swift test --sanitize="$sanitizer" --scratch-path "$scratch" "$@" >"$log" 2>&1
    local status=$?
    local elapsed=$((SECONDS - started))
    local reports
    reports=$(grep -cE "^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)" "$log")
    echo "$sanitizer: exit $status, $reports sanitizer report(s), $elapsed s (build + tests); log: $log"
    grep -E "Executed [0-9]+ tests?|Test run with [0-9]+ tests?" "$log" | tail -n 3 | sed 's/^/  /'
    if [[ $status -ne 0 || $reports -ne 0 ]]; then
        return 1
    fi
}

which=${1:-both}
[[ $# -gt 0 ]] && shift
status=0
case "$which" in
    thread) run thread .build-tsan .build-tsan/tsan.log "$@" || status=1 ;;
    address) run address .build-asan .build-asan/asan.log "$@" || status=1 ;;
    both)
        run thread .build-tsan .build-tsan/tsan.log "$@" || status=1
        run address .build-asan .build-asan/asan.log "$@" || status=1
        ;;
    *) sed -n '2,11p' "$0"; exit 64 ;;
esac
exit $status
