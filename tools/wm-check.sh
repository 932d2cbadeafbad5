#!/usr/bin/env bash
# Starts the real editor on a virtual desktop (Xvfb) under a real window manager (Openbox) and
# checks from outside, with xdotool and wmctrl, that its windows open at their intended size:
#   1. the main window at the editor's scene size (1500x920, or the screen less a frame on a
#      smaller screen: FabricLabApp.initialWidth/initialHeight);
#   2. maximised, it fills the screen;
#   3. File > New from Template (Ctrl+N) opens at least at its content's size (520 px wide);
#   4. opening that dialog leaves the maximised main window as it was.
# Run at 1600x1000 and 1280x800. The headless UI tests (Monocle) have no window manager and cannot
# see this: with JavaFX 21 every window opened at 200x200 here (JDK-8316423, JDK-8310885).
#
#   tools/wm-check.sh                         the app as ./fabriclab gui starts it
#   FABRICLAB_WM_CHECK_CMD='cmd args' tools/wm-check.sh   another launcher (e.g. the app-image's)
#   FABRICLAB_WM_CHECK_SHOTS=DIR              also save a screenshot of each step there (needs
#                                             ImageMagick's import)
# Needs Xvfb, openbox, xdotool, wmctrl and GTK 3 (.ci/run installs them). Exit 0 = all sizes right.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
for tool in Xvfb openbox xdotool wmctrl; do
  command -v $tool >/dev/null 2>&1 || { echo "wm-check: $tool missing (Debian: apt-get install xvfb openbox xdotool wmctrl)" >&2; exit 2; }
done
cmd="${FABRICLAB_WM_CHECK_CMD:-$root/fabriclab gui}"
shots="${FABRICLAB_WM_CHECK_SHOTS:-}"
[ -z "$shots" ] || mkdir -p "$shots"
# Build before the clock starts (the launcher builds on first use).
[ -n "${FABRICLAB_WM_CHECK_CMD:-}" ] || "$root/fabriclab" --version >/dev/null

say() { echo "wm-check: $*"; }
failures=0
fail() { echo "wm-check: FAIL: $*" >&2; failures=$((failures + 1)); }
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap cleanup EXIT

# A free display number: no X socket or lock file for it.
free_display() {
  local n
  for n in $(seq 90 140); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { echo "$n"; return; }
  done
  return 1
}

# Width and height of window $1, as "W H".
geometry() { xdotool getwindowgeometry "$1" | sed -n 's/.*Geometry: \([0-9]*\)x\([0-9]*\).*/\1 \2/p'; }

# The first visible window whose title matches $1, waiting up to $2 seconds.
wait_window() {
  local i w
  for ((i = 0; i < $2; i++)); do
    w="$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1 || true)"
    if [ -n "$w" ]; then echo "$w"; return 0; fi
    sleep 1
  done
  return 1
}

# Waits until window $1 has size $2 x $3 (within 4 px) for up to $4 seconds: the window manager
# and the toolkit settle a size over a few round trips.
wait_size() {
  local i g
  for ((i = 0; i < $4; i++)); do
    g="$(geometry "$1")"
    if [ -n "$g" ]; then
      set -- "$1" "$2" "$3" "$4" $g
      if [ $(( $5 > $2 ? $5 - $2 : $2 - $5 )) -le 4 ] && [ $(( $6 > $3 ? $6 - $3 : $3 - $6 )) -le 4 ]; then return 0; fi
      set -- "$1" "$2" "$3" "$4"
    fi
    sleep 1
  done
  return 1
}

shot() { [ -z "$shots" ] || { sleep "${2:-0}"; import -window root "$shots/$1.png" 2>/dev/null || true; }; }

