#pragma once
// kforge.toml's [slurm] table: a cluster's sbatch defaults, so that `kforge slurm submit` needs
// only what changes from one study to the next.
//
//   [slurm]
//   partition = "gpu"
//   account = "ml-research"
//   time = "04:00:00"
//   gpus_per_node = 8
//   options = ["--qos=high", "--constraint=h200"]
#include <filesystem>

#include "slurm/study.hpp"

namespace kforge::slurm {

// The [slurm] table of `file` (none: empty options). Throws kforge::Error naming the file, line
// and key for a value of the wrong type or an unknown key.
SbatchOptions load_sbatch_defaults(const std::filesystem::path& file);

// `given` over `defaults`: a value given on the command line wins; extra options add up.
SbatchOptions with_defaults(const SbatchOptions& given, const SbatchOptions& defaults);

}  // namespace kforge::slurm
