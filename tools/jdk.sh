# Sourced (bash) by ./fabriclab, ./fabriclab-test, .ci/run and installers/*.sh: picks the JDK that
# builds and runs FabricLab and exports JAVA_HOME and PATH for Maven, java, jlink and jpackage.
#
# FabricLab needs Java 25 or newer (pom.xml: maven.compiler.release; JavaFX 25 needs Java 23+).
# Looked for, first match wins: $JAVA_HOME, the `java` on the PATH, then the JDKs installed under
# /usr/lib/jvm (Linux) or /Library/Java/JavaVirtualMachines (macOS), newest first. Debian 12's own
# packages stop at JDK 17: install a JDK 25 (for example Eclipse Temurin 25) and point JAVA_HOME
# at it. Returns 1 (after saying what was found) when none fits.
FABRICLAB_JAVA_MIN=25

# The feature number of the JDK at $1 (25 for 25.0.3, 17 for 17.0.15), from its release file, in
# FABRICLAB_JDK_FEATURE (0 when unknown). Read with bash alone: ./fabriclab runs this before every
# command, and a few forks of sed and ls per candidate JDK cost about 0.2 s of a short run.
fabriclab_read_jdk_feature() {
  local line v=""
  if [ -r "$1/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        JAVA_VERSION=\"*) v="${line#JAVA_VERSION=\"}"; v="${v%%[!0-9]*}"; break ;;
      esac
    done < "$1/release"
  fi
  [ -n "$v" ] || v="$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')"
  FABRICLAB_JDK_FEATURE="${v:-0}"
}

# The same, printed.
fabriclab_jdk_feature() {
  fabriclab_read_jdk_feature "$1"
  echo "$FABRICLAB_JDK_FEATURE"
}

# A JDK (javac, not only a JRE) of at least FABRICLAB_JAVA_MIN at $1.
fabriclab_jdk_fits() {
  [ -n "$1" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  fabriclab_read_jdk_feature "$1"
  [ "$FABRICLAB_JDK_FEATURE" -ge "$FABRICLAB_JAVA_MIN" ]
}

# Exports JAVA_HOME (and PATH, MAVEN_OPTS) for the first fitting JDK: $JAVA_HOME, the `java` on
# the PATH, then the installed JDKs newest first; the later candidates are only listed when the
# earlier ones do not fit.
fabriclab_select_jdk() {
  local c j seen="" seen_dirs="" listed=0
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if j="$(command -v java 2>/dev/null)"; then
    candidates+=("PATH:$j")
  fi
  candidates+=("LIST")
  local i=0
  while [ "$i" -lt "${#candidates[@]}" ]; do
    c="${candidates[$i]}"
    i=$((i + 1))
    case "$c" in
      LIST)
        [ "$listed" = 0 ] || continue
        listed=1
        while IFS= read -r c; do candidates+=("$c"); done < <(
          { ls -d /usr/lib/jvm/*/ 2>/dev/null; ls -d /Library/Java/JavaVirtualMachines/*/Contents/Home/ 2>/dev/null; } |
            sed 's:/$::' | sort -V -r)
        continue ;;
      PATH:*)
        j="${c#PATH:}"
        c="$(cd "$(dirname "$(readlink -f "$j" 2>/dev/null || echo "$j")")/.." && pwd)" ;;
    esac
    case "$seen_dirs" in *"|$c|"*) continue ;; esac
    seen_dirs="$seen_dirs|$c|"
    if fabriclab_jdk_fits "$c"; then
      export JAVA_HOME="$c"
      export PATH="$JAVA_HOME/bin:$PATH"
      case " ${MAVEN_OPTS:-} " in
        *sun-misc-unsafe-memory-access*) ;;
        *) export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow" ;;
      esac
      return 0
    fi
    [ -x "$c/bin/java" ] && seen="$seen"$'\n'"  $c: Java $(fabriclab_jdk_feature "$c")$([ -x "$c/bin/javac" ] || echo ' (no javac: a JRE)')"
  done
  {
    echo "FabricLab needs a JDK $FABRICLAB_JAVA_MIN or newer (pom.xml builds for Java $FABRICLAB_JAVA_MIN; JavaFX 25 needs Java 23+)."
    if [ -n "$seen" ]; then echo "Found only:$seen"; else echo "Found no JDK (JAVA_HOME unset, no java on the PATH)."; fi
    echo "Install a JDK $FABRICLAB_JAVA_MIN (e.g. Eclipse Temurin $FABRICLAB_JAVA_MIN; Debian 12's packages stop at 17)"
    echo "and set JAVA_HOME to it, e.g. export JAVA_HOME=/usr/lib/jvm/temurin-$FABRICLAB_JAVA_MIN-jdk-amd64"
  } >&2
  return 1
}
