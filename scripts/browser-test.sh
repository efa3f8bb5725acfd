#!/usr/bin/env bash
# The marble playground in a real browser: starts `rxmarbles serve` on a free loopback
# port, drives headless Chromium against it (scripts/playground-browser-test.py), and
# leaves screenshots in $BROWSER_TEST_OUTPUT (default /tmp/rxmarbles-browser-test): the
# page at 1280 and at 400 pixels wide (an example, and a long input: *-long.png), a
# problem marked in an input, and the lanes page with a recording (lanes*.png).
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

# A lanes recording for the lanes page (rxmarbles serve --lanes): three lanes, two
# threads, an idle stretch, a second subscription disposed, a failure.
LANES="$OUTPUT/sign-in.lanes"
cat > "$LANES" <<'RECORDING'
rivulet-lanes 1
lane 0 "email" "String" 10000 0
lane 1 "enabled" "Bool" 10000 0
lane 2 "signIn" "SignInResponse" 10000 0
thread 0 "main"
thread 1 "com.example.network"
event 2000000 0 1 0 subscribed
event 2010000 0 1 0 next ""
event 2100000 1 1 0 subscribed
event 2110000 1 1 0 next "false"
event 900000000 0 1 0 next "a"
event 1050000000 0 1 0 next "al"
event 1230000000 0 1 0 next "ali"
event 1400000000 0 1 0 next "alice"
event 1400050000 1 1 0 next "true"
event 7400000000 1 2 0 subscribed
event 7400020000 1 2 0 next "true"
event 7900000000 2 1 0 subscribed
event 8300000000 2 1 1 next "SignInResponse(user: \"alice\")"
event 8300030000 2 1 1 completed
event 8600000000 1 2 0 disposed
event 9100000000 2 2 0 subscribed
event 9350000000 2 2 1 error "URLError(.notConnectedToInternet)"
end 17
RECORDING

"$RXMARBLES" serve --port 0 --lanes "$LANES" > "$OUTPUT/serve.log" 2>&1 &
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

python3 scripts/playground-browser-test.py "$ADDRESS" "$RXMARBLES" "$OUTPUT" "$LANES"

# The server survived everything the page sent it.
kill -0 "$SERVER"
echo "screenshots: $(ls "$OUTPUT"/*.png | tr '\n' ' ')"
