#pragma once
// Where a worker comes from: the Python interpreter and the folder holding the extension module.
#include <filesystem>

namespace kforge {

// $KFORGE_PYTHON if set, else the interpreter the extension was built against (recorded by CMake
// from tools/find-python.sh: $KFORGE_PYTHON, python3 if it imports torch, or the project venv).
std::filesystem::path worker_python();

// <folder of the kforge binary>/python, where the build puts kforge_worker.py and the module.
std::filesystem::path worker_module_dir();

// sha256 of the worker's extension module: the harness that judges is part of what a stored result
// depends on, so a rebuilt worker never reuses its predecessor's verdicts.
std::string worker_module_hash();

}  // namespace kforge
