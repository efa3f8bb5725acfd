#!/usr/bin/env bash
# Explores Rivulet's own stateful parts under the schedule explorer, then proves the
# exploration with concurrency mutants of its locks and atomics (RxSwift's `Mutation`),
# and ends with one line:
#   exploration: S schedules over R scenarios, F failures; mutants: K/N killed
#
#   scripts/explore.sh           the bounded sample CI runs: a fiftieth of each scenario's
#                                schedules, and the mutants named in scripts/explore.mutants
#   scripts/explore.sh --full    every scenario's full schedules, and every mutant whose
#                                point a scenario reaches (200 schedules per scenario each)
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
results="$work/mutants.tsv"
: > "$results"
# A mutant of scripts/explore.mutants may name its line by a piece of its text,
# KIND@Module/File.swift[[TEXT]], which must be on exactly one line of that file.
resolve_mutants() {
    local entry kind module file text rest path lines
    while IFS= read -r entry; do
        if [[ $entry =~ ^([A-Za-z]+)@([A-Za-z]+)/([^/]+\.swift)\[\[(.*)\]\](.*)$ ]]; then
            kind=${BASH_REMATCH[1]} module=${BASH_REMATCH[2]} file=${BASH_REMATCH[3]}
            text=${BASH_REMATCH[4]} rest=${BASH_REMATCH[5]}
            path=$(find "Sources/$module" -name "$file" | head -n 1)
            lines=$( [[ -n $path ]] && grep -nF -- "$text" "$path" | cut -d: -f1 )
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
    SWIFT_BACKTRACE=enable=no RIVULET_MUTANT_RESULTS="$results" RIVULET_MUTANTS="$only" RIVULET_MUTANT_SCHEDULES=${RIVULET_MUTANT_SCHEDULES:-200} \
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
killed=$(awk -F'\t' '$1 == "killed" {print $2}' "$results" | sort -u | comm -12 - "$work/counted.txt" | wc -l)
total=$(wc -l < "$work/counted.txt")
awk -F'\t' '$1 == "killed" {print $2}' "$results" | sort -u | comm -13 - "$work/counted.txt" > "$work/survivors.txt"
sed 's/^/  survived: /' "$work/survivors.txt"
awk -F'\t' '$1 == "failing" {print "  a scenario fails with no mutant in force: " $2 ": " $3}' "$results"

status=0
(( failures == 0 )) || status=1
if (( full )); then
    while read -r mutant; do
        grep -qF -- "$mutant" scripts/surviving-mutants.md || { echo "  not listed in scripts/surviving-mutants.md: $mutant"; status=1; }
    done < "$work/survivors.txt"
else
    [[ -s $work/survivors.txt ]] && status=1
fi
echo "explore: $((SECONDS - started)) s in all"
echo "exploration: $schedules schedules over $scenarios scenarios, $failures failures; mutants: $killed/$total killed"
exit $status
