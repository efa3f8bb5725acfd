#!/usr/bin/env bash
# Explores Rivulet's own stateful parts under the schedule explorer, then proves the
# exploration with concurrency mutants of its locks and atomics (RxSwift's `Mutation`),
# and ends with one line:
#   exploration: S schedules over R scenarios, F failures; mutants: K/N killed
#
#   scripts/explore.sh           the bounded sample CI runs: a fiftieth of each scenario's
#                                schedules, and the mutants named in scripts/explore.mutants
#   scripts/explore.sh --full    every scenario's full schedules, and every mutant whose
#                                point a scenario reaches (each reaching scenario 500
#                                schedules under its strategy, 500 under random choices);
#                                the mutants scripts/surviving-mutants.md lists as
#                                equivalent are left out of K/N, and the line before says
#                                how many
#
# Details go to a folder (printed); survivors of a full run are checked against
# scripts/surviving-mutants.md, where each is listed with the reason it
# survives. Exits non-zero on a failing scenario, a surviving mutant of the sample, or an
# unlisted survivor of the full run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

full=0
if [[ ${1:-} == --full ]]; then full=1; fi
work=$(mktemp -d /tmp/rivulet-explore.XXXXXX)
echo "explore: details in $work"

swift build --build-tests > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
started=$SECONDS

# 1. The scenarios, each under its strategy, with the budget of this run.
if (( full )); then scale=full; else scale=${RIVULET_EXPLORE_SAMPLE:-0.02}; fi
: > "$work/explored.tsv"
RIVULET_EXPLORE_SCHEDULES=$scale RIVULET_EXPLORE_REPORT="$work/explored.tsv" \
    swift test --skip-build --filter 'ExplorationTests/scenarioHolds' > "$work/scenarios.log" 2>&1 || true
read -r schedules scenarios failures < <(awk -F'\t' '{s += $3; r += 1; if ($4 != "passed") f += 1} END {print s+0, r+0, f+0}' "$work/explored.tsv")
if (( scenarios == 0 )); then
    tail -30 "$work/scenarios.log"
    echo "explore: no scenario ran"
    exit 1
fi
awk -F'\t' '$4 != "passed" {print "  failing: " $2 ": " $5}' "$work/explored.tsv"
echo "explore: scenarios took $((SECONDS - started)) s"

# 2. The mutants: one process runs them in turn, writing as it goes; a mutant that stops
# the process (a trap under it) is killed by that, and the run goes on after it.
mutants_started=$SECONDS
# Schedules of each reaching scenario per mutant, under its strategy and again under random
# choices: the full run searches longer for the survivors.
if (( full )); then mutant_schedules=${RIVULET_MUTANT_SCHEDULES:-500}; else mutant_schedules=${RIVULET_MUTANT_SCHEDULES:-200}; fi
results="$work/mutants.tsv"
: > "$results"
# A mutant of scripts/explore.mutants (or scripts/surviving-mutants.md) may name its line
# by its text, KIND@Module/File.swift[[TEXT]]: the one line of that file that is TEXT (but
# for its indentation), or else the one line that holds it.
resolve_mutants() {
    local entry kind module file text rest path lines
    while IFS= read -r entry; do
        if [[ $entry =~ ^([A-Za-z]+)@([A-Za-z]+)/([^/]+\.swift)\[\[(.*)\]\](.*)$ ]]; then
            kind=${BASH_REMATCH[1]} module=${BASH_REMATCH[2]} file=${BASH_REMATCH[3]}
            text=${BASH_REMATCH[4]} rest=${BASH_REMATCH[5]}
            path=$(find "Sources/$module" -name "$file" | head -n 1)
            # A line that is TEXT, but for its indentation; else one that holds it.
            lines=$( [[ -n $path ]] && awk -v text="$text" '{line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line); if (line == text) print NR}' "$path" )
            if [[ $(grep -c . <<< "$lines") -ne 1 && -n $path ]]; then
                lines=$(grep -nF -- "$text" "$path" | cut -d: -f1)
            fi
            if [[ $(grep -c . <<< "$lines") -ne 1 ]]; then
                echo "explore: scripts/explore.mutants: \"$text\" is on $(grep -c . <<< "$lines") lines of Sources/$module/.../$file; it must name exactly one" >&2
                return 1
            fi
            echo "$kind@$module/$file:$lines$rest"
        else
            echo "$entry"
        fi
    done
}
if (( full )); then
    only=""
