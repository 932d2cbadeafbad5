#!/usr/bin/env bash
# Builds FabricLab as an installable desktop application with jlink + jpackage (JDK 25+).
#
#   installers/build.sh [TYPE]      TYPE: app-image (default), deb, rpm, msi, exe, dmg, pkg
#
# Steps: mvn -Pinstaller package (jar, dependency jars, JavaFX module jars, metadata filtered
# from pom.xml) -> jdeps (JDK modules the jars use) -> jlink (trimmed runtime with JavaFX as
# modules) -> jpackage app-image -> jpackage TYPE from that image. Everything lands in
# target/installer/; a summary (modules, sizes, times) in target/installer/build-report.txt.
# Runs on Linux, macOS and Windows (Git Bash); a package type builds only on its own platform.
#
# Environment: FABRICLAB_MVN_ARGS (extra Maven arguments, e.g. -o), FABRICLAB_SKIP_MAVEN=1 (reuse
# the last staging), JAVA_HOME (else a JDK 25+ found by tools/jdk.sh: the `java` on the PATH or one
# under /usr/lib/jvm).
set -euo pipefail

type="${1:-app-image}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/target/installer"
cd "$root"

case "$(uname -s)" in
  Linux*) os=linux; sep=':' ;;
  Darwin*) os=mac; sep=':' ;;
  MINGW*|MSYS*|CYGWIN*) os=win; sep=';' ;;
  *) echo "build.sh: unsupported OS $(uname -s)" >&2; exit 2 ;;
esac
case "$os:$type" in
  *:app-image|linux:deb|linux:rpm|win:msi|win:exe|mac:dmg|mac:pkg) ;;
  *) echo "build.sh: cannot build '$type' on $os (Linux: app-image deb rpm; Windows: app-image msi exe; macOS: app-image dmg pkg)" >&2
     exit 2 ;;
esac

# shellcheck source=../tools/jdk.sh
. "$root/tools/jdk.sh"
fabriclab_select_jdk || exit 2
if [ "$os" = win ]; then
  # C:/x/y paths: Git Bash's tools and the JDK's Windows tools both read them, unmangled.
  root="$(cygpath -m "$root")"; out="$root/target/installer"; JAVA_HOME="$(cygpath -m "$JAVA_HOME")"
fi
jdk_bin="$JAVA_HOME/bin"
for tool in jdeps jlink jpackage jar; do
  [ -x "$jdk_bin/$tool" ] || [ -x "$jdk_bin/$tool.exe" ] || {
    echo "build.sh: $jdk_bin/$tool missing; a full JDK $FABRICLAB_JAVA_MIN is needed (with jlink and jpackage)" >&2; exit 2; }
done
# jlink takes the JDK's modules from its jmods/ folder or, on a JDK built with a linkable run-time
# image (JEP 493, Java 24+: Temurin 25 ships no jmods/), from the running JDK itself.
if [ -d "$JAVA_HOME/jmods" ]; then
  jdk_mods="$JAVA_HOME/jmods$sep"
else
  jdk_mods=""
fi
if [ "$os" = linux ]; then
  # jlink --strip-debug also strips the native libraries' debug symbols, with objcopy.
  command -v objcopy >/dev/null 2>&1 || {
    echo "build.sh: objcopy missing; jlink --strip-debug needs it (Debian: apt-get install binutils)" >&2; exit 2; }
  if [ "$type" = deb ]; then
    for tool in fakeroot dpkg-deb; do command -v $tool >/dev/null 2>&1 || {
      echo "build.sh: $tool missing; a .deb needs fakeroot and dpkg-deb (Debian: apt-get install fakeroot dpkg)" >&2; exit 2; }
    done
  fi
fi

now() { date +%s; }
report="$out/build-report.txt"
t0=$(now)

# 1. Maven: jar + staging (input/, javafx/, jpackage/ with the version from pom.xml).
if [ "${FABRICLAB_SKIP_MAVEN:-0}" != 1 ]; then
  rm -rf "$out"
  # Debian's Maven 3.8 prints ESC[0m resets even in batch mode: strip every colour escape.
  # shellcheck disable=SC2086
  mvn -B -q -ntp -Dstyle.color=never ${FABRICLAB_MVN_ARGS:-} -DskipTests -Pinstaller package 2>&1 |
    sed $'s/\e\\[[0-9;]*m//g'
