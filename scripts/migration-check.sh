#!/usr/bin/env bash
# The migration as the README describes it: MigrationCheck/ names RxSwift by its URL,
# and SwiftPM mirrors point that URL at Rivulet. It covers what such code bases meet:
# - both spellings of RxSwift's URL (`.../RxSwift.git` in MigrationCheck, `.../RxSwift`
#   in its Library/, a package written for RxSwift as RxNimble or RxSwiftUtilities are),
#   each needing a mirror of its own;
# - a by-name target dependency ("RxSwift", as ReactorKit writes it), which resolves only
#   when the package's identity is `rxswift`: the mirror's repository must be named
#   RxSwift (its URL's last component);
# - the requirements written for RxSwift 6.10: `from: "6.10.2"` (MigrationCheck),
#   `from: "6.10.0"` (Library), `.upToNextMinor(from: "6.10.0")` (Dynamic/), each
#   accepting the Rivulet release tag, which must be the version resolved;
# - RxSwift's dynamic library products (`RxSwift-Dynamic` ... `RxTest-Dynamic`), which
#   MigrationCheck/Dynamic names, each one, and builds; its program `counter` runs on
#   RxCocoa-Dynamic alone and its tests on RxTest-Dynamic alone (each dynamic product
#   holds its own copy of RxSwift: see that manifest).
# The mirror is a clone of this repository's HEAD, named RxSwift and tagged with the
# current version, as a fork or an internal mirror of a Rivulet release would be.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
version=$(sed -n 's/.*public static let current = "\(.*\)".*/\1/p' Sources/RxMarblesKit/Command.swift)
work=$(mktemp -d /tmp/rivulet-migration.XXXXXX)
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/RxSwift"
git -C "$work/RxSwift" tag -f "$version" > /dev/null

urls=(https://github.com/ReactiveX/RxSwift.git https://github.com/ReactiveX/RxSwift)

# Resolves the package in $1 through the mirrors, says which version of RxSwift's URL
# it resolved, fails unless that is the tagged release, builds every target and runs the
# tests, then runs the executable named in $3, if any.
check() {
    local package=$1 build=$2
    shift 2
    (
        cd "$package"
        rm -rf .swiftpm/configuration/mirrors.json Package.resolved
        for original in "${urls[@]}"; do
            swift package config set-mirror --original "$original" --mirror "file://$work/RxSwift"
        done
        swift package --scratch-path "$build" resolve
        resolved=$(swift package --scratch-path "$build" show-dependencies --format json |
            python3 -c 'import json, sys; print(next(d["version"] for d in json.load(sys.stdin)["dependencies"] if d["identity"] == "rxswift"))')
        echo "migration-check: $package resolved RxSwift's URL to $resolved (the release is $version)"
        [ "$resolved" = "$version" ]
        swift build --scratch-path "$build" --build-tests
        swift test --scratch-path "$build" --skip-build
        [ $# -eq 0 ] || swift run --scratch-path "$build" --skip-build "$1"
        for original in "${urls[@]}"; do
            swift package config unset-mirror --original "$original"
        done
    )
}

check MigrationCheck "$work/build"
check MigrationCheck/Dynamic "$work/build-dynamic" counter
