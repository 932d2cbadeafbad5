#!/usr/bin/env bash
# Desktop benchmarks from a source checkout; they are test code, not part of the shipped jar.
#   tools/bench-ui.sh editor [--units 4,64] [--frames 30] [--renderer java2d,fx]
#   tools/bench-ui.sh live [--runs 8] [--renderer java2d] [--fabric FILE ...]
#   tools/bench-ui.sh responsive [--units 64] [--rounds 2]   FX-thread answer latency during long actions
#   tools/bench-ui.sh editor --help    every option
# editor and live need a display: on a server, xvfb-run -a -s '-screen 0 1920x1200x24' tools/bench-ui.sh editor;
# responsive runs headless (Monocle) when there is no DISPLAY.
# Compiles the main and test classes (mvn test-compile) when sources changed, then runs
# io.fabriclab.ui.live.UiBench on the test class path, with the editor's JVM settings
# (tools/jvm-opts.sh; FABRICLAB_JAVA_OPTS override). Figures: docs/performance.md.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=tools/jdk.sh
. "$root/tools/jdk.sh"
fabriclab_select_jdk || exit 2
cp_file="$root/target/test-classpath.txt"
entry="$root/target/test-classes/io/fabriclab/ui/live/UiBench.class"
if [ ! -f "$entry" ] || [ ! -f "$cp_file" ] || \
   [ -n "$(find "$root/src" "$root/resources" "$root/pom.xml" -newer "$cp_file" -print -quit 2>/dev/null)" ]; then
  echo "bench-ui: compiling (mvn test-compile) ..." >&2
  # Debian's Maven 3.8 prints ESC[0m resets even in batch mode: strip every colour escape.
  mvn -B -q -ntp -Dstyle.color=never ${FABRICLAB_MVN_ARGS:-} -f "$root/pom.xml" test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" 2>&1 | sed $'s/\e\\[[0-9;]*m//g' >&2
  touch "$cp_file"
fi
cp="$root/target/test-classes:$root/target/classes:$(cat "$cp_file")"
# The editor's JVM settings (its collector: tools/jvm-opts.sh), so that the figures are those of
# `fabriclab gui`; FABRICLAB_JAVA_OPTS come after them and override (e.g. another collector).
# shellcheck source=tools/jvm-opts.sh
. "$root/tools/jvm-opts.sh"
fabriclab_jvm_opts gui
if [ "${1:-}" = responsive ]; then
  shift
  exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED "${FABRICLAB_JVM_OPTS[@]}" ${FABRICLAB_JAVA_OPTS:-} \
    -cp "$cp" io.fabriclab.ui.ResponsivenessBenchmark "$@"
fi
# --enable-native-access: JavaFX loads its native libraries from the class path (Java 24+ warns otherwise).
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED "${FABRICLAB_JVM_OPTS[@]}" ${FABRICLAB_JAVA_OPTS:-} \
  -cp "$cp" io.fabriclab.ui.live.UiBench "$@"
