# Sourced by the device scripts once ROOT and OUT are set: the bundle's programs (BIN) and
# their libraries, console output also into $OUT/summary.txt, and step headers.
BUNDLE="${BUNDLE:-$ROOT/.device}"
BIN="$BUNDLE/bin"
export LD_LIBRARY_PATH="$BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$OUT"
exec > >(tee "$OUT/summary.txt") 2>&1

step() { echo "== $1 ($(date -u +%T))"; }
