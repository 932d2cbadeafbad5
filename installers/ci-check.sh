#!/usr/bin/env bash
# CI check of the packaged app: builds the Linux app-image (jlink + jpackage; not the .deb, to save
# time) and runs the CLI from the image, not from Maven: --version, and analyze / simulate on a
# shipped example once those commands exist. Installs what a fresh Debian machine with JDK 17 and
# Maven lacks. Exit code 0 = the packaged app works.
#
# Environment: FABRICLAB_MVN_ARGS (extra Maven arguments, e.g. -o),
#   FABRICLAB_CI_FABRIC (fabric file for analyze/simulate; default: the first example under resources/),
#   FABRICLAB_CI_ANALYZE_ARGS / FABRICLAB_CI_SIMULATE_ARGS (replace the default arguments).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$(date +%s)
say() { echo "ci-check: $*"; }
fail() { echo "ci-check: FAIL: $*" >&2; exit 1; }

# --- tools: a full JDK 17 (jdeps, jlink, jpackage, jmods) and Maven --------------------------------
jdk_home() {
  local j
  j="$(command -v java 2>/dev/null)" || return 1
  (cd "$(dirname "$(readlink -f "$j")")/.." && pwd)
}
jdk_complete() {
  local h
  h="${JAVA_HOME:-$(jdk_home)}" || return 1
  [ -x "$h/bin/jpackage" ] && [ -x "$h/bin/jlink" ] && [ -x "$h/bin/jdeps" ] && [ -d "$h/jmods" ]
}
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${apt_updated:-}" ]; then apt-get update -qq; apt_updated=1; fi
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
command -v mvn >/dev/null 2>&1 || apt_install maven
# Debian 12: jlink, jdeps and jmods are in -jdk-headless (jpackage comes with it); other releases
# put jpackage in openjdk-17-jdk, so try that too.
jdk_complete || apt_install openjdk-17-jdk-headless
jdk_complete || apt_install openjdk-17-jdk
jdk_complete || fail "no JDK 17 with jpackage, jlink, jdeps and jmods (JAVA_HOME=${JAVA_HOME:-unset})"
say "JDK $(java -version 2>&1 | head -1)"

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

has_command() { grep -Eq "^ +$1( |$)" <<<"$help"; }
fabric="${FABRICLAB_CI_FABRIC:-}"
if [ -z "$fabric" ] && [ -d resources ]; then
  fabric="$(find resources -type f \( -name '*.fabric.json' -o -path '*example*' -name '*.json' \) \
      ! -name '*scenario*' ! -name '*.annotations.json' | sort | head -1)"
fi

# analyze: 0 = no findings at error level, 1 = findings at error level; both mean it worked.
if has_command analyze; then
  [ -n "$fabric" ] || [ -n "${FABRICLAB_CI_ANALYZE_ARGS:-}" ] ||
    fail "analyze exists but no example fabric under resources/ (set FABRICLAB_CI_FABRIC)"
  # shellcheck disable=SC2086
  set +e; run "$cli" analyze ${FABRICLAB_CI_ANALYZE_ARGS:-"$root/$fabric"}; rc=$?; set -e
  [ $rc -le 1 ] || fail "fabriclab analyze exited $rc"
  say "analyze ok (exit $rc)"
else
  say "no analyze command yet: skipped"
fi

if has_command simulate; then
  [ -n "$fabric" ] || [ -n "${FABRICLAB_CI_SIMULATE_ARGS:-}" ] ||
    fail "simulate exists but no example fabric under resources/ (set FABRICLAB_CI_FABRIC)"
  sim_args=("$root/$fabric")
  # A shipped scenario, when the command takes one.
  if run "$cli" simulate --help | grep -q -- '--scenario'; then
    scenario="$(find resources -type f -name '*scenario*.json' | sort | head -1)"
    [ -n "$scenario" ] && sim_args+=(--scenario "$root/$scenario")
  fi
  # shellcheck disable=SC2086
  if [ -n "${FABRICLAB_CI_SIMULATE_ARGS:-}" ]; then sim_args=(${FABRICLAB_CI_SIMULATE_ARGS}); fi
  set +e; run "$cli" simulate "${sim_args[@]}"; rc=$?; set -e
  [ $rc -eq 0 ] || fail "fabriclab simulate ${sim_args[*]} exited $rc"
  say "simulate ok"
else
  say "no simulate command yet: skipped"
fi

say "OK in $(( $(date +%s) - start )) s ($(cat target/installer/build-report.txt | grep '^app image' | tr -s ' '))"
