#!/usr/bin/env bash
# What a user's package pays to build Rivulet: a small package whose code uses RxSwift
# and RxRelay (and whose tests name the other products), depending on Rivulet by URL
# and version as the README shows (the URL is
# pointed at a clone of this checkout, tagged with the current version, through a
# SwiftPM mirror), built clean from an empty scratch folder in debug and in release.
#
#   scripts/build-cost.sh            debug and release
#   scripts/build-cost.sh debug      one of them
#   RIVULET_REVISION=REV scripts/build-cost.sh    another commit of Rivulet (for a before/after)
#
# Prints the packages it resolves, then for each configuration the seconds and the
# compile units (files, plugins) of each module, built one module at a time in
# dependency order, and the total. The first row builds the compiler's cache of the
# system modules, so that each later row is its module alone. Fails (after printing
# every figure) when the dependent resolves anything but Rivulet and swift-atomics, or
# compiles anything but Rivulet's library modules (and swift-atomics where RxSwift
# imports it: Apple platforms), or when the RxSwift module's debug machine code
# passes its budget for the toolchain in use (scripts/build-cost.budget), or when that
# file has no line for the toolchain in use (it prints which toolchain it judged).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
configurations=("${@:-debug}")
[ $# -eq 0 ] && configurations=(debug release)

version=$(sed -n 's/.*public static let current = "\(.*\)".*/\1/p' Sources/RxMarblesKit/Command.swift)
url=$(sed -n 's/^RIVULET_URL=//p' scripts/release.env)
work=$(mktemp -d /tmp/rivulet-build-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

# This checkout as the dependent would fetch it: committed files only, tagged.
git clone --quiet "$root" "$work/Rivulet"
git -C "$work/Rivulet" checkout --quiet "${RIVULET_REVISION:-HEAD}"
git -C "$work/Rivulet" tag -f "$version" > /dev/null
problems=()

mkdir -p "$work/App/Sources/App"
cat > "$work/App/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [
        .package(url: "$url", from: "$version"),
    ],
    targets: [
        .target(
            name: "App",
            dependencies: [
                .product(name: "RxSwift", package: "Rivulet"),
                .product(name: "RxRelay", package: "Rivulet"),
            ]
        ),
        // Imports what RxSwift imports from the system and the toolchain, so that the
        // compiler's cache of their C modules is built in a row of its own, before any
        // library module: the RxSwift row is then RxSwift alone, whichever revision.
        .target(name: "SystemModules"),
        // Not built here; it makes the package depend on every library product, so
        // that what it resolves is what any user of the library resolves.
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App",
                .product(name: "RxCocoa", package: "Rivulet"),
                .product(name: "RxTest", package: "Rivulet"),
                .product(name: "RxBlocking", package: "Rivulet"),
            ]
        ),
    ]
)
EOF
mkdir -p "$work/App/Sources/SystemModules"
cat > "$work/App/Sources/SystemModules/Imports.swift" <<'EOF'
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
import Synchronization
#elseif canImport(Musl)
import Musl
import Synchronization
#endif
import Dispatch
import Foundation
EOF
mkdir -p "$work/App/Tests/AppTests"
echo 'import App' > "$work/App/Tests/AppTests/AppTests.swift"
cat > "$work/App/Sources/App/Counter.swift" <<'EOF'
import RxRelay
import RxSwift

public struct Counter {
    public let taps = PublishRelay<Void>()
    public let count: Observable<Int>

    public init() {
        count = taps.scan(0) { total, _ in total + 1 }.startWith(0).share(replay: 1)
    }
}
EOF
cd "$work/App"
swift package config set-mirror --original "$url" --mirror "file://$work/Rivulet"

swift package --scratch-path "$work/resolve" show-dependencies > "$work/dependencies.txt" 2>/dev/null
resolved=$(grep -o '^[│├└ ─]*[a-zA-Z0-9_.-]*<' "$work/dependencies.txt" | sed 's/^[│├└ ─]*//; s/<$//' | sort -u | tr '\n' ' ')
echo "A package using the library products (RxSwift, RxRelay, RxCocoa, RxTest, RxBlocking) resolves $(echo $resolved | wc -w) packages: $resolved"
for package in $resolved; do
    case "$package" in
        rivulet|swift-atomics) ;;
        *) problems+=("the dependent resolves $package; only Rivulet and swift-atomics are expected") ;;
    esac
done

# The modules a dependent compiles, in dependency order, after the system modules'
# cache (its own row, counted in the total: a user pays it once per clean build):
# swift-atomics first where RxSwift depends on it (Apple platforms; everywhere in
# revisions whose manifest has no platform condition on it), and RivuletFutex on Linux,
# so that the RxSwift row is RxSwift alone.
modules=(RxSwift RxRelay)
# The futex lock's C target, which RxSwift depends on on Linux (in revisions that have it).
if [ "$(uname)" = Linux ] && grep -q 'name: "RivuletFutex"' "$work/Rivulet/Package.swift"; then
    modules=(RivuletFutex "${modules[@]}")
fi
if [ "$(uname)" = Darwin ] || ! grep -q 'package: "swift-atomics", condition:' "$work/Rivulet/Package.swift"; then
    modules=(_AtomicsShims Atomics "${modules[@]}")
fi
modules=(SystemModules "${modules[@]}")

