# Sourced (bash) by ./fabriclab and tools/htsim-compare.sh: the JVM settings of a FabricLab process
# and its start-up cache. Chosen by measurement (docs/performance.md, "Whole-process runs" and
# "Responsiveness during long actions").
#
# fabriclab_jvm_opts CMD  sets the array FABRICLAB_JVM_OPTS for a run of `fabriclab CMD ...`:
#   - gui (the editor): the Z collector (-XX:+UseZGC), which collects while the FX thread runs.
#     With a large fabric open the serial collector stopped every thread for 100-500 ms at each
#     young collection (it copies what the background work's copy of the fabric and its analysis
#     leave alive, about 4 ms per MB), so the window did not answer within 100 ms during Fail a
#     Link, Analyze or Export; ZGC's pauses stay under 1 ms and `bench sim` runs at 0.95-1.06 of
#     the serial collector's events/s (the live view runs the simulator in the editor's JVM).
#     The editor sets ZGC's soft heap size to 2 GB itself (ui.EditorHeap says why, and why not
#     here: above the maximum heap the flag stops the JVM from starting). A first metaspace
#     threshold of 128 MB (-XX:MetaspaceSize=128m): the editor's classes take about 36 MB of
#     metaspace, and each threshold passed starts a whole-heap collection. Both compilers: the
#     editor runs for hours. The AOT cache is not used: it is made with the serial collector's
#     compressed pointers, which ZGC does not have;
#   - every other command: the serial collector (-XX:+UseSerialGC). One collector thread instead
#     of G1's workers, refinement and marking threads; on two cores and heaps under a few GB it
#     costs less CPU for the same pauses, and a command has no window to keep answering;
#   - one-shot commands (simulate, analyze, report, ...): only the C1 compiler
#     (-XX:TieredStopAtLevel=1). C2 spends seconds of CPU compiling during a run of a few seconds
#     and its faster code does not pay that back before the run ends. And a 32 MB young generation
#     (-Xmn32m): the JVM's default first heap is 1/64 of the machine's memory, whose young third
#     a run touches once before its first collection; a k=16 run's live set is under 50 MB, so
#     this takes its resident set from 207 to 160 MB at no measured CPU cost;
#   - bench, sweep and tune keep both compilers: `bench sim` measures the simulator at full speed
#     once warm, and a sweep or a tuning runs the simulator tens to thousands of times in one
#     process, where C2's code pays back its compile time.
# FABRICLAB_JIT=c2 keeps both compilers for any command (a long simulate: k=32, or 1500 B MTUs at
# k>=24, where C2's code pays back its compile time).
# A collector named in FABRICLAB_JAVA_OPTS (-XX:+Use...GC) replaces the one chosen here, with its
# heap sizing (-Xmn): the JVM refuses two collectors.
fabriclab_jvm_opts() {
  fabriclab_jvm_opts_for "$@"
  fabriclab_user_collector || return 0
  local o kept=()
  for o in "${FABRICLAB_JVM_OPTS[@]}"; do
    case "$o" in -XX:+Use*GC|-Xmn*) ;; *) kept+=("$o") ;; esac
  done
  FABRICLAB_JVM_OPTS=("${kept[@]}")
}

# fabriclab_user_collector  whether FABRICLAB_JAVA_OPTS name a collector (-XX:+Use...GC).
fabriclab_user_collector() {
  local w
  for w in ${FABRICLAB_JAVA_OPTS:-}; do
    case "$w" in -XX:+Use*GC) return 0 ;; esac
  done
  return 1
}

fabriclab_jvm_opts_for() {
  case "${1:-}" in
    gui) FABRICLAB_JVM_OPTS=(-XX:+UseZGC -XX:MetaspaceSize=128m) ;;
    bench|sweep|tune) FABRICLAB_JVM_OPTS=(-XX:+UseSerialGC) ;;
    *) FABRICLAB_JVM_OPTS=(-XX:+UseSerialGC -Xmn32m)
       [ "${FABRICLAB_JIT:-}" = c2 ] || FABRICLAB_JVM_OPTS+=(-XX:TieredStopAtLevel=1) ;;
  esac
}

# fabriclab_uses_aot_cache CMD  whether a run of `fabriclab CMD` can take the AOT cache (made with
# the serial collector): every command but the editor's, unless FABRICLAB_JAVA_OPTS name another
# collector (ZGC cannot map the cache, and the JVM would print errors at every start).
fabriclab_uses_aot_cache() {
  ! fabriclab_user_collector || return 1
  case "${1:-}" in gui) return 1 ;; *) return 0 ;; esac
}

