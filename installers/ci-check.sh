#!/usr/bin/env bash
# CI check of the packaged app (JDK 25+, tools/jdk.sh): builds the Linux app-image (jlink + jpackage; not the .deb, to save
# time) and runs the CLI from the image, not from Maven: --version, analyze (text and --json) on a
# shipped example fabric, simulate on a shipped scenario, generate + validate. Installs what a fresh
# Debian machine lacks. Exit code 0 = the packaged app works. .ci/run calls it after the tests.
#
# Environment: FABRICLAB_MVN_ARGS (extra Maven arguments, e.g. -o),
#   FABRICLAB_CI_FABRIC (fabric for analyze, relative to the checkout; default the classic example),
#   FABRICLAB_CI_SCENARIO (scenario for simulate; default resources/scenarios/incast-pfc-dcqcn.json).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$(date +%s)
say() { echo "ci-check: $*"; }
fail() { echo "ci-check: FAIL: $*" >&2; exit 1; }

# --- tools: a full JDK 25+ (jdeps, jlink, jpackage) and Maven ---------------------------------------
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${apt_updated:-}" ]; then apt-get update -qq; apt_updated=1; fi
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
command -v mvn >/dev/null 2>&1 || apt_install maven
# jlink --strip-debug strips the native libraries' debug symbols too, with objcopy (binutils),
# which a bare Debian lacks ("Cannot run program objcopy").
command -v objcopy >/dev/null 2>&1 || apt_install binutils
# No Debian 12 package has a JDK 25: tools/jdk.sh finds an installed one or says what it found.
. tools/jdk.sh
fabriclab_select_jdk || fail "no JDK $FABRICLAB_JAVA_MIN+ (JAVA_HOME=${JAVA_HOME:-unset})"
for tool in jpackage jlink jdeps; do
  [ -x "$JAVA_HOME/bin/$tool" ] || fail "$JAVA_HOME has no $tool; a full JDK $FABRICLAB_JAVA_MIN is needed"
done
say "JDK $("$JAVA_HOME/bin/java" -version 2>&1 | head -1) at $JAVA_HOME"

# --- build ------------------------------------------------------------------------------------------
installers/build.sh app-image
. target/installer/jpackage/app.env
image="target/installer/image/$APP_NAME"
cli="$image/bin/fabriclab"
[ -x "$cli" ] || fail "$cli missing"
[ -x "$image/bin/$APP_NAME" ] || fail "GUI launcher $image/bin/$APP_NAME missing"

# --- run from the image -----------------------------------------------------------------------------
# Nothing from the build environment: no Maven, no class path, a plain PATH.
run() { env -i PATH=/usr/bin:/bin HOME="${HOME:-/tmp}" LANG=C.UTF-8 timeout 600 "$@"; }

out="$(run "$cli" --version)" || fail "fabriclab --version exited $?"
echo "$out"
grep -q "FabricLab $APP_VERSION" <<<"$out" || fail "--version says '$out', pom.xml says $APP_VERSION"

help="$(run "$cli" --help)" || fail "fabriclab --help exited $?"
run "$cli" gui --help >/dev/null || fail "fabriclab gui --help exited $?"
for c in analyze simulate generate validate convert; do
  grep -Eq "^ +$c( |$)" <<<"$help" || fail "the packaged CLI has no '$c' command"
done

# Shipped examples, run from the checkout's resources/ (the same files are inside the app jar).
fabric="$root/${FABRICLAB_CI_FABRIC:-resources/examples/classic-leaf-spine.json}"
scenario="$root/${FABRICLAB_CI_SCENARIO:-resources/scenarios/incast-pfc-dcqcn.json}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# analyze: 0 = no findings at error level, 1 = findings at error level; both mean it worked.
set +e; run "$cli" analyze "$fabric" >"$work/analyze.txt"; rc=$?; set -e
cat "$work/analyze.txt"
[ $rc -le 1 ] || fail "fabriclab analyze $fabric exited $rc"
grep -q '^Bisection bandwidth' "$work/analyze.txt" || fail "analyze printed no bisection line"
set +e; run "$cli" analyze --json "$fabric" >"$work/analysis.json"; rc=$?; set -e
[ $rc -le 1 ] || fail "fabriclab analyze --json $fabric exited $rc"
grep -q '"switches" : {' "$work/analysis.json" || fail "analyze --json carries no switch counts"
say "analyze ok (exit $rc)"

# simulate: a shipped scenario (it names its fabric by a relative path) to a results file.
set +e; run "$cli" simulate --quiet "$scenario" -o "$work/results.json"; rc=$?; set -e
[ $rc -eq 0 ] || fail "fabriclab simulate $scenario exited $rc"
[ -s "$work/results.json" ] || fail "simulate wrote no results file"
say "simulate ok ($(wc -c <"$work/results.json") bytes of results)"

# generate + validate round trip through the packaged CLI.
run "$cli" generate rail --units 1 -o "$work/rail.json" || fail "fabriclab generate rail exited $?"
set +e; run "$cli" validate "$work/rail.json"; rc=$?; set -e
[ $rc -le 1 ] || fail "fabriclab validate exited $rc"

# The start-up cache (build.sh step 5b) is in the image and the CLI launcher maps it.
[ -s "$image/lib/app/fabriclab.aot" ] || fail "no AOT cache in $image/lib/app"
aot_log="$(run env JAVA_TOOL_OPTIONS=-Xlog:aot=info "$cli" --version 2>&1)" || fail "fabriclab --version with -Xlog:aot exited $?"
grep -q 'Opened AOT cache' <<<"$aot_log" || fail "the CLI launcher did not open its AOT cache: $(grep -i 'aot' <<<"$aot_log" | grep -iv skipping | head -5)"
say "AOT cache used by the CLI launcher"

# The editor's launcher: the Z collector, and no start-up cache (ZGC cannot map one made with the
# serial collector's compressed pointers; the JVM would print errors at every start).
editor_cfg="$image/lib/app/FabricLab.cfg"
[ -f "$editor_cfg" ] || fail "no editor launcher configuration $editor_cfg"
grep -qx 'java-options=-XX:+UseZGC' "$editor_cfg" || fail "the editor launcher does not run the Z collector ($editor_cfg)"
! grep -q 'AOTCache' "$editor_cfg" || fail "the editor launcher names the AOT cache ($editor_cfg)"
say "editor launcher: Z collector, no AOT cache"

say "OK in $(( $(date +%s) - start )) s ($(cat target/installer/build-report.txt | grep '^app image' | tr -s ' '))"