for configuration in "${configurations[@]}"; do
    scratch="$work/build-$configuration"
    # Fetching is not building: resolve first, into the same folder.
    swift package --scratch-path "$scratch" resolve > /dev/null 2>&1
    total_seconds=0
    total_cpu=0
    total_units=0
    echo
    echo "clean $configuration build, one module at a time (wall seconds, CPU seconds: user + system):"
    printf '  %-10s %8s %8s %6s\n' module wall cpu units
    for module in "${modules[@]}" App; do
        TIMEFORMAT='%R %U %S'
        { time swift build -c "$configuration" --scratch-path "$scratch" --target "$module" > "$work/$module-$configuration.log" 2>&1 \
            || { cat "$work/$module-$configuration.log"; exit 1; } ; } 2> "$work/time.txt"
        read -r wall user system < "$work/time.txt"
        cpu=$(awk -v a="$user" -v b="$system" 'BEGIN { printf "%.1f", a + b }')
        units=$(grep -c "Compiling $module " "$work/$module-$configuration.log" || true)
        printf '  %-10s %8.1f %8.1f %6d\n' "$module" "$wall" "$cpu" "$units"
        total_seconds=$(awk -v a="$total_seconds" -v b="$wall" 'BEGIN { printf "%.1f", a + b }')
        total_cpu=$(awk -v a="$total_cpu" -v b="$cpu" 'BEGIN { printf "%.1f", a + b }')
        total_units=$((total_units + units))
        # Anything else compiled on the way is something a library user should not pay for.
        others=$(grep -o "Compiling [A-Za-z_][A-Za-z0-9_]* \|Compiling plugin [A-Za-z]*" "$work/$module-$configuration.log" \
            | grep -v "Compiling $module " | sort -u || true)
        if [ -n "$others" ]; then
            problems+=("building $module ($configuration) also compiled: $(echo "$others" | sed 's/Compiling //' | tr '\n' ',' | sed 's/,$//')")
        fi
    done
    printf '  %-10s %8.1f %8.1f %6d\n' total "$total_seconds" "$total_cpu" "$total_units"
    if [ "$configuration" = debug ]; then
        objects=("$scratch"/*/debug/RxSwift.build/*.o)
        tools="$(dirname "$(readlink -f "$(command -v swift)")")"
        # The machine code of the module's debug objects: unlike the seconds above, the
        # same from run to run, so a change in it is the change in what LLVM compiled.
        text_bytes=0
        while read -r size; do
            text_bytes=$((text_bytes + 16#$size))
        done < <(for object in "${objects[@]}"; do "$tools/llvm-objdump" -h "$object"; done | awk '$2 ~ /^\.text/ { print $3 }')
        echo "  the RxSwift module's debug objects: $text_bytes bytes of machine code"
        # Its budget on this toolchain (scripts/build-cost.budget): more machine code
        # means more for LLVM, IRGen and SIL to do in every user's clean build.
        toolchain=$(swift --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)
        budget=$(awk -v t="$toolchain" '$1 == t { print $2 }' "$root/scripts/build-cost.budget")
        echo "  judged against the budget for Swift $toolchain (scripts/build-cost.budget)"
        if [ -z "$budget" ]; then
            problems+=("scripts/build-cost.budget has no machine-code budget for Swift $toolchain, the toolchain in use: add a line for it (this build: $text_bytes bytes, plus about 3% of room)")
        elif [ "$text_bytes" -le "$budget" ]; then
            echo "  within the budget of $budget bytes for Swift $toolchain"
        elif [ -n "${RIVULET_REVISION:-}" ]; then
            echo "  over the budget of $budget bytes for Swift $toolchain (another revision: not judged)"
        else
            problems+=("the RxSwift module's debug objects hold $text_bytes bytes of machine code, over the budget of $budget for Swift $toolchain (scripts/build-cost.budget)")
        fi
        # No initializer stubs (ARCHITECTURE.md, "Build cost"): a file where the
        # compiler synthesises one compiles about 3 KB more machine code. The two public
        # schedulers keep theirs: filling the slot would change their public API.
        stubbed=$(for object in "${objects[@]}"; do
                if [ "$("$tools/llvm-nm" "$object" | grep -c 's25_unimplementedInitializer')" -gt 0 ]; then
                    basename "$object" .swift.o
                fi
            done | grep -v -x -e MainScheduler -e HistoricalScheduler | tr '\n' ' ' || true)
        if [ -n "$stubbed" ] && [ -z "${RIVULET_REVISION:-}" ]; then
            problems+=("initializer stubs in RxSwift's $stubbed(fill the slot with rxUnusedInitializer)")
        fi
    fi
    # A whole build of the package afterwards must find nothing left to compile but
    # the package's own link: no plugin, no module of a tool.
    swift build -c "$configuration" --scratch-path "$scratch" > "$work/rest-$configuration.log" 2>&1 \
        || { cat "$work/rest-$configuration.log"; exit 1; }
    rest=$(grep -o "Compiling [A-Za-z_][A-Za-z0-9_]* \|Compiling plugin [A-Za-z]*" "$work/rest-$configuration.log" | sort -u || true)
    if [ -n "$rest" ]; then
        problems+=("the whole $configuration build also compiled: $(echo "$rest" | sed 's/Compiling //' | tr '\n' ',' | sed 's/,$//')")
    fi
done

if [ ${#problems[@]} -gt 0 ]; then
    echo
    printf 'build-cost: %s\n' "${problems[@]}" >&2
    exit 1
fi