# fabriclab_aot_cache JAVA_HOME JAR CLASSPATH_FILE CACHE TRAINING_SCENARIO
# (after fabriclab_fx_modules: the training run gets FABRICLAB_FX_OPTS and FABRICLAB_CP, the class
# and module paths of the runs that use the cache; the stamp holds them, so a cache trained with
# other paths is built again rather than refused by the JVM with a warning at every start).
# An AOT cache (JDK 25, JEP 483/514/515: classes loaded and linked, and method profiles, from a
# training run) for this jar, class path and JDK: built by a training run (a k=8 fat-tree
# permutation, a few seconds) when missing or older than the jar or the class path, or made by
# another JDK. Prints the cache's path when one fits, nothing when it cannot be built (the run
# then goes on without it). The JVM checks the jar's size and time too, and ignores a cache that
# does not match (with a warning); rebuilding here first keeps the runs quiet.
fabriclab_aot_cache() {
  local jdk="$1" jar="$2" cp_file="$3" cache="$4" scenario="$5"
  local stamp="$cache.jdk" want
  # The JDK by its path and release file (no JVM started to ask it).
  want="$jdk $(cat "$jdk/release" 2>/dev/null | tr '\n' ' ') ${FABRICLAB_FX_OPTS[*]}"
  if [ -f "$cache" ] && [ "$cache" -nt "$jar" ] && [ "$cache" -nt "$cp_file" ] && [ -f "$stamp" ] \
     && [ "$(cat "$stamp")" = "$want" ]; then
    echo "$cache"; return 0
  fi
  [ -f "$scenario" ] || return 0
  local tmp="$cache.tmp.$$" work
  work="$(mktemp -d)"
  echo "fabriclab: building the start-up cache (AOT training run, once per build) ..." >&2
  # The training run: the real CLI on a small shipped scenario, its results thrown away.
  if "$jdk/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC ${FABRICLAB_FX_OPTS[@]+"${FABRICLAB_FX_OPTS[@]}"} \
       -XX:AOTCacheOutput="$tmp" -cp "$jar:${FABRICLAB_CP:-$(cat "$cp_file")}" io.fabriclab.FabricLab simulate "$scenario" -o "$work/results.json" --quiet >/dev/null 2>"$work/log" \
     && [ -s "$tmp" ]; then
    mv -f "$tmp" "$cache"
    printf '%s' "$want" > "$stamp"
    echo "$cache"
  else
    echo "fabriclab: no start-up cache (the training run failed; see $work/log); running without" >&2
    rm -f "$tmp" "$tmp.config"
    return 0
  fi
  rm -rf "$work"
}

# fabriclab_fx_modules CLASSPATH  JavaFX as named modules instead of class-path jars, so the editor
# starts without JavaFX's "Unsupported JavaFX configuration: classes were loaded from 'unnamed
# module'" warning. Splits CLASSPATH (':'-separated) into:
#   FABRICLAB_FX_OPTS  --module-path with JavaFX's platform jars (those holding module-info.class:
#                      javafx-*-linux.jar, -mac, -win; the classifier-less javafx-*.jar beside them
#                      are empty placeholders and are dropped), --add-modules for them, and the
#                      --add-exports/--add-opens ControlsFX (still on the class path, an unnamed
#                      module) needs into JavaFX's internals: the same list as the app image's
#                      launchers (installers/build.sh);
#   FABRICLAB_CP       the rest of the class path.
# With no JavaFX module jar in CLASSPATH both are left as they were: FABRICLAB_FX_OPTS empty,
# FABRICLAB_CP = CLASSPATH.
fabriclab_fx_modules() {
  local cp="$1" j mods=() rest=() names=()
  local IFS=:
  for j in $cp; do
    case "$(basename "$j")" in
      javafx-*-linux*.jar|javafx-*-mac*.jar|javafx-*-win*.jar)
        mods+=("$j")
        names+=("$(basename "$j" | sed -E 's/^javafx-([a-z]+)-.*/javafx.\1/')") ;;
      javafx-*.jar) ;;
      *) rest+=("$j") ;;
    esac
  done
  FABRICLAB_FX_OPTS=()
  if [ ${#mods[@]} -eq 0 ]; then
    FABRICLAB_CP="$cp"
    return 0
  fi
  FABRICLAB_CP="${rest[*]}"
  FABRICLAB_FX_OPTS=(--module-path "${mods[*]}" --add-modules "$(IFS=,; echo "${names[*]}")"
    --enable-native-access=javafx.graphics
    --add-exports=javafx.base/com.sun.javafx.event=ALL-UNNAMED
    --add-exports=javafx.controls/com.sun.javafx.scene.control=ALL-UNNAMED
    --add-exports=javafx.controls/com.sun.javafx.scene.control.behavior=ALL-UNNAMED
    --add-exports=javafx.controls/com.sun.javafx.scene.control.inputmap=ALL-UNNAMED
    --add-exports=javafx.graphics/com.sun.javafx.scene=ALL-UNNAMED
    --add-exports=javafx.graphics/com.sun.javafx.scene.traversal=ALL-UNNAMED
    --add-exports=javafx.graphics/com.sun.javafx.css=ALL-UNNAMED
    --add-opens=javafx.controls/javafx.scene.control.skin=ALL-UNNAMED)
}
