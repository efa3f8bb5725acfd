#!/usr/bin/env bash
# "Copy as a test", checked the way a user meets it: `rxmarbles --test` writes every
# gallery operator's diagram, a few chains (`--chain ... --test`, a test per stage) and
# a few comparisons (`--compare ... --test`, a test per operator), as tests of each kind (XCTest, Swift Testing) into a fresh package that
# depends on this checkout by path, and that package builds them (no warning allowed)
# and runs them; each one must pass.
#
# OPERATORS limits the sample (default: the whole gallery); CHAINS and COMPARISONS list
# the chains and comparisons (comma-separated operators, one a word); SCRATCH is the build folder
# of rxmarbles itself (.build by default); WRITTEN_TESTS_DIR holds the package and its
# build folder (.build-written-tests by default), kept between runs so that they are
# incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SCRATCH="${SCRATCH:-.build}"
WORK="${WRITTEN_TESTS_DIR:-$ROOT/.build-written-tests}"

swift build --scratch-path "$SCRATCH" --product rxmarbles
RXMARBLES="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/rxmarbles"
OPERATORS="${OPERATORS:-$("$RXMARBLES" --list | awk '{print $1}')}"
CHAINS="${CHAINS:-filter,map,debounce interval,map,take range,scan,takeLast map,delaySubscription,retry skip,distinctUntilChanged,startWith,buffer}"
COMPARISONS="${COMPARISONS:-flatMap,concatMap,flatMapLatest,flatMapFirst merge,concat,amb debounce,throttle,delay combineLatest,zip take,skip,takeLast}"

PACKAGE="$WORK/package"
rm -rf "$PACKAGE"
mkdir -p "$PACKAGE/Tests/WrittenTests"
IDENTITY="$(basename "$ROOT")"
cat > "$PACKAGE/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "WrittenTests",
    dependencies: [.package(path: "$ROOT")],
    targets: [
        .testTarget(name: "WrittenTests", dependencies: [
            .product(name: "RxSwift", package: "$IDENTITY"),
            .product(name: "RxTest", package: "$IDENTITY"),
        ]),
    ]
)
MANIFEST

# Each job: the arguments of rxmarbles, and the file name; a test per operator named.
jobs=()
for operator in $OPERATORS; do jobs+=("$operator"); done
for chain in $CHAINS; do jobs+=("--chain $chain"); done
for comparison in $COMPARISONS; do jobs+=("--compare $comparison"); done
count=0
for job in "${jobs[@]}"; do
    # shellcheck disable=SC2086 # the job's words are separate arguments
    set -- $job
    file="$(echo "$job" | tr ' ,' '--' | sed 's/^--//')"
    "$RXMARBLES" "$@" --test xctest > "$PACKAGE/Tests/WrittenTests/$file+XCTest.swift"
    "$RXMARBLES" "$@" --test swift-testing > "$PACKAGE/Tests/WrittenTests/$file+SwiftTesting.swift"
    count=$((count + $(echo "${@: -1}" | tr ',' '\n' | wc -l)))
done
echo "rxmarbles --test wrote $count operators' tests, of both kinds"

LOG="$WORK/test.log"
if ! swift test --package-path "$PACKAGE" --scratch-path "$WORK/build" > "$LOG" 2>&1; then
    grep -E "error:|failed|✘" "$LOG" | head -60
    echo "the written tests failed (whole log: $LOG)"
    exit 1
fi
if grep -q "WrittenTests/.*warning:" "$LOG"; then
    grep "WrittenTests/.*warning:" "$LOG" | head -40
    echo "the written tests compile with warnings"
    exit 1
fi
# Both kinds ran, one test per operator each.
xctests="$(grep -Eo "Executed [0-9]+ tests?" "$LOG" | tail -n 1 | grep -Eo "[0-9]+")"
swifttests="$(grep -Eo "Test run with [0-9]+ tests?" "$LOG" | tail -n 1 | grep -Eo "[0-9]+")"
if [ "$xctests" != "$count" ] || [ "$swifttests" != "$count" ]; then
    echo "expected $count XCTest and $count Swift Testing tests, ran $xctests and $swifttests (log: $LOG)"
    exit 1
fi
echo "written tests: $xctests XCTest and $swifttests Swift Testing tests passed"
