#!/usr/bin/env bash
# The marble playground in a real browser: starts `rxmarbles serve` on a free loopback
# port, drives headless Chromium against it (scripts/playground-browser-test.py), and
# leaves screenshots in $BROWSER_TEST_OUTPUT (default /tmp/rxmarbles-browser-test): the
# page at 1280 and at 400 pixels wide (an example, and a long input: *-long.png), and a
# problem marked in an input.
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT="${BROWSER_TEST_OUTPUT:-/tmp/rxmarbles-browser-test}"
mkdir -p "$OUTPUT"

if ! command -v chromium >/dev/null 2>&1; then
    echo "Installing Debian's chromium package..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# The server comes with the Playground trait, built in a folder of its own so that the
# trait-less build in .build stays as it is; with the PropertyTesting trait too, as
# .ci/run builds that folder for the marble laws, so that neither rebuilds it.
# PLAYGROUND_SCRATCH names another folder.
PLAYGROUND_BUILD=(--traits Playground,PropertyTesting --scratch-path "${PLAYGROUND_SCRATCH:-.build-playground}")
swift build "${PLAYGROUND_BUILD[@]}" --product rxmarbles
RXMARBLES="$(swift build "${PLAYGROUND_BUILD[@]}" --show-bin-path)/rxmarbles"

"$RXMARBLES" serve --port 0 > "$OUTPUT/serve.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT

ADDRESS=""
for _ in $(seq 1 100); do
    ADDRESS="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$OUTPUT/serve.log" | head -n 1 || true)"
    [ -n "$ADDRESS" ] && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$OUTPUT/serve.log"; echo "rxmarbles serve exited"; exit 1; }
    sleep 0.1
done
[ -n "$ADDRESS" ] || { cat "$OUTPUT/serve.log"; echo "rxmarbles serve printed no address"; exit 1; }
echo "rxmarbles serve: $ADDRESS"

python3 scripts/playground-browser-test.py "$ADDRESS" "$RXMARBLES" "$OUTPUT"

# The server survived everything the page sent it.
kill -0 "$SERVER"
echo "screenshots: $(ls "$OUTPUT"/*.png | tr '\n' ' ')"
