# Sourced (bash) by ./fabriclab, ./fabriclab-test, .ci/run and installers/*.sh: picks the JDK that
# builds and runs FabricLab and exports JAVA_HOME and PATH for Maven, java, jlink and jpackage.
#
# FabricLab needs Java 25 or newer (pom.xml: maven.compiler.release; JavaFX 25 needs Java 23+).
# Looked for, first match wins: $JAVA_HOME, the `java` on the PATH, then the JDKs installed under
# /usr/lib/jvm (Linux) or /Library/Java/JavaVirtualMachines (macOS), newest first. Debian 12's own
# packages stop at JDK 17: install a JDK 25 (for example Eclipse Temurin 25) and point JAVA_HOME
# at it. Returns 1 (after saying what was found) when none fits.
FABRICLAB_JAVA_MIN=25

# The feature number of the JDK at $1 (25 for 25.0.3, 17 for 17.0.15), from its release file.
fabriclab_jdk_feature() {
  local v
  v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)"
  [ -n "$v" ] || v="$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')"
  echo "${v:-0}"
}

# A JDK (javac, not only a JRE) of at least FABRICLAB_JAVA_MIN at $1.
fabriclab_jdk_fits() {
  [ -n "$1" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] &&
    [ "$(fabriclab_jdk_feature "$1")" -ge "$FABRICLAB_JAVA_MIN" ]
}

fabriclab_select_jdk() {
  local c j seen="" seen_dirs=""
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if j="$(command -v java 2>/dev/null)"; then
    candidates+=("$(cd "$(dirname "$(readlink -f "$j" 2>/dev/null || echo "$j")")/.." && pwd)")
  fi
  # Newest first: sort -V on the directory names (temurin-25-jdk-amd64 after java-17-openjdk-amd64).
  while IFS= read -r c; do candidates+=("$c"); done < <(
    { ls -d /usr/lib/jvm/*/ 2>/dev/null; ls -d /Library/Java/JavaVirtualMachines/*/Contents/Home/ 2>/dev/null; } |
      sed 's:/$::' | sort -V -r)
  for c in "${candidates[@]}"; do
    c="$(readlink -f "$c" 2>/dev/null || echo "$c")"
    case "$seen_dirs" in *"|$c|"*) continue ;; esac
    seen_dirs="$seen_dirs|$c|"
    if fabriclab_jdk_fits "$c"; then
      export JAVA_HOME="$c"
      export PATH="$JAVA_HOME/bin:$PATH"
      # Maven 3.8/3.9 (Guice, Guava) call sun.misc.Unsafe, which Java 24+ warns about on every run.
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
