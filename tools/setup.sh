#!/usr/bin/env bash
# Installs only what is missing, quietly when nothing is: the Debian -dev packages the build
# finds with find_package/pkg-config, and a Python that imports torch (the project venv if no
# other is found). On a machine without a package registry, unpack the packages into .deps/
# with tools/fetch-deps.sh on a machine that has one, and carry the folder over.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/python-pin.sh

# name of the Debian package : a file it provides (looked for under / and under .deps/prefix)
required=(
  "cmake:/usr/bin/cmake"
  "ninja-build:/usr/bin/ninja"
  "g++:/usr/bin/g++"
  "libsqlite3-dev:/usr/include/sqlite3.h"
  "libcli11-dev:/usr/include/CLI/CLI.hpp"
  "nlohmann-json3-dev:/usr/include/nlohmann/json.hpp"
  "libfmt-dev:/usr/include/fmt/format.h"
  "libgtest-dev:/usr/include/gtest/gtest.h"
  "libcpp-httplib-dev:/usr/include/httplib.h"
  "libtomlplusplus-dev:/usr/include/toml++/toml.h"
  "python3-dev:/usr/include/python3"
  "python3-venv:/usr/lib/python3/dist-packages"
)

have() {  # a file from the system or the carried prefix; also any command of that name on PATH
  local path="$1"
  [[ -e "$path" || -e ".deps/prefix$path" ]] && return 0
  [[ "$path" == /usr/bin/* ]] && command -v "$(basename "$path")" >/dev/null 2>&1 && return 0
  [[ "$path" == /usr/include/python3 ]] && compgen -G "/usr/include/python3*/Python.h" >/dev/null && return 0
  return 1
}

missing=()
for entry in "${required[@]}"; do
  pkg="${entry%%:*}"; file="${entry#*:}"
  # cmake and ninja may come from pip (as on the GPU machine): any on PATH will do.
  have "$file" || missing+=("$pkg")
done

python_found=""
python_found="$(tools/find-python.sh 2>/dev/null)" || python_found=""
# python3-dev / -venv matter only when we must build the venv ourselves or the found Python has
# no headers; a Python that imports torch and has headers needs neither.
if [[ -n "$python_found" ]] && "$python_found" -c \
    'import sysconfig,os,sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"],"Python.h")) else 1)'; then
  missing=("${missing[@]/python3-dev}"); missing=("${missing[@]/python3-venv}")
fi
missing=($(printf '%s\n' "${missing[@]}" | sed '/^$/d'))

if ((${#missing[@]})); then
  if command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    log=$(mktemp)
    apt_install() { "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >>"$log" 2>&1; }
    apt_install || { "${sudo_cmd[@]}" apt-get update -qq >>"$log" 2>&1 && apt_install; } || {
      cat "$log" >&2; rm -f "$log"; echo "setup: apt-get could not install ${missing[*]}" >&2; exit 1; }
    rm -f "$log"
  else
    echo "setup: missing ${missing[*]} and no apt-get here; see tools/fetch-deps.sh" >&2
    exit 1
  fi
fi

# Optional: programs only some tests need, installed through apt-get where it can be, never
# asking for a password: a headless browser for the test that renders `kforge report --html`'s
# page (tests/integration/cpu_html_report_test.cpp), and Slurm with munge for the test that runs
# a study on a real Slurm on loopback (tests/integration/cpu_slurm_test.cpp). Where they cannot be
# installed (the GPU machine has no package registry and gets the packages above from .deps/,
# which carries neither), setup goes on and those tests skip. Not tried at all where .deps/ is
# carried: there apt-get has no registry to reach, and every build would wait on it.
optional_install() {  # optional_install WHAT PACKAGE...: installs the packages or says why not
  local what="$1"; shift
  local sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo -n)
  local log; log=$(mktemp)
  echo "setup: installing $* (optional: $what)"
  local install=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@")
  "${install[@]}" >>"$log" 2>&1 || { "${sudo_cmd[@]}" apt-get update -qq >>"$log" 2>&1 && "${install[@]}" >>"$log" 2>&1; } || {
    tail -n 5 "$log" >&2
    echo "setup: $* could not be installed; the tests that need them will skip" >&2; }
  rm -f "$log"
}
if command -v apt-get >/dev/null 2>&1 && [[ ! -d .deps ]]; then
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
    optional_install "renders the HTML report in a test" chromium
  command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && command -v sbatch >/dev/null 2>&1 &&
    command -v munged >/dev/null 2>&1 ||
    optional_install "a real Slurm on loopback for kforge slurm's test" slurmctld slurmd slurm-client munge
fi

if [[ -z "$python_found" ]]; then
  echo "setup: creating $KFORGE_VENV with torch==$KFORGE_TORCH_VERSION (several GB, once)"
  mkdir -p "$(dirname "$KFORGE_VENV")"
  python3 -m venv "$KFORGE_VENV"
  "$KFORGE_VENV/bin/python" -m pip install -q --upgrade pip
  "$KFORGE_VENV/bin/python" -m pip install -q "torch==$KFORGE_TORCH_VERSION" numpy
  tools/find-python.sh >/dev/null || { echo "setup: the venv does not import torch" >&2; exit 1; }
fi
