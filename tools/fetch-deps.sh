#!/usr/bin/env bash
# For a machine that cannot reach a package registry (the GPU machine): run this where apt-get
# works; it downloads the Debian packages the build needs and unpacks them into .deps/prefix,
# which CMakeLists.txt adds to its search path. Carry .deps/ to the other machine.
set -euo pipefail
cd "$(dirname "$0")/.."
# cpp-httplib's header includes OpenSSL's, zlib's and brotli's: their -dev packages come too.
packages=(libsqlite3-dev libsqlite3-0 libcli11-dev libfmt-dev libfmt9 libgtest-dev nlohmann-json3-dev
          libcpp-httplib-dev libcpp-httplib0.11 libssl-dev zlib1g-dev libbrotli-dev libbrotli1
          libtomlplusplus-dev libtomlplusplus3
          strace libunwind8)  # strace: tools/gpu-check.sh's profile step, where the machine has none
mkdir -p .deps/debs .deps/prefix
(cd .deps/debs && apt-get download "${packages[@]}" >/dev/null)
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps/prefix; done
echo "fetch-deps: unpacked ${#packages[@]} packages into .deps/prefix"
