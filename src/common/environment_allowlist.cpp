#include "common/environment_allowlist.hpp"

namespace kforge {

bool passes_to_candidate_code(std::string_view entry) {
  const std::string_view name = entry.substr(0, entry.find('='));
  for (std::string_view secret : {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE"})
    if (name.find(secret) != std::string_view::npos) return false;
  for (std::string_view exact : {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TERM", "LD_LIBRARY_PATH",
                                 "LD_PRELOAD", "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE", "CC", "CXX",
                                 "CUDA_HOME", "CUDA_PATH", "XDG_CACHE_HOME", "KFORGE_BINARY", "KFORGE_PYTHON",
                                 "KFORGE_NVCC", "KFORGE_CXX", "KFORGE_INCLUDE",
                                 // the compilers' own settings (gcc's search paths, nvcc's extra flags)
                                 "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBRARY_PATH", "COMPILER_PATH",
                                 "GCC_EXEC_PREFIX", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN"})
    if (name == exact) return true;
  for (std::string_view prefix : {"LC_", "CUDA_", "NVIDIA_", "TORCH_", "TORCHINDUCTOR_", "TRITON_", "OMP_", "MKL_",
                                  "KMP_", "OPENBLAS_", "NCCL_", "PYTORCH_", "KFORGE_WORKER_", "KFORGE_BUILD_"})
    if (name.starts_with(prefix)) return true;
  return false;
}

}  // namespace kforge
