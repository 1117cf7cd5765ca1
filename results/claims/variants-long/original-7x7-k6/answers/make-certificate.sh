#!/usr/bin/env bash
# make-certificate.sh WORK: makes the 7x7 k=6 `original` certificate (the
# empty board, a Chaos win) from the stores committed here, in the folder
# WORK (about 16.5 GB; hours on two cores), and checks it. What it ran as
# on 2026-12-05/06: README.md here. Safe to stop and run again: every
# finished file is kept, a run again makes only the rest.
#
#   1. the three edge answers' own stores (b1/, d1/) and a copy of the
#      board's store for X c1 O d4, each run to its end: the store decides
#      its root at once, and the end phase makes its files (--certs-later,
#      split one ply where a job root's proof is long: --regen-split 1);
#   2. the board's store (../store): the root's proof, composed from the
#      records over the files above, and the other first moves' job roots
#      re-proved;
#   3. ocsolve verify, two threads.
# All runs write into one folder WORK/certs (files are named by position).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 WORK" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
bin=${OCSOLVE:-$here/../../../../../build/ocsolve}
work=$1
mkdir -p "$work/certs"
for d in b1 d1; do
    [ -s "$work/$d/store/data.mdb" ] || { mkdir -p "$work/$d/store" && cp "$here/$d/store/data.mdb" "$here/$d/store/journal" "$work/$d/store/"; }
done
for d in c1 main; do
    [ -s "$work/$d/store/data.mdb" ] || { mkdir -p "$work/$d/store" && cp "$here/../store/data.mdb" "$here/../store/journal" "$work/$d/store/"; }
done
common=(--board 7 --k 6 --rules original --workers 2 --job-tt-mb 512 --job-nodes 50000 --job-nodes-max 102400000
    --expand-depth 2 --focus 3 --certs-later --regen-split 1 --progress-every 300 --certs "$work/certs")
run() { # FOLDER MOVES...
    local d=$1
    shift
    [ -s "$work/$d/top.ocproof" ] && return 0
    "$bin" jobs "${common[@]}" --store "$work/$d/store" --proof "$work/$d/top.ocproof" - "$@"
}
run b1 Ob1 Od4
run d1 Od1 Od4
run c1 Oc1
run main
"$bin" verify --threads 2 --winner chaos --max-bytes 8000000000 --max-lines 400000000 "$work/main/top.ocproof"
