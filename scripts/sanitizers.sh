#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer, then under AddressSanitizer, each in its own
# build folder, and prints how long each build and each run took.
#
#   scripts/sanitizers.sh              both, over the whole suite
#   scripts/sanitizers.sh thread       ThreadSanitizer only, over the whole suite
#   scripts/sanitizers.sh concurrency  ThreadSanitizer over the concurrency suites (CI)
#   scripts/sanitizers.sh address      AddressSanitizer only
#
# Extra arguments after the mode go to `swift test` (e.g. --filter Stress). ThreadSanitizer
# builds take the package trait ThreadSanitizer, which puts a pthread mutex, which the
# sanitizer intercepts, behind every InlineLock. Every ThreadSanitizer run ends with the
# planted race (ThreadSanitizerTests, RIVULET_PLANTED_RACE): a write from two threads
# with nothing between them, which must be reported, so that a clean run means the
# sanitizer was looking. Logs: .build-tsan/tsan.log (and tsan-planted.log),
# .build-asan/asan.log. The exit status is non-zero when a run failed, a sanitizer
# reported anything in the run, or the planted race went unreported.
set -uo pipefail
cd "$(dirname "$0")/.."

# The concurrency suites: every suite declared under these folders and files (a type
# whose name ends in Tests), the tests that race threads through subjects, sharing,
# combining operators, disposables, observe(on:), the async bridges and the blocking
# operators. RelayStressTests is left out: its unbounded ReplayRelay cases replay up to
# 8,000 elements to each of 400 subscribers, 70-94 s under the sanitizer, past their
# 30 s bound (2.5 s without it); the subjects under the relays are in SubjectStressTests.
concurrency_sources=(
    Tests/RxSwiftTests/Concurrency Tests/RxSwiftTests/Reliability
    Tests/RxSwiftTests/Sharing Tests/RxSwiftTests/Subjects
    Tests/RxSwiftTests/Operators/Combining/CombiningConcurrencyTests.swift
    Tests/RxSwiftTests/Core/DisposablesTests.swift
    Tests/RxSwiftTests/Schedulers/ObserveOnTests.swift
    Tests/RxSwiftTests/Internals/LockedStateTests.swift
    Tests/RxBlockingTests
)
# The concurrency run's tests stop after this many seconds, so that a hang fails CI
# rather than stalling it; the whole-suite runs have no limit.
concurrency_limit=900

# A --filter for `swift test` naming each suite declared in the files under $@, as
# Module.Suite (the module is the folder under Tests/).
suites_filter() {
    find "$@" -name '*.swift' | sort | while IFS= read -r file; do
        module=$(cut -d/ -f2 <<< "$file")
        sed -nE 's/^(@Suite[^"]*("[^"]*")?[^ ]* )?(final class|class|struct|enum) ([A-Za-z0-9_]+Tests)[ :{<].*/\4/p' "$file" |
            sed "s/^/$module\\\\./"
    done | paste -sd'|' | sed 's/.*/^(&)\//'
}

# Runs `swift test` with $sanitizer into $scratch: builds (timed), runs the tests with the
# arguments given (timed, stopped after $limit seconds unless it is 0) into $log, and
# counts the sanitizer's reports there.
run() {
    local sanitizer=$1 scratch=$2 log=$3 limit=$4
    shift 4
    local traits=()
    [[ $sanitizer == thread ]] && traits=(--traits ThreadSanitizer)
    mkdir -p "$scratch"
    local started=$SECONDS
    if ! swift build --build-tests --sanitize="$sanitizer" "${traits[@]}" --scratch-path "$scratch" >"$log" 2>&1; then
        tail -20 "$log"
        echo "$sanitizer: the build failed after $((SECONDS - started)) s; log: $log"
        return 1
    fi
    local built=$((SECONDS - started))
    started=$SECONDS
    # halt_on_error=0 for TSan: every report of the run is printed, not just the first.
    TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}" \
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" \
        timeout --kill-after=30 "$limit" \
        swift test --skip-build --sanitize="$sanitizer" "${traits[@]}" --scratch-path "$scratch" "$@" >>"$log" 2>&1
    local status=$?
    local reports
    reports=$(grep -cE "^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)" "$log")
    echo "$sanitizer: exit $status, $reports sanitizer report(s), build $built s, tests $((SECONDS - started)) s; log: $log"
    grep -E "Executed [0-9]+ tests?|Test run with [0-9]+ tests?" "$log" | tail -n 3 | sed 's/^/  /'
    if [[ $status -ne 0 || $reports -ne 0 ]]; then
        return 1
    fi
}

# The planted race, in the ThreadSanitizer build just made: passes when the sanitizer
# reports it.
planted_race() {
    local log=.build-tsan/tsan-planted.log
    RIVULET_PLANTED_RACE=1 TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0}" \
        swift test --skip-build --sanitize=thread --traits ThreadSanitizer --scratch-path .build-tsan \
        --filter 'RxSwiftTests\.ThreadSanitizerTests/plantedRace' >"$log" 2>&1
    local reports
    reports=$(grep -c "^WARNING: ThreadSanitizer" "$log")
    if ! grep -qE "Test run with 1 test .*passed" "$log"; then
        echo "thread: the planted race did not run; log: $log"
        return 1
    fi
    if [[ $reports -eq 0 ]]; then
        echo "thread: the planted race went unreported: this build's sanitizer would miss a race; log: $log"
        return 1
    fi
    echo "thread: the planted race reported ($reports report(s)), as it must be; log: $log"
}

which=${1:-both}
[[ $# -gt 0 ]] && shift
status=0
case "$which" in
    thread)
        run thread .build-tsan .build-tsan/tsan.log 0 "$@" || status=1
        planted_race || status=1
        ;;
    concurrency)
        run thread .build-tsan .build-tsan/tsan.log "$concurrency_limit" \
            --filter "$(suites_filter "${concurrency_sources[@]}")" "$@" || status=1
        planted_race || status=1
        ;;
    address) run address .build-asan .build-asan/asan.log 0 "$@" || status=1 ;;
    both)
        run thread .build-tsan .build-tsan/tsan.log 0 "$@" || status=1
        planted_race || status=1
        run address .build-asan .build-asan/asan.log 0 "$@" || status=1
        ;;
    *) sed -n '2,17p' "$0"; exit 64 ;;
esac
exit $status
