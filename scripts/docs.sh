#!/usr/bin/env bash
# The DocC archives of the library products, from one build's modules.
#
#   scripts/docs.sh [--scratch-path DIR] [--output-dir DIR] [--write-test-kit-symbols] [TARGET ...]
#
# TARGET is any of RxSwift, RxRelay, RxCocoa, RxTest, RxBlocking, RxLanes (all six by default).
# Each archive is written to DIR/TARGET.doccarchive (DIR is .build/docs by default;
# paths are taken from the package root), ready for static hosting: serve that folder
# and open /documentation/<target>/, e.g.
#
#   python3 -m http.server --bind 127.0.0.1 --directory .build/docs/RxTest.doccarchive 8000
#   # then open http://127.0.0.1:8000/documentation/rxtest/
#
# It builds the targets (incrementally, in the scratch path's debug build), extracts
# their symbol graphs from the built modules and runs `docc convert` on each catalog,
# with warnings treated as errors: a catalog builds with no warning or fails.
#
# Why not `swift package generate-documentation` alone: RxTest re-exports RxTestCore
# (`@_exported import`), the XCTest-free module that declares TestScheduler, Recorded,
# Marbles and the rest of the test kit, and the plugin's symbol graphs leave re-exported
# modules out. swift-symbolgraph-extract includes them when it is told which modules
# to take (`-experimental-allowed-reexported-modules`), and the plugin has no way to
# pass that, so this script calls the extractor itself. RxTestCore's types are then
# RxTest's own in its archive, with every member and doc comment. RxTest's typealiases
# of the same names (Sources/RxTest/ModuleNames.swift) are hidden from the symbol graph
# with `@_documentation(visibility: internal)`, so each name has one page.
#
# For the plugin (and a hosting service that runs it), RxTest's catalog holds the test
# kit's symbols that the plugin's graphs lack, as RxTest's: RxTest.docc/TestKit.symbols.json,
# written by scripts/test-kit-symbols.py from this script's two extractions of RxTest
# (with the re-exported module and without it, as the plugin extracts). This script fails
# when that file is not what they give now; --write-test-kit-symbols rewrites it.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build
output=
write_test_kit=
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        --output-dir) output="$2"; shift 2 ;;
        --write-test-kit-symbols) write_test_kit=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "docs.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(RxSwift RxRelay RxCocoa RxTest RxBlocking RxLanes)
output="${output:-$scratch/docs}"

# The modules a target re-exports, which its archive documents as its own.
reexported() {
    case "$1" in
        RxTest) echo RxTestCore ;;
    esac
}

# The toolchain's own extractor and docc, the ones that match the compiler.
if [ "$(uname)" = Darwin ]; then
    extractor="$(xcrun --find swift-symbolgraph-extract)"
    docc="$(xcrun --find docc)"
    platform=(-sdk "$(xcrun --sdk macosx --show-sdk-path)")
else
    toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
    extractor="$toolchain/swift-symbolgraph-extract"
    docc="$toolchain/docc"
    platform=()
fi
platform+=(-target "$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -1)")

for target in "${targets[@]}"; do
    swift build --scratch-path "$scratch" --target "$target"
done
modules="$(swift build --scratch-path "$scratch" --show-bin-path)/Modules"

graphs="$scratch/symbol-graphs"
mkdir -p "$output"
for target in "${targets[@]}"; do
    rm -rf "${graphs:?}/$target" "${output:?}/$target.doccarchive"
    mkdir -p "$graphs/$target"
    # RivuletFutex's include folder: the C module RxSwift imports on Linux, found by its
    # module map there.
    extract=("$extractor" -module-name "$target" "${platform[@]}"
        -I "$modules" -I Sources/RivuletFutex/include -module-cache-path "$scratch/symbol-graph-module-cache"
        -minimum-access-level public -emit-extension-block-symbols)
    also="$(reexported "$target")"
    if [ -n "$also" ]; then
        # The same extraction without the re-exported module, as the plugin makes it,
        # then the symbols only the first has, which the catalog carries for the plugin.
        rm -rf "${graphs:?}/$target-plain"
        mkdir -p "$graphs/$target-plain"
        "${extract[@]}" -output-dir "$graphs/$target-plain"
        "${extract[@]}" -output-dir "$graphs/$target" "-experimental-allowed-reexported-modules=$also"
        committed="Sources/$target/$target.docc/TestKit.symbols.json"
        python3 scripts/test-kit-symbols.py "$graphs/$target/$target.symbols.json" "$graphs/$target-plain" \
            > "$graphs/$target-TestKit.symbols.json"
        if [ -n "$write_test_kit" ]; then
            cp "$graphs/$target-TestKit.symbols.json" "$committed"
        elif ! cmp -s "$graphs/$target-TestKit.symbols.json" "$committed"; then
            echo "docs.sh: $committed is not the test kit's symbols as they are now;" \
                "rewrite it with scripts/docs.sh --write-test-kit-symbols $target" >&2
            exit 1
        fi
    else
        "${extract[@]}" -output-dir "$graphs/$target"
    fi

    echo "Building the documentation of $target"
    "$docc" convert "Sources/$target/$target.docc" \
        --additional-symbol-graph-dir "$graphs/$target" \
        --fallback-display-name "$target" --fallback-bundle-identifier "$target" \
        --transform-for-static-hosting --warnings-as-errors \
        --output-path "$output/$target.doccarchive"
done
