#include "build/cuda_split.hpp"

#include <cctype>
#include <regex>
#include <vector>

#include "build/source_text.hpp"

namespace kforge::build {
namespace {

// Thrown when the source has a shape the splitter does not handle; the caller builds it whole.
struct GiveUp {
  std::string why;
};

// The source with comments and the insides of string and character literals blanked (same
// length, newlines kept), so structure is read from code only and offsets match the original.
std::string code_mask(const std::string& s) {
  MaskedSource masked = mask_source(s, true);
  if (masked.has_raw_string) throw GiveUp{"a raw string literal"};
  return std::move(masked.text);
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool has_word(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool left = at == 0 || !ident_char(text[at - 1]);
    bool right = at + word.size() >= text.size() || !ident_char(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

// Index of the bracket closing the one at `open` (same kind), in the mask.
size_t matching(const std::string& m, size_t open, size_t end) {
  char o = m[open];
  char c = o == '(' ? ')' : o == '{' ? '}' : ']';
  int depth = 0;
  for (size_t i = open; i < end; ++i) {
    if (m[i] == o) ++depth;
    if (m[i] == c && --depth == 0) return i;
  }
  throw GiveUp{"unbalanced brackets"};
}

enum class Place { device, host, both };

struct Item {
  Place place;
  std::string text;
};

// Torch's own headers (and pybind11's): the device part never sees them.
bool is_torch_include(const std::string& line) {
  static const std::regex pattern(R"(^\s*#\s*include\s*[<"](torch|ATen|c10|caffe2|pybind11)/)");
  return std::regex_search(line, pattern);
}

bool mentions_torch(const std::string& code) {
  static const std::regex pattern(R"(\b(torch|at|c10|caffe2|pybind11|py)::|\b(TORCH|AT|C10)_[A-Z_]+|\bTensor\b)");
  return std::regex_search(code, pattern);
}

// `__global__ void k(...) __launch_bounds__(256)` -> `void k(...)`: what host code needs to name
// the kernel's host stub.
std::string host_declaration(std::string head) {
  static const std::regex attributes(R"(\b(__launch_bounds__|__maxnreg__|__cluster_dims__)\s*\([^)]*\))");
  static const std::regex qualifiers(R"(\b(__global__|__noinline__|__forceinline__)\b)");
  head = std::regex_replace(head, attributes, " ");
  head = std::regex_replace(head, qualifiers, " ");
  head = std::regex_replace(head, std::regex(R"(\s+)"), " ");
  size_t first = head.find_first_not_of(' ');
  head = first == std::string::npos ? "" : head.substr(first);
  while (!head.empty() && head.back() == ' ') head.pop_back();
  return head + ";\n";
}

// Rewrites each `name<<<config>>>(args)` of a host item (`text`, and `mask`, its code_mask) into a
// call of kforge_split::launch.
std::string rewrite_launches(const std::string& text, const std::string& mask) {
  std::string out = text;
  // Right to left, so earlier offsets stay valid while later text changes length.
  std::vector<size_t> launches;
  for (size_t at = mask.find("<<<"); at != std::string::npos; at = mask.find("<<<", at + 3)) launches.push_back(at);
  for (auto it = launches.rbegin(); it != launches.rend(); ++it) {
    size_t open = *it;
    size_t name_end = open;
    while (name_end > 0 && std::isspace(static_cast<unsigned char>(mask[name_end - 1]))) --name_end;
    if (name_end > 0 && mask[name_end - 1] == '>') throw GiveUp{"a launch of a template kernel"};
    size_t name_start = name_end;
    while (name_start > 0 && (ident_char(mask[name_start - 1]) || mask[name_start - 1] == ':')) --name_start;
    if (name_start == name_end) throw GiveUp{"a launch whose kernel it cannot name"};
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t i = open + 3; i + 2 < mask.size(); ++i) {
      char c = mask[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (depth == 0 && mask.compare(i, 3, ">>>") == 0) {
        close = i;
        break;
      }
    }
    if (close == std::string::npos) throw GiveUp{"a launch configuration without >>>"};
    size_t args_open = close + 3;
    while (args_open < mask.size() && std::isspace(static_cast<unsigned char>(mask[args_open]))) ++args_open;
    if (args_open >= mask.size() || mask[args_open] != '(') throw GiveUp{"a launch without an argument list"};
    std::string name = text.substr(name_start, name_end - name_start);
    std::string config = text.substr(open + 3, close - open - 3);
    out.replace(name_start, args_open - name_start, "::kforge_split::launch(" + name + ", " + config + ")");
  }
  return out;
}

constexpr const char* kLauncher = R"(
// kforge: what `kernel<<<grid, block, smem, stream>>>(args)` does, without nvcc: the arguments
// converted to the kernel's parameter types, then cudaLaunchKernel on the kernel's host stub.
namespace kforge_split {
template <class... Params>
struct Launch {
  void (*kernel)(Params...);
  dim3 grid, block;
  size_t shared_bytes;
  cudaStream_t stream;
  template <class... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params), "a kernel launched with the wrong number of arguments");
    auto values = std::tuple<std::remove_cv_t<std::remove_reference_t<Params>>...>(std::forward<Args>(args)...);
    std::apply([&](auto&... v) {
      void* slots[] = {const_cast<void*>(static_cast<const void*>(&v))..., nullptr};
      cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, slots, shared_bytes, stream);
    }, values);
  }
};
template <class... Params>
Launch<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared_bytes = 0,
                         cudaStream_t stream = 0) {
  return {kernel, grid, block, shared_bytes, stream};
}
}  // namespace kforge_split
)";

class Splitter {
 public:
  explicit Splitter(const std::string& source) : s_(source), m_(code_mask(source)) {}