fi
[ -f "$out/jpackage/app.env" ] || { echo "build.sh: $out/jpackage/app.env missing; run without FABRICLAB_SKIP_MAVEN" >&2; exit 2; }
# shellcheck source=/dev/null
. "$out/jpackage/app.env"
cp "$root/target/fabriclab.jar" "$out/input/"
# jpackage wants a plain dotted number (MSI: at most 255.255.65535); 0.2.0-SNAPSHOT -> 0.2.0.
version="${APP_VERSION%%-*}"
pkg_version="$version"
if [ "$os" = mac ] && [ "${version%%.*}" = 0 ]; then
  # macOS bundles refuse a version whose first number is 0 (CFBundleVersion rule): 0.M.P -> 1.M.P
  # for the bundle only; `fabriclab --version` and the About box still say $APP_VERSION.
  pkg_version="1.${version#0.}"
fi
t_maven=$(( $(now) - t0 ))

# 2. JavaFX module jars: keep only the platform jars (they hold module-info and the natives);
#    the classifier-less ones are empty placeholders.
fx_mods="$out/javafx-modules"
rm -rf "$fx_mods" && mkdir -p "$fx_mods"
fx_names=()
for j in "$out"/javafx/*.jar; do
  if "$jdk_bin/jar" tf "$j" | grep -x 'module-info.class' >/dev/null; then
    cp "$j" "$fx_mods/"
    fx_names+=("$("$jdk_bin/jar" --describe-module --file "$j" | sed -n '1{s/@.*//;s/ .*//;p;}')")
  fi
