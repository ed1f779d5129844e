#!/usr/bin/env bash
# bench/ab.sh: the same syncbench phases on an earlier commit ("base") and on this checkout
# ("new"), in turn, N times each, then the median of every figure on each side.
#
#   bench/ab.sh REV N [syncbench flags...]     e.g.  bench/ab.sh HEAD~3 3 -phases ingest
#
# Run it from the repository's root after `make deps` (and `make build` once, for bin/pgtmp). REV
# is checked out into a git worktree under ${TMPDIR:-/tmp}; its node_modules holds this checkout's
# packages except the workspace ones (@patrimonio/*), which point at the worktree's own, so that
# base's devices run base's clientdb (a plain symlink to this checkout's node_modules would run
# this checkout's). Each side builds its own syncbench, and syncbench builds its server from its
# own tree. Every BENCH line goes to stdout prefixed with its side and the time; the medians follow.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
rev=$1
runs=$2
shift 2
root=$(pwd)
[ -x "$root/bin/pgtmp" ] || { echo "ab.sh: bin/pgtmp is missing: run make build (or make bench) once" >&2; exit 2; }
[ -d "$root/node_modules" ] || { echo "ab.sh: node_modules is missing: run make deps" >&2; exit 2; }

commit=$(git rev-parse --verify "$rev^{commit}")
base="${TMPDIR:-/tmp}/patrimonio-ab-${commit:0:12}"
if [ ! -d "$base" ]; then
  git worktree add --detach -f "$base" "$commit" >/dev/null
fi
cleanup() { git worktree remove --force "$base" >/dev/null 2>&1 || true; }
trap cleanup EXIT

# base's node_modules: this checkout's packages, and base's own workspace packages.
rm -rf "$base/node_modules"
mkdir -p "$base/node_modules/@patrimonio"
for entry in "$root"/node_modules/* "$root"/node_modules/.bin; do
  name=$(basename "$entry")
  [ "$name" = "@patrimonio" ] && continue
  ln -s "$entry" "$base/node_modules/$name"
done
for link in "$root"/node_modules/@patrimonio/*; do
  name=$(basename "$link")
  target=$(readlink "$link")
  ln -s "$base/node_modules/@patrimonio/$target" "$base/node_modules/@patrimonio/$name"
done

(cd "$base" && go build -o bin/syncbench ./bench/cmd/syncbench)
go build -o bin/syncbench ./bench/cmd/syncbench
ulimit -n "$(ulimit -Hn)" || true

log=$(mktemp)
for i in $(seq 1 "$runs"); do
  for side in base new; do
    dir=$root
    [ "$side" = base ] && dir=$base
    out=$(mktemp)
    if ! (cd "$dir" && "$root/bin/pgtmp" -- bin/syncbench -out "$out" "$@" 2>&1) | grep '^BENCH ' | sed "s/^/$side $(date -u +%H:%M:%S) /" | tee -a "$log"; then
      echo "ab.sh: run $i on $side printed no figure" >&2
    fi
    rm -f "$out"
  done
done

echo
echo "medians of $runs runs each (base $rev = ${commit:0:12}, new = this checkout):"
printf "%-34s %14s %14s  %s\n" figure base new unit
awk '
  { side = $1; name = $4; value = $5; unit = $6
    key = name; units[key] = unit; seen[key] = 1
    n = ++count[side, key]; values[side, key, n] = value }
  function median(side, key,    n, i, j, t, a) {
    n = count[side, key]
    if (n == 0) return "-"
    for (i = 1; i <= n; i++) a[i] = values[side, key, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    for (key in seen) printf "%-34s %14s %14s  %s\n", key, median("base", key), median("new", key), units[key]
  }' "$log" | sort
rm -f "$log"
