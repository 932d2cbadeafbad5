#!/usr/bin/env bash
# Side-by-side whole-process timing of FabricLab and csg-htsim's htsim_roce on the permutation
# workload (every host sends 2 MB to one other host, ECMP per flow, lossless with PFC), on the
# same machine in one sitting, alternating the two tools run by run so that load from other work
# falls on both alike.
#
#   tools/htsim-compare.sh HTSIM_ROCE [ROW ...]
#     HTSIM_ROCE  path to a built htsim_roce (csg-htsim's sim/datacenter/htsim_roce; how to build it:
#                 docs/performance.md, "How to reproduce the comparison"). Nothing of htsim is in
#                 this repository.
#     ROW         k8-9000, k16-9000, k16-1500 (default: these three), k24-9000, k32-9000 (3,456 and 8,192
#                 hosts: minutes per run; their fabrics are generated into the scratch folder with the
#                 k=16 bench fabric's QoS, cables and MTU, and FabricLab runs them with FABRICLAB_JIT=c2,
#                 as docs/performance.md advises for long simulations)
#   Environment: RUNS (runs of each tool per row, default 5), OUT (scratch folder, default a new
#   temporary one; htsim writes its log and idmap.txt there).
#
# Prints every run (wall s, CPU s = user + sys, peak RSS MB, load average) and, per row, the
# medians and the ratios FabricLab / htsim as a Markdown table row. FabricLab runs through
# ./fabriclab as a user runs it (its start-up cache and JVM settings included; built first, outside
# the timing); htsim as its README runs it. Both write their output to files in the scratch folder.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
htsim="${1:?usage: tools/htsim-compare.sh HTSIM_ROCE [k8-9000|k16-9000|k16-1500 ...]}"
shift
[ -x "$htsim" ] || { echo "htsim-compare: $htsim is not an executable (build csg-htsim's sim/datacenter/htsim_roce)" >&2; exit 2; }
htsim="$(readlink -f "$htsim")"
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(k8-9000 k16-9000 k16-1500)
runs="${RUNS:-5}"
out="${OUT:-$(mktemp -d /tmp/htsim-compare.XXXXXX)}"
mkdir -p "$out"
[ -x /usr/bin/time ] || { echo "htsim-compare: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "htsim-compare: needs python3 (htsim's permutation generator)" >&2; exit 2; }

# htsim's connection matrix for N hosts: its own generator (connection_matrices/gen_permutation.py),
# N connections of 2,000,000 B, all starting at 0, seed 13. The 1024-host one ships with htsim.
matrix() {
  local n="$1" cm_dir
  cm_dir="$(dirname "$htsim")/connection_matrices"
  if [ -f "$cm_dir/perm_${n}n_${n}c_0u_2000000b.cm" ]; then
    echo "$cm_dir/perm_${n}n_${n}c_0u_2000000b.cm"
  else
    python3 "$cm_dir/gen_permutation.py" "$out/perm_${n}n_${n}c_0u_2000000b.cm" "$n" "$n" 2000000 0 13 >/dev/null
    echo "$out/perm_${n}n_${n}c_0u_2000000b.cm"
  fi
}

# A k-ary bench fat tree like resources/examples/fat-tree-k16-bench.json (its QoS profile, 200 m
# single-mode cables, 9000 B MTU) and its permutation scenario, written into the scratch folder.
big_scenario() {
  local k="$1" gen="$out/fat-tree-k$1-bench.json" sc="$out/bench-fattree-k$1-permutation.json"
  if [ ! -f "$sc" ]; then
    "$root/fabriclab" generate fat-tree -k "$k" -o "$out/fat-tree-k$k-generated.json" >/dev/null
    python3 - "$root/resources/examples/fat-tree-k16-bench.json" "$out/fat-tree-k$k-generated.json" "$gen" "$k" <<'PY'
import json, sys
ref, fabric = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
k = int(sys.argv[4])
fabric["name"] = f"k={k} fat tree, {k**3 // 4} hosts, 100G, 200 m (1 us) per hop, 9000 B MTU"
fabric["mtuBytes"], fabric["qosProfiles"], fabric["defaultQosProfile"] = ref["mtuBytes"], ref["qosProfiles"], ref["defaultQosProfile"]
for link in fabric["links"]:
    link["cableLengthM"], link["cableType"] = 200, "smf"
json.dump(fabric, open(sys.argv[3], "w"))
PY
    python3 - "$root/resources/scenarios/bench-fattree-k16-permutation.json" "$gen" "$sc" "$k" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["name"] = f"bench: k={sys.argv[4]} fat-tree permutation, 2 MB per host, 9000 B MTU, PFC + ECN + DCQCN"
s["fabric"] = sys.argv[2]
json.dump(s, open(sys.argv[3], "w"), indent=2)
PY
  fi
  echo "$sc"
}

# One timed whole process: prints "wall cpu rssMB".
timed() {
  local f="$out/time.$$"
  /usr/bin/time -f '%e %U %S %M' -o "$f" "$@" >/dev/null 2>"$out/last-stderr" || {
    echo "htsim-compare: failed: $*" >&2; cat "$out/last-stderr" >&2; exit 1; }
  awk '{printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024}' "$f"
  rm -f "$f"
}

median() { sort -g | awk '{v[NR]=$1} END{if (NR%2) print v[(NR+1)/2]; else printf "%.2f\n", (v[NR/2]+v[NR/2+1])/2}'; }

echo "# htsim-compare $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $runs runs per tool per row"
echo "# htsim: $htsim"
echo "# FabricLab: $root/fabriclab ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
"$root/fabriclab" --version >/dev/null   # builds the jar and the start-up cache if needed, untimed
summary=()
for row in "${rows[@]}"; do
  case "$row" in
    k8-9000) nodes=128; mtu=9000; scenario=bench-fattree-k8-permutation.json ;;
    k16-9000) nodes=1024; mtu=9000; scenario=bench-fattree-k16-permutation.json ;;
    k16-1500) nodes=1024; mtu=1500; scenario=bench-fattree-k16-permutation-1500.json ;;
    k24-9000) nodes=3456; mtu=9000; scenario="$(big_scenario 24)" ;;
    k32-9000) nodes=8192; mtu=9000; scenario="$(big_scenario 32)" ;;
    *) echo "htsim-compare: unknown row $row (k8-9000, k16-9000, k16-1500, k24-9000, k32-9000)" >&2; exit 2 ;;
  esac
  case "$scenario" in /*) ;; *) scenario="$root/resources/scenarios/$scenario" ;; esac
  jit=(); case "$row" in k24-*|k32-*) jit=(env FABRICLAB_JIT=c2) ;; esac
  cm="$(matrix "$nodes")"
  hcmd=("$htsim" -nodes "$nodes" -tm "$cm" -strat ecmp_host -paths 1 -queue_type lossless_input
        -mtu "$mtu" -end 100000 -o "$out/htsim-$row.log")
  fcmd=("${jit[@]}" "$root/fabriclab" simulate "$scenario" -o "$out/fabriclab-$row.json" --quiet)
  echo "## $row"
  echo "# htsim:     (cd $out && ${hcmd[*]})"
  echo "# FabricLab: ${fcmd[*]}"
  : > "$out/$row.htsim"; : > "$out/$row.fabriclab"
  for ((i = 1; i <= runs; i++)); do
    # Alternate which goes first, so neither always follows the other's caches.
    order=(htsim fabriclab); [ $((i % 2)) -eq 0 ] && order=(fabriclab htsim)
    for tool in "${order[@]}"; do
      load="$(cut -d' ' -f1-3 /proc/loadavg)"
      if [ "$tool" = htsim ]; then r="$(cd "$out" && timed "${hcmd[@]}")"; else r="$(timed "${fcmd[@]}")"; fi
      echo "$r" >> "$out/$row.$tool"
      printf '%-9s run %d: wall %s s, CPU %s s, peak RSS %s MB (load %s)\n' "$tool" "$i" \
        "$(cut -d' ' -f1 <<<"$r")" "$(cut -d' ' -f2 <<<"$r")" "$(cut -d' ' -f3 <<<"$r")" "$load"
    done
  done
  hw=$(cut -d' ' -f1 "$out/$row.htsim" | median); hc=$(cut -d' ' -f2 "$out/$row.htsim" | median)
  hm=$(cut -d' ' -f3 "$out/$row.htsim" | median)
  fw=$(cut -d' ' -f1 "$out/$row.fabriclab" | median); fc=$(cut -d' ' -f2 "$out/$row.fabriclab" | median)
  fm=$(cut -d' ' -f3 "$out/$row.fabriclab" | median)
  line="$(awk -v r="$row" -v hw="$hw" -v hc="$hc" -v hm="$hm" -v fw="$fw" -v fc="$fc" -v fm="$fm" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
    'BEGIN{printf "| %s | %.2f (%.2f s vs %.2f s) | %.2f (%.2f s vs %.2f s) | %.2f (%d MB vs %d MB) | %s |", r, fw/hw, fw, hw, fc/hc, fc, hc, fm/hm, fm, hm, l}')"
  echo "$line"
  summary+=("$line")
done
echo
echo "| row | FabricLab / htsim wall (medians) | FabricLab / htsim CPU | peak RSS FabricLab / htsim | load at the end |"
echo "|---|---|---|---|---|"
printf '%s\n' "${summary[@]}"
echo "# outputs and per-run figures: $out"
