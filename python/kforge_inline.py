"""`torch.utils.cpp_extension.load_inline`, built through kforge's build cache.

`install()` replaces load_inline in torch's module before a candidate is imported, so a
KernelBench candidate builds through kforge unchanged: `from torch.utils.cpp_extension import
load_inline` and `torch.utils.cpp_extension.load_inline(...)` both reach this one.

The sources and flags are the ones torch's load_inline would write and use (computed here with
torch's own helpers); the build itself is kforge's (`kforge build-inline`, src/build/inline_build.cpp),
run as a child process: a content-addressed
cache shared by every kforge process, the CUDA kernels compiled apart from torch's headers, and a
precompiled torch header for the host side. Calls this version cannot serve the same way (SYCL
sources, is_python_module=False, no_implicit_headers) go to torch's original.
"""
import importlib.util
import inspect
import json
import os
import shlex
import subprocess
import sysconfig

import torch
import torch.utils.cpp_extension as cpp_extension


_original_load_inline = cpp_extension.load_inline
_signature = inspect.signature(_original_load_inline)
_original_load = cpp_extension.load
_load_signature = inspect.signature(_original_load)

# The specs recorded instead of built (record_only): kforge's prebuild builds them itself.
recorded = []
_record_only = False


def record_only():
    """From now on, record each build's spec instead of asking for it, and give the candidate a
    module that raises when used: the prebuild's import (src/planner/inline_prebuild.cpp), which runs
    candidate code and so may not write kforge's build cache, leaves the builds to kforge."""
    global _record_only
    _record_only = True


class _RecordedExtension:
    """What load_inline gives back while the prebuild only records: using it ends the import,
    whatever it did not reach is built when the candidate is evaluated."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attribute):
        raise RuntimeError(f"kforge's prebuild records the build of '{self._name}' without building it")


def _as_list(value):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _shell_words(value):
    """Flags as torch's build has them: it writes each into a shell command line (ninja), where an
    empty one vanishes and one holding spaces splits ("-O3 -march=native"). KernelBench's worked
    example passes extra_cflags=[""] and extra_ldflags=[""], which models copy."""
    words = []
    for flag in _as_list(value):
        words += shlex.split(str(flag))
    return words


def _flags(name, extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths, with_cuda):
    """Host, nvcc and linker flags, as torch's ninja file for this extension would have them."""
    system_includes = cpp_extension.include_paths("cuda" if with_cuda else "cpu")
    python_include = sysconfig.get_path("include", scheme="posix_prefix")
    if python_include:
        system_includes.append(python_include)
    common = [f"-DTORCH_EXTENSION_NAME={name}", "-DTORCH_API_INCLUDE_EXTENSION_H"]
    common += [f"-I{os.path.abspath(p)}" for p in extra_include_paths]
    for include in system_includes:
        common += ["-isystem", include]
    cflags = common + ["-fPIC", "-std=c++17"] + extra_cflags
    cuda_flags = []
    if with_cuda:
        cuda_flags = common + list(cpp_extension.COMMON_NVCC_FLAGS)
        cuda_flags += cpp_extension._get_cuda_arch_flags(extra_cuda_cflags)
        cuda_flags += ["--compiler-options", "-fPIC"] + extra_cuda_cflags
        if not any(f.startswith("-std=") for f in cuda_flags):
            cuda_flags.append("-std=c++17")
    ldflags = cpp_extension._prepare_ldflags(list(extra_ldflags), with_cuda, False, False, False)
    return cflags, cuda_flags, ldflags


