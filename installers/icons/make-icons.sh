#!/usr/bin/env bash
# Renders fabriclab.svg into the icon files jpackage takes per platform. The outputs are committed,
# so a build needs none of these tools; rerun after editing the SVG.
#   apt-get install -y librsvg2-bin imagemagick icnsutils
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for s in 16 24 32 48 64 128 256 512; do
  rsvg-convert -w "$s" -h "$s" fabriclab.svg -o "$tmp/$s.png"
done
cp "$tmp/256.png" fabriclab-256.png          # Linux launcher / .desktop icon
cp "$tmp/512.png" fabriclab-512.png          # README, stores
# Windows .ico: several sizes so Explorer and the task bar stay sharp.
/usr/bin/convert "$tmp"/{16,24,32,48,64,128,256}.png fabriclab.ico
# macOS .icns (png2icns takes the sizes it knows: 16, 32, 48, 128, 256, 512).
png2icns fabriclab.icns "$tmp"/{16,32,48,128,256,512}.png >/dev/null
ls -l fabriclab-256.png fabriclab-512.png fabriclab.ico fabriclab.icns
