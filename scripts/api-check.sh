#!/usr/bin/env bash
# Compatibility check: Rivulet's public API against RxSwift 6.10's.
#
# Builds the symbol graphs of the library products and compares them with the
# baselines in api/: rxswift-6.10-api.txt (made from RxSwift 6.10's own symbol graphs:
# RxSwift, RxRelay, RxTest, RxBlocking) and rxcocoa-6.10-api.txt (RxCocoa's
# platform-neutral part, written from its sources, since RxCocoa does not build on
# Linux). Fails when a baseline declaration is missing or has other constraints,
# unless api/allowlist.txt lists it with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

swift package dump-symbol-graph --minimum-access-level public > /tmp/rivulet-symbol-graph.log 2>&1 \
    || { tail -40 /tmp/rivulet-symbol-graph.log; exit 1; }
graphs=$(sed -n 's/^Files written to //p' /tmp/rivulet-symbol-graph.log | tail -1)
[ -d "$graphs" ] || { echo "api-check: no symbol graphs found"; tail -20 /tmp/rivulet-symbol-graph.log; exit 1; }

status=0
for baseline in api/rxswift-6.10-api.txt api/rxcocoa-6.10-api.txt; do
    python3 scripts/api-diff.py diff "$baseline" "$graphs" --allow api/allowlist.txt || status=1
done
exit $status
