#!/usr/bin/env bash
# A lean build (kforge and its worker module) carried from one device call to the next, so a call
# that runs no test skips the 80-120 s build on a fresh machine. The device tool brings back one
# archive that `save` writes under $OUT; put in .prebuilt/ (gitignored) and carried, it is used
# only where it was built from these very native sources (their hash), else the call builds as
# before. The worker's Python files are not part of it: they are copied from the tree, as the
# build does.
#   tools/prebuilt.sh hash            the native sources' hash (src/, the build files, the deps script)
#   tools/prebuilt.sh save ARCHIVE    build/release's kforge and worker module, with the hash, as one .tar.gz
#   tools/prebuilt.sh restore         install .prebuilt/prebuilt.tar.gz into build/release; status 1 where it does not match
set -euo pipefail
cd "$(dirname "$0")/.."
archive_in=.prebuilt/prebuilt.tar.gz

source_hash() {
  find src CMakeLists.txt CMakePresets.json Makefile tools/fetch-deps.sh -type f \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16
}

case "${1:-}" in
  hash) source_hash ;;
  save)
    archive="${2:?usage: tools/prebuilt.sh save ARCHIVE}"
    modules=(build/release/python/_kforge_worker*.so)
    [[ -x build/release/kforge && -f "${modules[0]}" ]] || { echo "prebuilt: no build/release to save" >&2; exit 1; }
    staging=$(mktemp -d)
    trap 'rm -rf "$staging"' EXIT
    cp build/release/kforge "${modules[@]}" "$staging/"
    source_hash >"$staging/source-hash"
    mkdir -p "$(dirname "$archive")"
    tar czf "$archive" -C "$staging" .
    ;;
  restore)
    [[ -f "$archive_in" ]] || { echo "prebuilt: no $archive_in" >&2; exit 1; }
    staging=$(mktemp -d)
    trap 'rm -rf "$staging"' EXIT
    tar xzf "$archive_in" -C "$staging"
    modules=("$staging"/_kforge_worker*.so)
    [[ -f "$staging/source-hash" && -f "$staging/kforge" && -f "${modules[0]}" ]] || { echo "prebuilt: $archive_in is incomplete" >&2; exit 1; }
    want="$(source_hash)"
    have="$(cat "$staging/source-hash")"
    [[ "$have" == "$want" ]] || { echo "prebuilt: built from other sources ($have, these are $want)" >&2; exit 1; }
    mkdir -p build/release/python
    cp "$staging/kforge" build/release/kforge
    cp "${modules[@]}" build/release/python/
    cp python/*.py build/release/python/  # the worker's Python files, from this tree
    chmod u+wx build/release/kforge
    echo "prebuilt: installed (sources $want)"
    ;;
  *) echo "usage: tools/prebuilt.sh hash | save ARCHIVE | restore" >&2; exit 2 ;;
esac
