#!/usr/bin/env bash
# The migration as the README describes it: MigrationCheck/ names RxSwift by its URL,
# and SwiftPM mirrors point that URL at Rivulet. It covers what such code bases meet:
# - both spellings of RxSwift's URL (`.../RxSwift.git` in MigrationCheck, `.../RxSwift`
#   in its Library/, a package written for RxSwift as RxNimble or RxSwiftUtilities are),
#   each needing a mirror of its own;
# - a by-name target dependency ("RxSwift", as ReactorKit writes it), which resolves only
#   when the package's identity is `rxswift`: the mirror's repository must be named
#   RxSwift (its URL's last component);
# - a version tag the requirement accepts (`from: "6.10.0"`): a Rivulet release tag.
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

cd MigrationCheck
rm -rf .swiftpm/configuration/mirrors.json Package.resolved
for original in https://github.com/ReactiveX/RxSwift.git https://github.com/ReactiveX/RxSwift; do
    swift package config set-mirror --original "$original" --mirror "file://$work/RxSwift"
done
swift test --scratch-path "$work/build"
for original in https://github.com/ReactiveX/RxSwift.git https://github.com/ReactiveX/RxSwift; do
    swift package config unset-mirror --original "$original"
done
