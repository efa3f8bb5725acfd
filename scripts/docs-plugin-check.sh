#!/usr/bin/env bash
# The route a documentation host takes: swift-docc-plugin's
# `swift package generate-documentation --target RxTest`, as it is, in a build folder of
# its own (the plugin builds with other settings than `swift build`, so sharing .build
# would rebuild it). Fails on any DocC warning, and when the archive has no page for
# TestScheduler, TestableObserver, Recorded or Subscription, the test kit's types that
# RxTest re-exports from RxTestCore (they reach the plugin through
# Sources/RxTest/RxTest.docc/TestKit.symbols.json; see scripts/docs.sh).
#
#   DOCS_PLUGIN_SCRATCH=DIR scripts/docs-plugin-check.sh    # .build-docc-plugin by default
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${DOCS_PLUGIN_SCRATCH:-.build-docc-plugin}
log=$(mktemp /tmp/rivulet-docs-plugin.XXXXXX)
trap 'rm -f "$log"' EXIT

swift package --scratch-path "$scratch" generate-documentation --target RxTest > "$log" 2>&1 \
    || { tail -40 "$log"; exit 1; }
archive=$(grep -A1 "^Generated documentation archive at:" "$log" | tail -1 | sed 's/^ *//')
warnings=$(grep -c "warning:" "$log" || true)
grep -B1 -A4 "warning:" "$log" | head -60 || true
status=0
for page in TestScheduler TestableObserver Recorded Subscription; do
    file="$archive/data/documentation/rxtest/$(echo "$page" | tr '[:upper:]' '[:lower:]').json"
    if [ -f "$file" ]; then
        echo "docs-plugin-check: RxTest's archive has a page for $page"
    else
        echo "docs-plugin-check: RxTest's archive has no page for $page ($file)"
        status=1
    fi
done
echo "docs-plugin-check: swift package generate-documentation --target RxTest: $warnings DocC warnings"
[ "$warnings" -eq 0 ] || status=1
exit $status
