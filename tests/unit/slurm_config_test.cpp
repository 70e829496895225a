// kforge.toml's [slurm] table (src/slurm/slurm_config.hpp): read, checked, and under the options
// given on the command line.
#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "slurm/slurm_config.hpp"
#include "support/temp_dir.hpp"

namespace kforge::slurm {
namespace {

using kforge::testing::TempDir;

TEST(SlurmConfig, TheTableGivesSbatchDefaultsAndTheCommandLineWins) {
  TempDir dir;
  const std::string file = dir.write("kforge.toml", R"([models.m]
api = "openai"

[slurm]
partition = "gpu"
account = "ml"
time = "04:00:00"
gpus_per_node = 8
options = ["--qos=high", "--constraint=h200"]
)");
  const SbatchOptions defaults = load_sbatch_defaults(file);
  EXPECT_EQ(defaults.partition, "gpu");
  EXPECT_EQ(defaults.account, "ml");
  EXPECT_EQ(defaults.time, "04:00:00");
  EXPECT_EQ(defaults.gpus_per_node, 8);
  EXPECT_EQ(defaults.extra, (std::vector<std::string>{"--qos=high", "--constraint=h200"}));

  SbatchOptions given;
  given.partition = "debug";
  given.extra = {"--hold"};
  const SbatchOptions both = with_defaults(given, defaults);
  EXPECT_EQ(both.partition, "debug");
  EXPECT_EQ(both.account, "ml");
  EXPECT_EQ(both.gpus_per_node, 8);
  EXPECT_EQ(both.extra, (std::vector<std::string>{"--qos=high", "--constraint=h200", "--hold"}));

  // Without a [slurm] table: nothing set.
  const SbatchOptions none = load_sbatch_defaults(dir.write("plain.toml", "[models.m]\napi = \"openai\"\n"));
  EXPECT_TRUE(none.partition.empty());
  EXPECT_EQ(none.gpus_per_node, 0);
  EXPECT_TRUE(none.extra.empty());
}

TEST(SlurmConfig, AWrongValueOrKeyNamesTheFileLineAndKey) {
  TempDir dir;
  auto error_of = [&](const std::string& text) {
    try {
      load_sbatch_defaults(dir.write("k.toml", text));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("[slurm]\ngpus_per_node = \"8\"\n").find("k.toml:2: slurm.gpus_per_node must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of("[slurm]\npartition = 3\n").find("slurm.partition must be a string"), std::string::npos);
  EXPECT_NE(error_of("[slurm]\noptions = \"--qos=high\"\n").find("slurm.options must be an array"), std::string::npos);
  EXPECT_NE(error_of("[slurm]\nnodes = 2\n").find("slurm.nodes: unknown key"), std::string::npos);
  EXPECT_NE(error_of("slurm = 1\n").find("slurm must be a table"), std::string::npos);
}

}  // namespace
}  // namespace kforge::slurm
