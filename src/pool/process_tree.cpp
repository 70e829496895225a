#include "pool/process_tree.hpp"

#include <dirent.h>

#include <set>
#include <string>
#include <vector>

#include "common/proc_text.hpp"

namespace kforge {

bool walk_process_tree(pid_t root, const std::function<bool(pid_t pid, int64_t threads)>& visit) {
  std::vector<pid_t> waiting{root};
  std::set<pid_t> seen;
  bool root_read = false;
  char list[4096];
  while (!waiting.empty()) {
    const pid_t pid = waiting.back();
    waiting.pop_back();
    if (!seen.insert(pid).second) continue;
    const std::string folder = "/proc/" + std::to_string(pid) + "/task";
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) continue;  // gone meanwhile
    root_read = root_read || pid == root;
    int64_t threads = 0;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      threads += 1;
      if (read_proc_text(folder + "/" + entry->d_name + "/children", list, sizeof list)) append_listed_pids(list, waiting);
    }
    ::closedir(dir);
    if (!visit(pid, threads)) break;
  }
  return root_read;
}

}  // namespace kforge
