#!/usr/bin/env bash
# The sign-in example seen running and turned into a test, end to end, as a user does it:
#
# 1. Examples' `sign-in-recording` runs the sign-in view model on real queues (typing on
#    a keyboard queue, a back end answering on a network queue, the outputs bound on the
#    main queue) with lanes on its inputs and outputs, and saves the recording.
# 2. `rxmarbles lanes` draws it as text, SVG and HTML; a file cut short and a malformed
#    one are refused with the line named and exit status 1; an empty one draws.
# 3. `rxmarbles lanes --test` writes it as an XCTest and as a Swift Testing test, with
#    email, password and signInTap as inputs and signInButtonEnabled as the output; the
#    view model is put in the marked place, and a package depending on this checkout
#    and on Examples builds both (no warning allowed) and runs them: both must pass in
#    virtual time.
# 4. The committed recording (Examples/Recordings/sign-in.lanes) written the same way is
#    the committed test (Examples/Tests/ExampleViewModelTests/SignInRecordingTests.swift),
#    which `swift test` in Examples runs, and drawn it is the picture and the text of
#    RxLanes' documentation. `--update` rewrites the test and the picture.
#
# SCRATCH is rxmarbles' build folder (.build by default); LANES_EXAMPLE_DIR holds the
# recording, the drawings and the package (.build-lanes-example by default).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SCRATCH="${SCRATCH:-.build}"
WORK="${LANES_EXAMPLE_DIR:-$ROOT/.build-lanes-example}"
INPUTS=email,password,signInTap
OUTPUT=signInButtonEnabled
COMMITTED_RECORDING="Examples/Recordings/sign-in.lanes"
COMMITTED_TEST="Examples/Tests/ExampleViewModelTests/SignInRecordingTests.swift"
PIPELINE="Examples/Recordings/sign-in-pipeline.swift"
PICTURE="Sources/RxLanes/RxLanes.docc/Resources/sign-in-lanes.svg"
ARTICLE="Sources/RxLanes/RxLanes.docc/SeeingARunningPipeline.md"

swift build --scratch-path "$SCRATCH" --product rxmarbles
RXMARBLES="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/rxmarbles"
mkdir -p "$WORK"

# Writes the test of recording $1 in style $2 with the view model in the marked place.
write_test() {
    "$RXMARBLES" lanes "$1" --test "$2" --inputs "$INPUTS" --output "$OUTPUT" --import ExampleViewModels \
        | python3 "$ROOT/scripts/fill-pipeline.py" "$ROOT/$PIPELINE"
}

if [ "${1:-}" = "--update" ]; then
    write_test "$COMMITTED_RECORDING" swift-testing > "$COMMITTED_TEST"
    "$RXMARBLES" lanes "$COMMITTED_RECORDING" --svg > "$PICTURE"
    echo "lanes-example: wrote $COMMITTED_TEST and $PICTURE from $COMMITTED_RECORDING (the text drawing in $ARTICLE is yours to paste)"
    exit 0
fi

# 1. Record.
swift build --package-path Examples --product sign-in-recording > "$WORK/record-build.log" 2>&1 \
    || { tail -30 "$WORK/record-build.log"; exit 1; }
"$(swift build --package-path Examples --show-bin-path)/sign-in-recording" "$WORK/sign-in.lanes"

# 2. Draw.
"$RXMARBLES" lanes "$WORK/sign-in.lanes" > "$WORK/sign-in.txt"
"$RXMARBLES" lanes "$WORK/sign-in.lanes" --svg > "$WORK/sign-in.svg"
"$RXMARBLES" lanes "$WORK/sign-in.lanes" --html > "$WORK/sign-in.html"
for lane in email password signInTap signInButtonEnabled signIn; do
    grep -q "$lane" "$WORK/sign-in.txt" || { echo "lanes-example: the drawing has no lane $lane"; cat "$WORK/sign-in.txt"; exit 1; }
done
grep -q "<svg" "$WORK/sign-in.svg" || { echo "lanes-example: --svg wrote no SVG"; exit 1; }
grep -q "<svg" "$WORK/sign-in.html" || { echo "lanes-example: --html wrote no picture"; exit 1; }
# A file cut short names its last line; a malformed line is named; both exit 1.
head -n 20 "$WORK/sign-in.lanes" > "$WORK/cut.lanes"
if "$RXMARBLES" lanes "$WORK/cut.lanes" > /dev/null 2> "$WORK/cut.err"; then
    echo "lanes-example: a file cut short was drawn"; exit 1
fi
grep -q "line 20: the file ends without its 'end' line" "$WORK/cut.err" \
    || { echo "lanes-example: a file cut short was refused without naming line 20:"; cat "$WORK/cut.err"; exit 1; }
