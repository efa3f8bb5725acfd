#!/usr/bin/env bash
# The migration as the README describes it: MigrationCheck/ names RxSwift by its URL,
# and a SwiftPM mirror points that URL at Rivulet. SwiftPM resolves a mirrored package
# by version, so the mirror is a clone of this repository's HEAD tagged 6.10.0 (a
# hosted Rivulet carries RxSwift-compatible version tags itself).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d /tmp/rivulet-migration.XXXXXX)
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/RxSwift"
git -C "$work/RxSwift" tag 6.10.0

cd MigrationCheck
rm -rf .swiftpm/configuration/mirrors.json Package.resolved
swift package config set-mirror \
    --original https://github.com/ReactiveX/RxSwift.git \
    --mirror "file://$work/RxSwift"
swift test --scratch-path "$work/build"
swift package config unset-mirror --original https://github.com/ReactiveX/RxSwift.git
