#!/usr/bin/env bash
# Runs `fabriclab simulate --reproducible` on every shipped scenario (resources/scenarios/*.json)
# and on each shipped example fabric with the incast preset, with two builds, and says which
# results files differ. --reproducible writes 0 for the wall-clock fields (RunInfo.wallNanos,
# eventsPerSecond), so identical simulations give identical files.
#   tools/results-diff.sh BEFORE_DIR AFTER_DIR OUT_DIR [SCENARIO_GLOB]
# BEFORE_DIR and AFTER_DIR are checkouts with target/fabriclab.jar and target/classpath.txt built
# (mvn -DskipTests package). OUT_DIR gets before/ and after/ results and a summary, diff.txt.
set -uo pipefail
before="$(readlink -f "$1")"; after="$(readlink -f "$2")"; out="$3"; glob="${4:-*.json}"
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
. "$here/tools/jdk.sh" && fabriclab_select_jdk || exit 2
mkdir -p "$out/before" "$out/after"
run() { # build-dir name args...
  local dir="$1" name="$2"; shift 2
  "$JAVA_HOME/bin/java" -XX:+UseSerialGC -Xmx3g -cp "$dir/target/fabriclab.jar:$(cat "$dir/target/classpath.txt")" \
    io.fabriclab.FabricLab simulate --quiet --reproducible "$@" >/dev/null 2>"$out/$(basename "$dir")-$name.err"
}
: > "$out/diff.txt"
cases=()
for s in "$here"/resources/scenarios/$glob; do cases+=("scenario:$s"); done
for f in "$here"/resources/examples/*.json; do
  cases+=("incast:$f")
done
for c in "${cases[@]}"; do
  kind="${c%%:*}"; file="${c#*:}"; name="$(basename "$file" .json)"
  [ "$kind" = incast ] && name="$name-incast"
  for side in before after; do
    dir=$before; [ "$side" = after ] && dir=$after
    res="$out/$side/$name.json"
    if [ "$kind" = scenario ]; then
      run "$dir" "$name" "$file" -o "$res"
    else
      run "$dir" "$name" "$file" --workload incast -o "$res"
    fi
    echo "$?" > "$out/$side/$name.rc"
  done
  if cmp -s "$out/before/$name.json" "$out/after/$name.json" && cmp -s "$out/before/$name.rc" "$out/after/$name.rc"; then
    echo "identical  $name (exit $(cat "$out/after/$name.rc"))" | tee -a "$out/diff.txt"
  else
    echo "DIFFERENT  $name (exit $(cat "$out/before/$name.rc") / $(cat "$out/after/$name.rc"))" | tee -a "$out/diff.txt"
  fi
done