first="$(grep -n -m1 '^event' "$WORK/sign-in.lanes" | cut -d: -f1)"
sed "${first}s/ subscribed\$/ subscribd/" "$WORK/sign-in.lanes" > "$WORK/malformed.lanes"
if "$RXMARBLES" lanes "$WORK/malformed.lanes" > /dev/null 2> "$WORK/malformed.err"; then
    echo "lanes-example: a malformed file was drawn"; exit 1
fi
grep -q "line $first, column [0-9]*: unknown event kind 'subscribd'" "$WORK/malformed.err" \
    || { echo "lanes-example: a malformed file was refused without naming line $first:"; cat "$WORK/malformed.err"; exit 1; }
: > "$WORK/empty.lanes"
"$RXMARBLES" lanes "$WORK/empty.lanes" > "$WORK/empty.txt"
echo "lanes-example: recorded and drew $(grep -c '^event' "$WORK/sign-in.lanes") events; a cut, a malformed and an empty file handled"

# 3. The fresh recording's tests, built and run in a package of their own.
PACKAGE="$WORK/package"
rm -rf "$PACKAGE"
mkdir -p "$PACKAGE/Tests/RecordedTests"
IDENTITY="$(basename "$ROOT")"
cat > "$PACKAGE/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RecordedTests",
    dependencies: [.package(path: "$ROOT"), .package(path: "$ROOT/Examples")],
    targets: [
        .testTarget(name: "RecordedTests", dependencies: [
            .product(name: "RxSwift", package: "$IDENTITY"),
            .product(name: "RxTest", package: "$IDENTITY"),
            .product(name: "ExampleViewModels", package: "Examples"),
        ]),
    ]
)
MANIFEST
cat > "$PACKAGE/Tests/RecordedTests/SignInAPIFake.swift" <<'SWIFT'
import ExampleViewModels
import RxSwift

/// A back end that never answers: the sign-in button's state does not ask it.
final class SignInAPIFake: SignInAPIType {
    func signIn(with signInDetails: SignInDetails) -> Observable<SignInResponse> { .never() }
}
SWIFT
write_test "$WORK/sign-in.lanes" xctest > "$PACKAGE/Tests/RecordedTests/SignInRecording+XCTest.swift"
write_test "$WORK/sign-in.lanes" swift-testing | sed 's/struct SignInButtonEnabledRecordingTests/struct SignInButtonEnabledRecordingSwiftTests/' \
    > "$PACKAGE/Tests/RecordedTests/SignInRecording+SwiftTesting.swift"
LOG="$WORK/test.log"
if ! swift test --package-path "$PACKAGE" --scratch-path "$WORK/build" > "$LOG" 2>&1; then
    grep -E "error:|failed|✘" "$LOG" | head -40
    echo "lanes-example: the tests written from the recording failed (whole log: $LOG)"
    exit 1
fi
if grep -q "RecordedTests/.*warning:" "$LOG"; then
    grep "RecordedTests/.*warning:" "$LOG" | head -20
    echo "lanes-example: the written tests compile with warnings"
    exit 1
fi
grep -q "Executed 1 test, with 0 failures" "$LOG" || { echo "lanes-example: the XCTest did not run (log: $LOG)"; exit 1; }
grep -q "Test run with 1 test .*passed" "$LOG" || { echo "lanes-example: the Swift Testing test did not run (log: $LOG)"; exit 1; }
echo "lanes-example: the tests written from the fresh recording pass in virtual time (XCTest and Swift Testing)"

# 4. The committed recording's test is what the writer writes.
if ! diff <(write_test "$COMMITTED_RECORDING" swift-testing) "$COMMITTED_TEST" > "$WORK/committed.diff"; then
    head -40 "$WORK/committed.diff"
    echo "lanes-example: $COMMITTED_TEST is not what rxmarbles writes from $COMMITTED_RECORDING (scripts/lanes-example.sh --update rewrites it)"
    exit 1
fi
echo "lanes-example: $COMMITTED_TEST is what rxmarbles writes from $COMMITTED_RECORDING"
if ! diff <("$RXMARBLES" lanes "$COMMITTED_RECORDING" --svg) "$PICTURE" > /dev/null; then
    echo "lanes-example: $PICTURE is not what rxmarbles draws from $COMMITTED_RECORDING (scripts/lanes-example.sh --update redraws it)"
    exit 1
fi
# The article shows the text drawing as the command prints it, line for line.
python3 - "$ARTICLE" <("$RXMARBLES" lanes "$COMMITTED_RECORDING") <<'PYTHON'
import sys
article = open(sys.argv[1], encoding="utf-8").read()
drawing = open(sys.argv[2], encoding="utf-8").read().rstrip("\n")
if "```\n" + drawing + "\n```" not in article:
    sys.exit(f"lanes-example: {sys.argv[1]} does not show the text drawing rxmarbles prints now")
PYTHON
echo "lanes-example: the documentation's picture and text drawing are what rxmarbles draws from $COMMITTED_RECORDING"