else
    only=$(grep -v -e '^#' -e '^[[:space:]]*$' scripts/explore.mutants | resolve_mutants) || exit 1
fi
for attempt in $(seq 1 100); do
    status=0
    # A mutant that traps stops the process: no backtrace (seconds each), the script goes on.
    SWIFT_BACKTRACE=enable=no RIVULET_MUTANT_RESULTS="$results" RIVULET_MUTANTS="$only" RIVULET_MUTANT_SCHEDULES=$mutant_schedules \
        swift test --skip-build --filter 'MutantRun' > "$work/mutants-$attempt.log" 2>&1 || status=$?
    (( status == 0 )) && break
    stopped=$(awk -F'\t' '$1 == "start" {m = $2} ($1 == "killed" || $1 == "survived") && $2 == m {m = ""} END {print m}' "$results")
    if [[ -z $stopped ]]; then
        tail -30 "$work/mutants-$attempt.log"
        echo "explore: the mutant run failed with no mutant in force"
        exit 1
    fi
    printf 'killed\t%s\t(the test process)\tstopped the process (exit %s)\n' "$stopped" "$status" >> "$results"
done
echo "explore: mutants took $((SECONDS - mutants_started)) s"

# Which mutants count: in the sample, those named (each must be reached); in the full
# run, every mutant a scenario reaches.
awk -F'\t' '$1 == "reached" {print $2}' "$results" | sort -u > "$work/reached.txt"
if (( full )); then
    cp "$work/reached.txt" "$work/counted.txt"
else
    sed 's/=.*//' <<< "$only" | sort -u > "$work/counted.txt"
    comm -23 "$work/counted.txt" "$work/reached.txt" | sed 's/^/  not reached by any scenario: /'
fi
# The full run counts no mutant scripts/surviving-mutants.md lists as equivalent (no order
# of steps and no data race can tell it from the original), and says how many it left out.
# Each entry there is "- `MUTANT`: reason", under "## Equivalent" or "## Open".
listed() {
    awk -v section="## $1" '/^## / {inside = (index($0, section) == 1)} inside && /^- `/' scripts/surviving-mutants.md \
        | sed -E 's/^- `([^`]+)`.*/\1/' | resolve_mutants | sort -u
}
awk -F'\t' '$1 == "killed" {print $2}' "$results" | sort -u > "$work/killed.txt"
if (( full )); then
    listed Equivalent > "$work/equivalent.txt" || exit 1
    listed Open > "$work/open.txt" || exit 1
    comm -12 "$work/equivalent.txt" "$work/killed.txt" | sed 's/^/  listed as equivalent, yet killed: /'
    equivalent=$(comm -12 "$work/equivalent.txt" "$work/counted.txt" | wc -l)
    comm -23 "$work/counted.txt" "$work/equivalent.txt" > "$work/counted-less-equivalent.txt"
    mv "$work/counted-less-equivalent.txt" "$work/counted.txt"
    echo "explore: $equivalent mutants reached are equivalent (scripts/surviving-mutants.md, each with its reason) and not counted"
fi
killed=$(comm -12 "$work/killed.txt" "$work/counted.txt" | wc -l)
total=$(wc -l < "$work/counted.txt")
comm -13 "$work/killed.txt" "$work/counted.txt" > "$work/survivors.txt"
sed 's/^/  survived: /' "$work/survivors.txt"
awk -F'\t' '$1 == "failing" {print "  a scenario fails with no mutant in force: " $2 ": " $3}' "$results"

status=0
(( failures == 0 )) || status=1
if (( full )); then
    if [[ -n $(comm -12 "$work/equivalent.txt" "$work/killed.txt") ]]; then status=1; fi
    comm -23 "$work/survivors.txt" "$work/open.txt" | sed 's/^/  not listed in scripts\/surviving-mutants.md: /'
    if [[ -n $(comm -23 "$work/survivors.txt" "$work/open.txt") ]]; then status=1; fi
else
    [[ -s $work/survivors.txt ]] && status=1
fi
echo "explore: $((SECONDS - started)) s in all"
echo "exploration: $schedules schedules over $scenarios scenarios, $failures failures; mutants: $killed/$total killed"
exit $status
