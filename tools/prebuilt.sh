#!/usr/bin/env bash
# A lean build (kforge and its worker module) carried from one device call to the next, so a call
# that runs no test skips the 80-120 s build on a fresh machine. The device tool brings back what
# `save` writes under $OUT; copied to .prebuilt/ (gitignored) and carried, it is used only where it
# was built from these very sources (their hash), else the call builds as before.
#   tools/prebuilt.sh hash           the sources' hash (src/, python/, the build files, the deps script)
#   tools/prebuilt.sh save DIR       copy build/release's kforge and python/ to DIR, with the hash
#   tools/prebuilt.sh restore        install .prebuilt/ into build/release; status 1 where it does not match
set -euo pipefail
cd "$(dirname "$0")/.."

source_hash() {
  find src python CMakeLists.txt CMakePresets.json Makefile tools/fetch-deps.sh -type f ! -path '*/__pycache__/*' \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16
}

case "${1:-}" in
  hash) source_hash ;;
  save)
    dir="${2:?usage: tools/prebuilt.sh save DIR}"
    [[ -x build/release/kforge && -d build/release/python ]] || { echo "prebuilt: no build/release to save" >&2; exit 1; }
    rm -rf "$dir" && mkdir -p "$dir"
    cp build/release/kforge "$dir/kforge"
    cp -r build/release/python "$dir/python"
    rm -rf "$dir/python/__pycache__"
    source_hash >"$dir/source-hash"
    ;;
  restore)
    [[ -f .prebuilt/source-hash && -f .prebuilt/kforge && -d .prebuilt/python ]] || { echo "prebuilt: none in .prebuilt/" >&2; exit 1; }
    want="$(source_hash)"
    have="$(cat .prebuilt/source-hash)"
    [[ "$have" == "$want" ]] || { echo "prebuilt: built from other sources ($have, these are $want)" >&2; exit 1; }
    mkdir -p build/release
    rm -rf build/release/python
    cp .prebuilt/kforge build/release/kforge
    cp -r .prebuilt/python build/release/python
    chmod +x build/release/kforge  # the device tool brings files back read-only, modes not kept
    chmod -R u+w build/release/python
    echo "prebuilt: installed (sources $want)"
    ;;
  *) echo "usage: tools/prebuilt.sh hash | save DIR | restore" >&2; exit 2 ;;
esac