def _build(spec):
    """Asks for the build: in a candidate's process, the reference process (which builds it with
    `kforge build-inline`, worker/build_broker.hpp: this process may not write kforge's build cache);
    elsewhere the kforge binary itself. The compile runs outside this process either way."""
    try:
        import _kforge_worker
    except ImportError:
        _kforge_worker = None
    if _kforge_worker is not None and _kforge_worker.asks_reference_for_builds():
        return json.loads(_kforge_worker.build_through_reference(json.dumps(spec)))
    kforge = os.environ.get("KFORGE_BINARY")
    if not kforge:
        raise RuntimeError("Error building extension: KFORGE_BINARY is not set (kforge sets it for its workers)")
    done = subprocess.run([kforge, "build-inline"], input=json.dumps(spec), capture_output=True, text=True)
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        raise RuntimeError(f"Error building extension '{spec['name']}': kforge build-inline failed "
                           f"(exit {done.returncode}): {done.stderr[-2000:]}") from None


def _calling_file():
    """The .py file whose code called load_inline (the candidate), or None."""
    here = os.path.abspath(__file__)
    for frame in inspect.stack()[1:]:
        path = os.path.abspath(frame.filename)
        if path != here and path.endswith(".py") and os.path.isfile(path):
            return path
    return None


def _line_in_file(file_lines, text):
    """The 1-based line of `file_lines` where `text` begins, matched on its first two non-blank
    lines (stripped, so escapes and indentation elsewhere do not matter), or None."""
    lines = text.split("\n")
    anchors = [(i, ln.strip()) for i, ln in enumerate(lines) if ln.strip()][:2]
    if not anchors:
        return None
    # `start` is the 0-based file line of the text's first line; anchor i then sits at start + i.
    hits = [start + 1 for start in range(-anchors[0][0], len(file_lines) - anchors[-1][0])
            if all(file_lines[start + i].strip().endswith(want) for i, want in anchors)]
    return hits[0] if len(hits) == 1 else None


def _line_map(generated_name, label, prefix_lines, sources, py_file, py_lines):
    """Where each source string sits in the generated file (main.cpp or cuda.cu) and in the
    candidate's .py, so kforge can report compiler errors at the candidate's own lines."""
    segments, first = [], prefix_lines + 1
    for text in sources:
        count = text.count("\n") + 1
        segments.append({"file": generated_name, "label": label, "first": first, "count": count,
                         "py_file": py_file, "py_line": _line_in_file(py_lines, text) if py_lines else None})
        first += count
    return segments


