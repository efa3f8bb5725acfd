#!/usr/bin/env bash
# The instructions the compiler executes to build the RxSwift module clean, in debug:
# a figure that, unlike the seconds `scripts/build-cost.sh` prints, is the same from
# run to run on one machine and toolchain, so it shows a change of a few percent that
# the seconds of a shared machine hide. Needs valgrind; takes about 6 minutes per
# revision on 2 cores (each compile job runs under callgrind).
#
#   scripts/build-instructions.sh                 the committed HEAD
#   scripts/build-instructions.sh REV [REV ...]   other commits, one after another
#
# Each revision is built in a clone of this checkout (committed files only), in a
# scratch folder of its own: once plainly, which builds the system modules' cache and
# the module's dependencies outside the count, then the module alone again, counted.
# The compiler's own messages still reach the build log; valgrind's go beside the
# profiles.
# Prints one line per compile job (the module's interface, then its batches of files)
# and the total.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
command -v valgrind > /dev/null || { echo "build-instructions: valgrind is needed (Debian: apt install valgrind)" >&2; exit 1; }
frontend="$(dirname "$(readlink -f "$(command -v swift)")")/swift-frontend"
[ -x "$frontend" ] || { echo "build-instructions: no swift-frontend beside $(command -v swift)" >&2; exit 1; }
revisions=("${@:-HEAD}")
work=$(mktemp -d /tmp/rivulet-build-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The driver runs this instead of the frontend: compile jobs under callgrind, one
# profile each; anything else (the driver's own queries) as it is.
cat > "$work/frontend" <<EOF
#!/usr/bin/env bash
case " \$* " in
    *" -frontend -c "*|*" -frontend -emit-module "*)
        exec valgrind --tool=callgrind --callgrind-out-file="\$PROFILES/job.%p" \\
            --log-file="\$PROFILES/valgrind.%p" "$frontend" "\$@" ;;
    *) exec "$frontend" "\$@" ;;
esac
EOF
chmod +x "$work/frontend"

git clone --quiet "$root" "$work/Rivulet"
for revision in "${revisions[@]}"; do
    git -C "$work/Rivulet" checkout --quiet --detach "$revision"
    scratch="$work/build-$revision"
    profiles="$work/profiles-$revision"
    mkdir -p "$profiles"
    # The system modules' cache and the module's dependencies, outside the count.
    (cd "$work/Rivulet" && swift build --scratch-path "$scratch" --target RxSwift > /dev/null 2>&1)
    # Its outputs and build records gone, the module is compiled again, whole.
    rm -f "$scratch"/*/debug/RxSwift.build/*.{o,swiftdeps,priors,d,swiftmodule,swiftdoc} "$scratch"/*/debug/Modules/RxSwift.*
    (cd "$work/Rivulet" && PROFILES="$profiles" swift build --scratch-path "$scratch" --target RxSwift \
        -Xswiftc -driver-use-frontend-path -Xswiftc "$work/frontend" > "$work/build-$revision.log" 2>&1) \
        || { cat "$work/build-$revision.log"; exit 1; }
    echo "$(git -C "$work/Rivulet" rev-parse --short HEAD): the RxSwift module, clean debug build, instructions per compile job"
    total=0
    for profile in "$profiles"/job.*; do
        count=$(sed -n 's/^summary: //p' "$profile")
        files=$(grep -m1 '^cmd:' "$profile" | tr ' ' '\n' | grep -c -x -- '-primary-file' || true)
        if [ "$files" -eq 0 ]; then job="module interface"; else job="batch of $files files"; fi
        printf '  %-20s %'"'"'16d\n' "$job" "$count"
        total=$((total + count))
    done
    printf '  %-20s %'"'"'16d\n' total "$total"
done
