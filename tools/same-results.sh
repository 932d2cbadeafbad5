#!/usr/bin/env bash
# Runs every shipped scenario (resources/scenarios/*.json) with `fabriclab simulate --reproducible`
# under two builds and diffs the results files byte for byte.
#   tools/same-results.sh OLD_CHECKOUT [NEW_CHECKOUT] [ENGINE]
# OLD_CHECKOUT: a checkout to compare against (e.g. `git worktree add --detach /tmp/base main`),
# built on first use by its ./fabriclab; NEW_CHECKOUT defaults to this one; ENGINE packet (default)
# or flow. Prints one line per scenario (same / DIFFERENT / refused by both) and exits 1 when any
# results file differs. Scratch files go to a temporary directory that is removed at the end.
set -uo pipefail
old="$(cd "$1" && pwd)"
new="$(cd "${2:-$(dirname "$0")/..}" && pwd)"
engine="${3:-packet}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
differ=0
for s in "$new"/resources/scenarios/*.json; do
  n="$(basename "$s" .json)"
  extra=()
  [ "$engine" = packet ] || extra=(--engine "$engine")
  (cd "$old/resources/scenarios" && "$old/fabriclab" simulate "$n.json" -o "$tmp/$n-old.json" --reproducible --quiet "${extra[@]}" >/dev/null 2>"$tmp/$n-old.err"); a=$?
  (cd "$new/resources/scenarios" && "$new/fabriclab" simulate "$n.json" -o "$tmp/$n-new.json" --reproducible --quiet "${extra[@]}" >/dev/null 2>"$tmp/$n-new.err"); b=$?
  if [ $a -ne 0 ] || [ $b -ne 0 ]; then
    if [ $a -eq $b ] && cmp -s "$tmp/$n-old.err" "$tmp/$n-new.err"; then
      echo "$n: refused by both (exit $a), same message"
    else
      echo "$n: DIFFERENT exit codes or messages (old $a, new $b)"; differ=1
    fi
    continue
  fi
  # The metadata names the FabricLab version; the figures must be the same bytes.
  if cmp -s <(grep -v '"fabriclabVersion"' "$tmp/$n-old.json") <(grep -v '"fabriclabVersion"' "$tmp/$n-new.json"); then
    echo "$n: same ($(wc -c <"$tmp/$n-new.json") bytes)"
  else
    echo "$n: DIFFERENT"; differ=1
  fi
done
exit $differ
