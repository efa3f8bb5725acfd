#!/usr/bin/env bash
# Builds Rivulet's libFuzzer targets (Fuzz/, a package of its own) and runs them.
#
#   scripts/fuzz.sh build                 build every target (release, fuzzer + address sanitizer)
#   scripts/fuzz.sh run TARGET [RUNS]     fuzz one target for RUNS executions (default 1000000)
#   scripts/fuzz.sh all [RUNS]            build, then fuzz each target for RUNS executions
#   scripts/fuzz.sh repro TARGET FILE...  run a target once on saved inputs (crash files)
#   scripts/fuzz.sh smoke                 what CI runs after `build`: each target replays its
#                                         seeds once, then a short fuzz from a fixed seed
#
# TARGET is FuzzMarbles (RxTestCore's marble parsers, renderer and TestScheduler replay),
# FuzzRxMarbles (the rxmarbles tool's arguments and marble inputs) or FuzzLanes (lanes
# recordings: the file reader, the drawings and the test writer).
# The working corpus lives in .build-fuzz/corpus/TARGET (seeded from Fuzz/Seeds), crash
# inputs in .build-fuzz/artifacts/TARGET. Each run prints libFuzzer's own statistics;
# the script ends with the executions done per target ("stat::number_of_executed_units").
# Environment: FUZZ_MAX_TIME (seconds per target, default none), FUZZ_JOBS (default 1),
# FUZZ_SCOPE=parsers (only the parsing stages of each target: the long runs, see
# Sources/RxSwift/RxSwift.docc/Reliability.md), FUZZ_MAX_LEN (longest input, default 512),
# FUZZ_SANITIZE (default "fuzzer,address"; "fuzzer" alone runs several times faster, for
# the long runs, and builds into .build-fuzz-fast).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
sanitize="${FUZZ_SANITIZE:-fuzzer,address}"
if [[ "$sanitize" == "fuzzer,address" ]]; then scratch="$root/.build-fuzz"; else scratch="$root/.build-fuzz-fast"; fi
targets=(FuzzMarbles FuzzRxMarbles FuzzLanes)

build() {
    local started=$SECONDS
    swift build -c release \
        --package-path "$root/Fuzz" \
        --scratch-path "$scratch" \
        -Xswiftc -sanitize="$sanitize" \
        -Xswiftc -parse-as-library
    echo "fuzz build: $((SECONDS - started)) s"
}

binary() {
    local bin
    bin=$(swift build -c release --package-path "$root/Fuzz" --scratch-path "$scratch" \
        -Xswiftc -sanitize="$sanitize" -Xswiftc -parse-as-library --show-bin-path)
    echo "$bin/$1"
}

seed_dir() {
    case "$1" in
        FuzzMarbles) echo "$root/Fuzz/Seeds/marbles" ;;
        FuzzRxMarbles) echo "$root/Fuzz/Seeds/rxmarbles" ;;
        FuzzLanes) echo "$root/Fuzz/Seeds/lanes" ;;
        *) echo "unknown target $1 (expected one of: ${targets[*]})" >&2; exit 64 ;;
    esac
}