done
[ ${#fx_names[@]} -gt 0 ] || { echo "build.sh: no JavaFX module jars for this platform in $out/javafx" >&2; exit 2; }

# 3. jdeps: the JDK modules the jars use. Every class of every jar is a root, so code reached
#    only by reflection (the editor behind `fabriclab gui`) counts too. The output is the reduced
#    list (modules implied by `requires transitive` left out); jlink adds those back.
t1=$(now)
cp_all="$(find "$out/input" -name '*.jar' | sort | tr '\n' "$sep")"
jdk_modules="$("$jdk_bin/java" --list-modules | sed 's/@.*//')"
want="$(printf '%s\n' "${fx_names[@]}")"   # a newline list: macOS's bash 3.2 has no associative arrays
deps="$("$jdk_bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release "$FABRICLAB_JAVA_MIN" \
    --module-path "$fx_mods$sep$out/input" --class-path "$cp_all" "$out"/input/*.jar 2>/dev/null | tail -1)"
for m in ${deps//,/ }; do
  # Library modules (jackson, jgrapht, ...) stay on the class path; only JDK and JavaFX modules go in.
  if grep -qx "$m" <<<"$jdk_modules" || [[ " ${fx_names[*]} " == *" $m "* ]]; then want="$want"$'\n'"$m"; fi
done
# jdeps cannot see service providers: jdk.zipfs serves FileSystems.newFileSystem on a jar (the
# usual way to list resources such as the shipped examples inside the app jar).
want="$want"$'\n'"jdk.zipfs"
modules="$(sort -u <<<"$want" | grep -v '^$' | paste -sd, -)"
t_jdeps=$(( $(now) - t1 ))

# 4. jlink: the trimmed runtime.
t1=$(now)
runtime="$out/runtime"
rm -rf "$runtime"
"$jdk_bin/jlink" --module-path "$jdk_mods$fx_mods" --add-modules "$modules" \
  --strip-debug --no-header-files --no-man-pages --strip-native-commands --compress=zip-0 \
  --output "$runtime" || {
  [ -n "$jdk_mods" ] || echo "build.sh: $JAVA_HOME has no jmods/ and jlink could not link from the run-time image; use a JDK with jmods" >&2
  exit 2; }
t_jlink=$(( $(now) - t1 ))

# 5. jpackage app-image. The main launcher FabricLab is the editor: jpackage attaches file
#    associations and the desktop entry to the main launcher only. The added launcher is the CLI.
case "$os" in
  linux) icon="$root/installers/icons/fabriclab-256.png"; cli_name=fabriclab ;;
  win) icon="$root/installers/icons/fabriclab.ico"; cli_name=fabriclab-cli ;;   # names are case-insensitive there
  mac) icon="$root/installers/icons/fabriclab.icns"; cli_name=fabriclab-cli ;;
esac
# The collectors (tools/jvm-opts.sh says why, docs/performance.md has the figures): the editor
# (the main launcher) runs the Z collector (ui.EditorHeap sets its soft heap size), whose pauses stay under 1 ms
# where the serial collector's stopped the window for 100-500 ms with a large fabric open; the CLI
# launcher runs the serial collector, chosen by measurement for one- and two-core runs, and is the
# only one given the start-up cache (made with the serial collector's compressed pointers, which
# ZGC does not have). MetaspaceSize 128 MB: the editor's 36 MB of class metadata passed the default
# first threshold (about 21 MB), and each threshold passed starts a whole-heap collection.
# Software rendering: works on every desktop, VM, remote X and Xvfb; the editor draws one 2D canvas.
# The exports let ControlsFX (class path) reach the JavaFX internals it uses, now that JavaFX is a
# set of named modules in the runtime.
# --enable-native-access: JavaFX's natives are loaded by named modules here; ALL-UNNAMED keeps
# Java 24+ quiet for the class-path jars too.
editor_gc=(-XX:+UseZGC -XX:MetaspaceSize=128m)
cli_gc=(-XX:+UseSerialGC -XX:MetaspaceSize=128m)
java_opts=(-Dprism.order=sw --enable-native-access=javafx.graphics,ALL-UNNAMED
  --add-exports=javafx.base/com.sun.javafx.event=ALL-UNNAMED
  --add-exports=javafx.controls/com.sun.javafx.scene.control=ALL-UNNAMED
  --add-exports=javafx.controls/com.sun.javafx.scene.control.behavior=ALL-UNNAMED
  --add-exports=javafx.controls/com.sun.javafx.scene.control.inputmap=ALL-UNNAMED
  --add-exports=javafx.graphics/com.sun.javafx.scene=ALL-UNNAMED
  --add-exports=javafx.graphics/com.sun.javafx.scene.traversal=ALL-UNNAMED
  --add-exports=javafx.graphics/com.sun.javafx.css=ALL-UNNAMED
  --add-opens=javafx.controls/javafx.scene.control.skin=ALL-UNNAMED)
cli_props="$out/jpackage/cli-launcher.properties"
{
  echo "# The command line: \`$cli_name --help\`; \`$cli_name gui\` opens the editor too."
  echo "main-class=io.fabriclab.FabricLab"
  echo "win-console=true"
  echo "java-options=${cli_gc[*]} ${java_opts[*]}"
  # An empty icon is jpackage's "no icon": on Linux a launcher with an icon gets a menu entry.
  if [ "$os" = linux ]; then echo "icon="; fi
} > "$cli_props"
common=(--name "$APP_NAME" --app-version "$pkg_version" --vendor "$APP_VENDOR"
  --description "$APP_DESCRIPTION" --copyright "$APP_COPYRIGHT" --icon "$icon")
t1=$(now)
image_dest="$out/image"
rm -rf "$image_dest"
jopts=()
for o in "${editor_gc[@]}" "${java_opts[@]}"; do jopts+=(--java-options "$o"); done
mac_opts=()
if [ "$os" = mac ]; then mac_opts=(--mac-package-identifier "$APP_ID" --mac-package-name "$APP_NAME"); fi
app=("${common[@]}" --input "$out/input" --main-jar fabriclab.jar --main-class io.fabriclab.ui.Launcher
  "${jopts[@]}" --runtime-image "$runtime" --add-launcher "$cli_name=$cli_props")
"$jdk_bin/jpackage" --type app-image --dest "$image_dest" "${app[@]}" ${mac_opts[@]+"${mac_opts[@]}"}
t_image=$(( $(now) - t1 ))
app_image="$(find "$image_dest" -mindepth 1 -maxdepth 1 | head -1)"

# 5b. Start-up cache of the app-image (JDK 25 AOT cache, JEP 483/514/515; docs/performance.md): a
#     training run of the image's own CLI launcher (its jlinked runtime, its class path) on the
#     k=8 fat-tree permutation, then the cache is made and both launchers are given it. Two steps
#     (record, create) through JAVA_TOOL_OPTIONS: the one-step -XX:AOTCacheOutput starts bin/java,
#     which jlink --strip-native-commands left out. FABRICLAB_AOT=0 skips it. The cache is the
#     app-image's: the installable packages below are built from the inputs and do not carry it
#     (the .deb makes its own when installed, step 5c; .rpm, .msi, .exe, .dmg, .pkg have none).
t_aot=0
case "$os" in
  linux) app_dir="$app_image/lib/app"; cli_bin="$app_image/bin/$cli_name" ;;
  win) app_dir="$app_image/app"; cli_bin="$app_image/$cli_name.exe" ;;
  mac) app_dir="$app_image/Contents/app"; cli_bin="$app_image/Contents/MacOS/$cli_name" ;;
esac
if [ "${FABRICLAB_AOT:-1}" != 0 ] && [ "$type" = app-image ]; then
  t1=$(now)
  aot_work="$out/aot-training"
  rm -rf "$aot_work" && mkdir -p "$aot_work"
  # Training through the CLI launcher, with its serial collector: the cache is made for it, and
  # only the CLI launcher's .cfg is given it (the editor's ZGC cannot map it).
  JAVA_TOOL_OPTIONS="-XX:AOTMode=record -XX:AOTConfiguration=$aot_work/fabriclab.aotconf" \
    "$cli_bin" simulate "$root/resources/scenarios/bench-fattree-k8-permutation.json" \
    -o "$aot_work/results.json" --quiet >"$aot_work/record.log" 2>&1 || {
      echo "build.sh: AOT training run failed (see $aot_work/record.log)" >&2; exit 2; }
  JAVA_TOOL_OPTIONS="-XX:AOTMode=create -XX:AOTConfiguration=$aot_work/fabriclab.aotconf -XX:AOTCache=$app_dir/fabriclab.aot" \
    "$cli_bin" --version >"$aot_work/create.log" 2>&1 || true
  [ -s "$app_dir/fabriclab.aot" ] || { echo "build.sh: no AOT cache made (see $aot_work/create.log)" >&2; exit 2; }
  cfg="$app_dir/$cli_name.cfg"
  [ -f "$cfg" ] || { echo "build.sh: no $cfg to give the start-up cache to" >&2; exit 2; }
  # jpackage expands $APPDIR to the app folder wherever the app is installed.
  awk '{print} /^\[JavaOptions\]/{print "java-options=-XX:AOTCache=$APPDIR/fabriclab.aot"}' "$cfg" >"$cfg.new"
  mv "$cfg.new" "$cfg"
  t_aot=$(( $(now) - t1 ))
fi

# 5c. The .deb makes its start-up cache when it is installed (installers/linux/postinst): the JVM
#     takes a cache only for the jar file it was made from, and the package's jar is a new copy.
#     Its training run needs a scenario and its fabric as files: they go in lib/app/aot-training.
if [ "$type" = deb ] && [ "${FABRICLAB_AOT:-1}" != 0 ]; then
  mkdir -p "$out/input/aot-training/scenarios" "$out/input/aot-training/examples"
  cp "$root/resources/scenarios/bench-fattree-k8-permutation.json" "$out/input/aot-training/scenarios/"
  cp "$root/resources/examples/fat-tree-k8-bench.json" "$out/input/aot-training/examples/"
fi

# 6. The installable package, from the same inputs (not from the image: a package built with
#    --app-image gives every added launcher the main launcher's icon, hence a menu entry).
t_pkg=0
package=""
if [ "$type" != app-image ]; then
  t1=$(now)
  dist="$out/dist"
  rm -rf "$dist"
  assoc=(--file-associations "$out/jpackage/fabric-file.properties"
    --file-associations "$out/jpackage/scenario-file.properties")
  case "$os" in
    # No --linux-shortcut: it would give the CLI a menu entry too; the file associations already
    # give the editor its desktop entry.
    linux) platform=(--linux-package-name fabriclab --linux-menu-group "Development;Engineering;"
        --linux-app-category devel --linux-deb-maintainer "$APP_MAINTAINER"
        --linux-package-deps libgtk-3-0 --resource-dir "$root/installers/linux") ;;
    win) platform=(--win-menu --win-menu-group "$APP_NAME" --win-shortcut --win-dir-chooser
        --win-upgrade-uuid "$WIN_UPGRADE_UUID") ;;
    mac) platform=(--mac-package-identifier "$APP_ID" --mac-package-name "$APP_NAME") ;;
  esac
  "$jdk_bin/jpackage" ${FABRICLAB_JPACKAGE_VERBOSE:+--verbose} --type "$type" --dest "$dist" "${app[@]}" \
    "${assoc[@]}" "${platform[@]}"
  t_pkg=$(( $(now) - t1 ))
  package="$(find "$dist" -mindepth 1 -maxdepth 1 | head -1)"
fi

kb() { du -sk "$1" | cut -f1; }
{
  echo "FabricLab $APP_VERSION ($type on $os, JDK $("$jdk_bin/java" -version 2>&1 | head -1 | sed 's/.*"\(.*\)".*/\1/'))"
  echo "jlink modules ($(tr ',' '\n' <<<"$modules" | wc -l | tr -d ' ')): $modules"
  echo "runtime holds $(sed -n 's/^MODULES="\(.*\)"/\1/p' "$runtime/release" | wc -w | tr -d ' ') modules: $(sed -n 's/^MODULES="\(.*\)"/\1/p' "$runtime/release")"
  echo "runtime image: $(kb "$runtime") KB"
  echo "app image:     $(kb "$app_image") KB  ($app_image)"
  [ -n "$package" ] && echo "package:       $(kb "$package") KB  ($package)"
  echo "times (s): maven $t_maven, jdeps $t_jdeps, jlink $t_jlink, app-image $t_image, AOT cache $t_aot, package $t_pkg, total $(( $(now) - t0 ))"
} | tee "$report"
