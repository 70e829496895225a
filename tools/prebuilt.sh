#!/usr/bin/env bash
# A lean build (kforge and its worker module) carried from one device call to the next, so a call
# that runs no test skips the 80-120 s build on a fresh machine. The device tool brings back what
# `save` writes under $OUT; copied to .prebuilt/ (gitignored) and carried, it is used only where it
# was built from these very native sources (their hash), else the call builds as before. The
# worker's Python files are not part of it: they are copied from the tree, as the build does.
#   tools/prebuilt.sh hash           the native sources' hash (src/, the build files, the deps script)
#   tools/prebuilt.sh save DIR       copy build/release's kforge and worker module to DIR, with the hash
#   tools/prebuilt.sh restore        install .prebuilt/ into build/release; status 1 where it does not match
set -euo pipefail
cd "$(dirname "$0")/.."

source_hash() {
  find src CMakeLists.txt CMakePresets.json Makefile tools/fetch-deps.sh -type f \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16
}

case "${1:-}" in
  hash) source_hash ;;
  save)
    dir="${2:?usage: tools/prebuilt.sh save DIR}"
    modules=(build/release/python/_kforge_worker*.so)
    [[ -x build/release/kforge && -f "${modules[0]}" ]] || { echo "prebuilt: no build/release to save" >&2; exit 1; }
    rm -rf "$dir" && mkdir -p "$dir"
    cp build/release/kforge "${modules[@]}" "$dir/"
    source_hash >"$dir/source-hash"
    ;;
  restore)
    modules=(.prebuilt/_kforge_worker*.so)
    [[ -f .prebuilt/source-hash && -f .prebuilt/kforge && -f "${modules[0]}" ]] || { echo "prebuilt: none in .prebuilt/" >&2; exit 1; }
    want="$(source_hash)"
    have="$(cat .prebuilt/source-hash)"
    [[ "$have" == "$want" ]] || { echo "prebuilt: built from other sources ($have, these are $want)" >&2; exit 1; }
    mkdir -p build/release/python
    cp .prebuilt/kforge build/release/kforge
    cp "${modules[@]}" build/release/python/
    cp python/*.py build/release/python/  # the worker's Python files, from this tree
    chmod u+wx build/release/kforge  # the device tool brings files back read-only, modes not kept
    echo "prebuilt: installed (sources $want)"
    ;;
  *) echo "usage: tools/prebuilt.sh hash | save DIR | restore" >&2; exit 2 ;;
esac