run() {
    local target=$1 runs=${2:-1000000}
    local seeds corpus artifacts
    seeds=$(seed_dir "$target")
    corpus="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    local extra=()
    if [[ -n "${FUZZ_MAX_TIME:-}" ]]; then extra+=("-max_total_time=$FUZZ_MAX_TIME"); fi
    # Parallel jobs write fuzz-N.log files into the current directory: run them in a
    # folder of the target's own, so that its counts are not mixed with another's.
    # With FUZZ_JOBS, each job runs RUNS / FUZZ_JOBS executions.
    local workdir="$scratch/work/$target"
    mkdir -p "$workdir"
    rm -f "$workdir"/fuzz-*.log
    if [[ "${FUZZ_JOBS:-1}" -gt 1 ]]; then
        extra+=("-jobs=$FUZZ_JOBS" "-workers=$FUZZ_JOBS")
        runs=$(( (runs + FUZZ_JOBS - 1) / FUZZ_JOBS ))
    fi
    local started=$SECONDS
    cd "$workdir"
    # -rss_limit_mb: the machine has room; -timeout: a single input taking longer is a hang.
    # SWIFT_BACKTRACE=enable=no: a trap is left to libFuzzer, which saves the input;
    # Swift's own backtracer would fight AddressSanitizer over the crashed process.
    SWIFT_BACKTRACE=enable=no "$(binary "$target")" "$corpus" "$seeds" \
        -runs="$runs" -max_len="${FUZZ_MAX_LEN:-512}" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "${extra[@]}" 2>&1 \
        | tee "$scratch/$target.log" | grep --line-buffered -E "^(#[0-9]+ +(DONE|INITED|pulse)|stat::|==[0-9]+==|SUMMARY|Fatal|.*fuzz invariant)" || true
    cd "$root"
    local executed
    # With parallel jobs the main log repeats each job's log when it ends: count the
    # jobs' own logs then.
    local logs=("$scratch/$target.log")
    if [[ "${FUZZ_JOBS:-1}" -gt 1 ]]; then logs=("$workdir"/fuzz-*.log); fi
    executed=$(cat "${logs[@]}" 2>/dev/null | grep -E "^stat::number_of_executed_units" | awk '{s += $2} END {print s + 0}') || true
    echo "$target: $executed executions in $((SECONDS - started)) s"
    if cat "$scratch/$target.log" "$workdir"/fuzz-*.log 2>/dev/null | grep -qE "^(==[0-9]+==ERROR|SUMMARY: libFuzzer)"; then
        echo "$target: found a crash; inputs are in $artifacts" >&2
        return 1
    fi
}

repro() {
    local target=$1
    shift
    SWIFT_BACKTRACE=enable=no "$(binary "$target")" "$@"
}

# Bounded and repeatable, for CI: every seed input once (the crash inputs saved there
# among them), then SMOKE_RUNS executions from libFuzzer's seed 1 into a corpus of its
# own, with a per-input timeout far above any real input's time. Leak detection is off,
# as in scripts/sanitizers.sh: leaks are the leak check's (Reliability.md). Both switches
# are needed: libFuzzer's -detect_leaks=0 stops its check after each input, and
# ASAN_OPTIONS=detect_leaks=0 the sanitizer's own check when the process exits, which
# scans memory conservatively and so reports a cycle in one run and not the next.
smoke() {
    local status=0 target seeds corpus
    for target in "${targets[@]}"; do
        seeds=$(seed_dir "$target")
        mkdir -p "$scratch/smoke"
        if ! ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$(binary "$target")" -detect_leaks=0 "$seeds"/* > "$scratch/smoke/$target-seeds.log" 2>&1; then
            tail -40 "$scratch/smoke/$target-seeds.log"
            echo "$target: a seed input fails" >&2
            status=1
            continue
        fi
        corpus="$scratch/smoke/corpus-$target"
        rm -rf "$corpus"
        mkdir -p "$corpus"
        if ! ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$(binary "$target")" "$corpus" "$seeds" \
            -seed=1 -runs="${SMOKE_RUNS:-2000}" -max_len=512 -timeout=120 -rss_limit_mb=4096 -detect_leaks=0 \
            -artifact_prefix="$scratch/smoke/$target-" > "$scratch/smoke/$target.log" 2>&1; then
            tail -40 "$scratch/smoke/$target.log"
            echo "$target: the fixed-seed fuzz found a crash; the input is in $scratch/smoke" >&2
            status=1
            continue
        fi
        echo "$target: $(ls "$seeds" | wc -l) seed inputs replayed, ${SMOKE_RUNS:-2000} fixed-seed executions"
    done
    return $status
}

case "${1:-all}" in
    build) build ;;
    run) run "${2:?target}" "${3:-1000000}" ;;
    repro) repro "${2:?target}" "${@:3}" ;;
    smoke) smoke ;;
    all)
        build
        status=0
        for target in "${targets[@]}"; do
            run "$target" "${2:-1000000}" || status=1
        done
        exit $status
        ;;
    *) sed -n '2,19p' "$0"; exit 64 ;;
esac