  std::vector<Item> run() {
    parse(0, s_.size());
    return std::move(items_);
  }

 private:
  void add(Place place, std::string text) { items_.push_back({place, std::move(text)}); }

  // Top-level items of [begin, end): preprocessor lines, namespaces, declarations, definitions.
  void parse(size_t begin, size_t end) {
    size_t i = begin;
    while (i < end) {
      while (i < end && std::isspace(static_cast<unsigned char>(m_[i]))) ++i;
      if (i >= end) break;
      if (m_[i] == '#') {
        size_t eol = i;
        while (eol < end && !(m_[eol] == '\n' && (eol == 0 || s_[eol - 1] != '\\'))) ++eol;
        std::string line = s_.substr(i, eol - i) + "\n";
        if (is_torch_include(line)) add(Place::host, line);
        else if (!std::regex_search(line, std::regex(R"(^\s*#\s*pragma\s+once)"))) add(Place::both, line);
        i = eol;
        continue;
      }
      if (m_.compare(i, 6, "extern") == 0 && s_.find('"', i) < m_.find_first_of(";{", i))
        throw GiveUp{"an extern \"C\" block or declaration"};
      if (m_.compare(i, 9, "namespace") == 0 && !ident_char(m_[i + 9])) {
        size_t brace = m_.find_first_of("{;=", i);
        if (brace == std::string::npos || brace >= end) throw GiveUp{"a namespace it cannot read"};
        if (m_[brace] != '{') {  // `namespace a = b;` or `using namespace`: an ordinary item
          item(i, end);
          continue;
        }
        std::string head = s_.substr(i, brace - i);
        if (head.find_first_not_of(" \t\n", 9) == std::string::npos) throw GiveUp{"an anonymous namespace"};
        size_t close = matching(m_, brace, end);
        add(Place::both, head + "{\n");
        parse(brace + 1, close);
        add(Place::both, "}\n");
        i = close + 1;
        continue;
      }
      i = item(i, end);
    }
  }

  // One declaration or definition starting at `i`; returns where the next begins.
  size_t item(size_t i, size_t end) {
    size_t j = i;
    size_t head_end = std::string::npos;
    bool function = false;
    while (j < end) {
      char c = m_[j];
      if (c == '(' || c == '[') {
        j = matching(m_, j, end) + 1;
        continue;
      }
      if (c == ';') {
        if (head_end == std::string::npos) head_end = j;
        ++j;
        break;
      }
      if (c == '{') {
        if (head_end == std::string::npos) {
          head_end = j;
          std::string head = m_.substr(i, j - i);
          static const std::regex aggregate(R"(^\s*(template\s*<[^{]*>\s*)?(struct|class|union|enum)\b)");
          function = head.find('(') != std::string::npos && head.find('=') == std::string::npos &&
                     !std::regex_search(head, aggregate);
        }
        j = matching(m_, j, end) + 1;
        if (function) break;
        continue;
      }
      ++j;
    }
    std::string text = s_.substr(i, j - i) + "\n";
    std::string head_mask = m_.substr(i, head_end - i);
    std::string code = m_.substr(i, j - i) + "\n";  // the item's mask, aligned with `text`
    classify(text, s_.substr(i, head_end - i), head_mask, code, function);
    return j;
  }

  void classify(const std::string& text, const std::string& head, const std::string& head_mask,
                const std::string& code, bool function) {
    if (has_word(head_mask, "__global__")) {
      if (has_word(head_mask, "template")) throw GiveUp{"a template kernel"};
      if (has_word(head_mask, "static")) throw GiveUp{"a static kernel"};
      add(Place::device, text);
      add(Place::host, host_declaration(head));
      return;
    }
    bool device = has_word(head_mask, "__device__") || has_word(head_mask, "__constant__") ||
                  has_word(head_mask, "__shared__") || has_word(head_mask, "__managed__");
    if (device) {
      add(has_word(head_mask, "__host__") ? Place::both : Place::device, text);
      return;
    }
    if (code.find("<<<") != std::string::npos) {
      add(Place::host, rewrite_launches(text, code));
      return;
    }
    if (mentions_torch(code)) {
      add(Place::host, text);
      return;
    }
    if (function) {
      bool shareable = has_word(head_mask, "inline") || has_word(head_mask, "constexpr") ||
                       has_word(head_mask, "static") || has_word(head_mask, "template");
      add(shareable ? Place::both : Place::host, text);
      return;
    }
    add(Place::both, text);  // types, aliases, constants
  }

  const std::string& s_;
  std::string m_;
  std::vector<Item> items_;
};

}  // namespace

SplitAttempt split_cuda_source(const std::string& cuda_source) {
  SplitAttempt attempt;
  try {
    std::vector<Item> items = Splitter(cuda_source).run();
    SplitSource split;
    split.host_cpp =
        "#include <torch/extension.h>\n#include <cuda_runtime.h>\n#include <tuple>\n#include <type_traits>\n"
        "#include <utility>\n";
    split.host_cpp += kLauncher;
    bool any_kernel = false, any_device_code = false;
    for (const auto& item : items) {
      if (item.place != Place::host) split.device_cu += item.text;
      if (item.place != Place::device) split.host_cpp += item.text;
      any_device_code = any_device_code || item.place == Place::device;
      any_kernel = any_kernel || (item.place == Place::device && has_word(item.text, "__global__"));
    }
    if (any_device_code && !any_kernel) throw GiveUp{"device code but no kernel"};
    if (!any_kernel) split.device_cu.clear();  // host code only: nothing for nvcc
    attempt.split = std::move(split);
  } catch (const GiveUp& g) {
    attempt.why_not = g.why;
  }
  return attempt;
}

}  // namespace kforge::build