def load_inline(*args, **kwargs):
    bound = _signature.bind(*args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    if a.get("sycl_sources") or not a.get("is_python_module", True) or a.get("no_implicit_headers", False):
        return _original_load_inline(*args, **kwargs)

    name = a["name"]
    user_cpp = _as_list(a["cpp_sources"])
    cpp_sources = ["#include <torch/extension.h>"] + user_cpp
    cuda_sources = _as_list(a.get("cuda_sources"))
    functions = a.get("functions")
    # The texts torch writes: main.cpp and cuda.cu, byte for byte.
    if functions is not None:
        if isinstance(functions, str):
            functions = [functions]
        if isinstance(functions, list):
            functions = {f: f for f in functions}
        elif not isinstance(functions, dict):
            raise ValueError(f"Expected 'functions' to be a list or dict, but was {type(functions)}")
        module_def = ["PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {"]
        for function_name, docstring in functions.items():
            if a.get("with_pytorch_error_handling", True):
                module_def.append(
                    f'm.def("{function_name}", torch::wrap_pybind_function({function_name}), "{docstring}");')
            else:
                module_def.append(f'm.def("{function_name}", {function_name}, "{docstring}");')
        module_def.append("}")
        cpp_sources += module_def
    main_cpp = "\n".join(cpp_sources)
    cuda_cu = ""
    if cuda_sources:
        cuda_cu = "\n".join(["#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>"]
                            + cuda_sources)
    py_file = _calling_file()
    try:
        py_lines = open(py_file, encoding="utf-8").read().split("\n") if py_file else None
    except OSError:
        py_lines = None
    shown_file = os.path.basename(py_file) if py_file else None
    line_map = (_line_map("main.cpp", "cpp_sources", 1, user_cpp, shown_file, py_lines)
                + _line_map("cuda.cu", "cuda_sources", 3, cuda_sources, shown_file, py_lines))
    with_cuda = a.get("with_cuda")
    if with_cuda is None:
        with_cuda = bool(cuda_sources)

    return _build_and_import(name, main_cpp, cuda_cu, line_map, a, with_cuda, "load_inline")


def _build_and_import(name, main_cpp, cuda_cu, line_map, a, with_cuda, how, include_paths=()):
    """Builds main.cpp and cuda.cu through kforge's cache and imports the module (load_inline's
    and load's common end); `a` holds the call's bound arguments."""
    include_paths = list(include_paths) + [p.strip() for p in _as_list(a.get("extra_include_paths")) if p.strip()]
    cflags, cuda_flags, ldflags = _flags(
        name, _shell_words(a.get("extra_cflags")), _shell_words(a.get("extra_cuda_cflags")),
        _shell_words(a.get("extra_ldflags")), include_paths, with_cuda)
    spec = {
        "name": name,
        "main_cpp": main_cpp,
        "cuda_cu": cuda_cu,
        "cflags": cflags,
        "cuda_flags": cuda_flags,
        "ldflags": ldflags,
        "torch_version": torch.__version__,
        "display_name": f"{how}('{name}')",
        "line_map": line_map,
    }
    if _record_only:
        recorded.append(spec)
        return _RecordedExtension(name)
    result = _built(spec, name, a, how)
    try:
        return _imported(name, result["library"])
    except ImportError as e:
        # A split module that names a symbol nothing defines: a template kernel instance's host
        # stub, local to the kernels' object, named in a way the splitter did not see (a macro
        # standing for `k<true>`). The split is at fault, not the candidate: build it whole, as
        # torch would, and say why in the build's log.
        if result.get("strategy") != "split" or "undefined symbol" not in str(e):
            raise
        spec["whole_because"] = f"the split module did not load ({str(e).splitlines()[0][-160:]}); built whole"
        return _imported(name, _built(spec, name, a, how)["library"])


def _built(spec, name, a, how):
    result = _build(spec)
    if a.get("verbose"):
        print(f"kforge: {how}('{name}'): {'cached' if result['cached'] else 'built'} "
              f"({result['strategy'] or 'failed'}) in {result['seconds']:.1f} s", flush=True)
    if not result["ok"]:
        # The phrase torch uses, so every harness recognises a build failure.
        raise RuntimeError(f"Error building extension '{name}':\n{result['diagnostics']}")
    return result


def _imported(name, library):
    module_spec = importlib.util.spec_from_file_location(name, library)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def load(*args, **kwargs):
    """torch.utils.cpp_extension.load through kforge's cache: the source files are read and built
    as load_inline's texts are (.cpp into main.cpp, .cu into cuda.cu, each in the order given), their
    folders on the include path, wherever `build_directory` points (the candidate may not write
    there, and kforge's cache is where builds go)."""
    bound = _load_signature.bind(*args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    if not a.get("is_python_module", True) or a.get("is_standalone", False):
        return _original_load(*args, **kwargs)
    sources = [os.path.abspath(p) for p in _as_list(a["sources"])]
    cpp_texts, cuda_texts = [], []
    for path in sources:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        (cuda_texts if path.endswith((".cu", ".cuh")) else cpp_texts).append(f'#line 1 "{path}"\n' + text)
    with_cuda = a.get("with_cuda")
    if with_cuda is None:
        with_cuda = bool(cuda_texts)
    folders = sorted({os.path.dirname(p) for p in sources})
    return _build_and_import(a["name"], "\n".join(cpp_texts), "\n".join(cuda_texts), [], a, with_cuda, "load",
                             include_paths=folders)


load_inline.__doc__ = _original_load_inline.__doc__
load.__doc__ = (load.__doc__ or "") + "\n\n" + (_original_load.__doc__ or "")


def install():
    """Route every later load_inline and load call of this process through kforge."""
    cpp_extension.load_inline = load_inline
    cpp_extension.load = load