check_screen() {
  local sw="$1" sh="$2" n xvfb wm app main dialog g w h mw mh
  n="$(free_display)" || { fail "no free X display number"; return; }
  Xvfb ":$n" -screen 0 "${sw}x${sh}x24" -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!; pids+=("$xvfb")
  export DISPLAY=":$n"
  for _ in $(seq 1 150); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.2; done
  xdotool getdisplaygeometry >/dev/null 2>&1 || { fail "${sw}x${sh}: Xvfb :$n did not start"; cleanup; return; }
  openbox >"$log_dir/openbox-${sw}x${sh}.log" 2>&1 &
  wm=$!; pids+=("$wm")
  for _ in $(seq 1 150); do wmctrl -m >/dev/null 2>&1 && break; sleep 0.2; done
  wmctrl -m >/dev/null 2>&1 || { fail "${sw}x${sh}: Openbox did not start (log: $log_dir/openbox-${sw}x${sh}.log)"; cleanup; return; }
  # Software rendering, as the installers start the app: Xvfb has no GPU.
  FABRICLAB_JAVA_OPTS="-Dprism.order=sw ${FABRICLAB_JAVA_OPTS:-}" $cmd >"$log_dir/app-${sw}x${sh}.log" 2>&1 &
  app=$!; pids+=("$app")

  # 1. The main window at the scene size: 1500x920, or the screen less a frame of 32x64.
  mw=$(( sw - 32 < 1500 ? sw - 32 : 1500 )); mh=$(( sh - 64 < 920 ? sh - 64 : 920 ))
  if ! main="$(wait_window '^FabricLab' 180)"; then
    fail "${sw}x${sh}: no main window within 180 s (log: $log_dir/app-${sw}x${sh}.log)"; cleanup; return
  fi
  # On a screen smaller than 1532x984 the toolkit or the window manager may fit the window to the
  # screen instead: then anything between the intended size and the screen is right.
  if wait_size "$main" "$mw" "$mh" 30; then
    say "${sw}x${sh}: main window $(geometry "$main" | tr ' ' x), intended ${mw}x${mh}: ok"
  else
    read -r w h <<<"$(geometry "$main")"
    if [ "$mw" -lt 1500 ] && [ "$w" -ge $((mw - 4)) ] && [ "$w" -le "$sw" ] && [ "$h" -ge $((mh - 4)) ] && [ "$h" -le "$sh" ]; then
      say "${sw}x${sh}: main window ${w}x${h}, intended ${mw}x${mh}, fitted to the ${sw}x${sh} screen: ok"
    else
      fail "${sw}x${sh}: main window is ${w}x${h}, intended ${mw}x${mh}"
    fi
  fi
  shot "wm-${sw}x${sh}-main" 8   # after the first frames are drawn

  # 2. Maximised (EWMH, as a user's double click on the title bar asks): fills the screen less the
  #    title bar and borders Openbox draws.
  wmctrl -i -r "$main" -b add,maximized_vert,maximized_horz
  sleep 2
  read -r w h <<<"$(geometry "$main")"
  if [ "$w" -ge $((sw - 16)) ] && [ "$h" -ge $((sh - 64)) ]; then
    say "${sw}x${sh}: maximised main window ${w}x${h}: ok"
  else
    fail "${sw}x${sh}: maximised main window is ${w}x${h} on a ${sw}x${sh} screen"
  fi
  local maxw="$w" maxh="$h"

  # 3. New from Template: Ctrl+N in the focused editor.
  xdotool windowactivate --sync "$main" >/dev/null 2>&1 || true
  xdotool mousemove --window "$main" $((w / 2)) $((h - 12)) click 1   # the status bar: selects nothing
  sleep 1
  xdotool key ctrl+n
  if ! dialog="$(wait_window '^New from template$' 60)"; then
    fail "${sw}x${sh}: Ctrl+N opened no New from Template window within 60 s"; shot "wm-${sw}x${sh}-template"; cleanup; return
  fi
  # Its content is 520 px wide (TemplateDialog) plus padding; the generator tabs and preview are
  # over 400 px high. The window manager maps it first and frames it over a few round trips: wait
  # up to 30 s for the size to reach that.
  for _ in $(seq 1 30); do
    read -r w h <<<"$(geometry "$dialog")"
    [ "$w" -ge 520 ] && [ "$h" -ge 400 ] && break
    sleep 1
  done
  if [ "$w" -ge 520 ] && [ "$h" -ge 400 ] && [ "$w" -le "$sw" ] && [ "$h" -le "$sh" ]; then
    say "${sw}x${sh}: New from Template ${w}x${h}: ok"
  else
    fail "${sw}x${sh}: New from Template opened at ${w}x${h}, intended at least 520x400"
  fi
  shot "wm-${sw}x${sh}-template"

  # 4. The maximised main window kept its size while the dialog opened.
  read -r w h <<<"$(geometry "$main")"
  if [ "$w" -eq "$maxw" ] && [ "$h" -eq "$maxh" ]; then
    say "${sw}x${sh}: main window still ${w}x${h} with the dialog open: ok"
  else
    fail "${sw}x${sh}: opening New from Template changed the maximised main window from ${maxw}x${maxh} to ${w}x${h}"
  fi
  cleanup
}

log_dir="$(mktemp -d)"
for screen in 1600x1000 1280x800; do
  check_screen "${screen%x*}" "${screen#*x}"
done
if [ "$failures" -gt 0 ]; then
  say "$failures check(s) failed; app logs in $log_dir"
  exit 1
fi
rm -rf "$log_dir"
say "OK: the editor and New from Template open at their intended size under Openbox at 1600x1000 and 1280x800"
