# run-files.sh: sourced by the long-run drivers in scripts/ (solve-opening,
# solve-search, variants-long; not run on its own). What they share about a
# run's files: reading `ocsolve jobs` output, snapshotting a store and its
# journal for a commit, and naming a certificate folder by one sha256.

# out_val FILE PREFIX: the rest of FILE's first line that starts with PREFIX
# (`ocsolve jobs` prints "seconds: 12.3", "root pn 5 dn 7", ...).
out_val() { sed -n "s/^$2//p" "$1" | head -1; }

# store_snapshot BIN STORE DEST JOURNALS: a compact, consistent copy of the
# LMDB store folder STORE into the folder DEST (`ocsolve store snapshot`),
# and STORE's journal files into the folder JOURNALS, each written beside
# and renamed into place, so that a copy stopped halfway is never taken for
# a journal. A store with no data yet is nothing to copy (status 0).
store_snapshot() {
    local bin=$1 store=$2 dest=$3 journals=$4 j
    [ -s "$store/data.mdb" ] || return 0
    mkdir -p "$dest" "$journals" || return 1
    "$bin" store snapshot "$store" "$dest" >/dev/null || return 1
    for j in "$store"/journal*; do
        [ -s "$j" ] || continue
        cp "$j" "$journals/journal.tmp" && mv "$journals/journal.tmp" "$journals/${j##*/}" || return 1
    done
    return 0
}

# certs_manifest DIR: the sha256 of the sorted list of "sha256  ./name" of
# DIR's certificate files (a whole certificate folder named by one hash).
certs_manifest() {
    (cd "$1" && find . -name '*.ocproof' -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

# The shell command certs_manifest runs, for the reports that print it.
certs_manifest_cmd() { echo "cd $1 && find . -name '*.ocproof' -print0 | sort -z | xargs -0 sha256sum | sha256sum"; }
