#include "slurm/slurm_config.hpp"

#include <string>

#include <toml++/toml.h>

#include "common/errors.hpp"

namespace kforge::slurm {

SbatchOptions load_sbatch_defaults(const std::filesystem::path& file) {
  SbatchOptions out;
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw Error(file.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const toml::node* node = root.get("slurm");
  if (!node) return out;
  auto where = [&](const toml::node& n) { return file.string() + ":" + std::to_string(n.source().begin.line) + ": slurm."; };
  const toml::table* table = node->as_table();
  if (!table) throw Error(file.string() + ":" + std::to_string(node->source().begin.line) + ": slurm must be a table");
  for (const auto& [key, value] : *table) {
    const std::string name(key.str());
    auto text = [&]() -> std::string {
      if (!value.is_string()) throw Error(where(value) + name + " must be a string");
      return value.as_string()->get();
    };
    if (name == "partition") {
      out.partition = text();
    } else if (name == "account") {
      out.account = text();
    } else if (name == "time") {
      out.time = text();
    } else if (name == "gpus_per_node") {
      const auto n = value.value<int64_t>();
      if (!value.is_integer() || !n || *n < 0 || *n > 64) throw Error(where(value) + name + " must be an integer from 0 to 64");
      out.gpus_per_node = static_cast<int>(*n);
    } else if (name == "options") {
      const toml::array* list = value.as_array();
      if (!list) throw Error(where(value) + name + " must be an array of strings, as [\"--qos=high\"]");
      for (const auto& item : *list) {
        if (!item.is_string()) throw Error(where(item) + name + " must hold strings only");
        out.extra.push_back(item.as_string()->get());
      }
    } else {
      throw Error(where(value) + name + ": unknown key (partition, account, time, gpus_per_node, options)");
    }
  }
  return out;
}

SbatchOptions with_defaults(const SbatchOptions& given, const SbatchOptions& defaults) {
  SbatchOptions out = defaults;
  if (!given.partition.empty()) out.partition = given.partition;
  if (!given.account.empty()) out.account = given.account;
  if (!given.time.empty()) out.time = given.time;
  if (given.gpus_per_node > 0) out.gpus_per_node = given.gpus_per_node;
  out.extra.insert(out.extra.end(), given.extra.begin(), given.extra.end());
  return out;
}

}  // namespace kforge::slurm
