#include "build/cuda_split_reading.hpp"

#include <regex>

#include "build/source_text.hpp"

namespace kforge::build::split {

std::string code_mask(const std::string& s) {
  MaskedSource masked = mask_source(s, true);
  if (masked.has_raw_string) throw GiveUp{"a raw string literal"};
  return std::move(masked.text);
}

bool has_word(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool left = at == 0 || !ident_char(text[at - 1]);
    bool right = at + word.size() >= text.size() || !ident_char(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

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

bool is_torch_include(const std::string& line) {
  static const std::regex pattern(R"(^\s*#\s*include\s*[<"](torch|ATen|c10|caffe2|pybind11)/)");
  return std::regex_search(line, pattern);
}

bool is_device_only_include(const std::string& line) {
  static const std::regex pattern(
      R"(^\s*#\s*include\s*[<"](mma\.h|cooperative_groups\b|cub/|cuda/|thrust/|cuda_pipeline|cuda_awbarrier|crt/|cute/|cutlass/))");
  return std::regex_search(line, pattern);
}

bool names_a_device_only_namespace(const std::string& code) {
  static const std::regex pattern(
      R"(^\s*(using\s+namespace\s+|namespace\s+\w+\s*=\s*|using\s+)(::)?(nvcuda|cooperative_groups|cub|cuda|thrust|cute|cutlass)\s*(::|;))");
  return std::regex_search(code, pattern);
}

bool mentions_torch(const std::string& code) {
  static const std::regex pattern(R"(\b(torch|at|c10|caffe2|pybind11|py)::|\b(TORCH|AT|C10)_[A-Z_]+|\bTensor\b)");
  return std::regex_search(code, pattern);
}

std::string host_declaration(std::string head) {
  static const std::regex attributes(
      R"(\b(__launch_bounds__|__maxnreg__|__cluster_dims__|C10_LAUNCH_BOUNDS_[0-9])\s*\([^)]*\))");
  static const std::regex qualifiers(R"(\b(__global__|__noinline__|__forceinline__)\b)");
  head = std::regex_replace(head, attributes, " ");
  head = std::regex_replace(head, qualifiers, " ");
  head = std::regex_replace(head, std::regex(R"(\s+)"), " ");
  size_t first = head.find_first_not_of(' ');
  head = first == std::string::npos ? "" : head.substr(first);
  while (!head.empty() && head.back() == ' ') head.pop_back();
  return head + ";\n";
}

const std::map<std::string, std::vector<std::string>>& dispatch_types() {
  static const std::map<std::string, std::vector<std::string>> types{
      {"AT_DISPATCH_FLOATING_TYPES", {"double", "float"}},
      {"AT_DISPATCH_FLOATING_TYPES_AND_HALF", {"double", "float", "c10::Half"}},
      {"AT_DISPATCH_FLOATING_TYPES_AND", {"double", "float"}},
      {"AT_DISPATCH_FLOATING_TYPES_AND2", {"double", "float"}},
      {"AT_DISPATCH_REDUCED_FLOATING_TYPES", {"c10::Half", "c10::BFloat16"}},
      {"AT_DISPATCH_INTEGRAL_TYPES", {"uint8_t", "int8_t", "int16_t", "int32_t", "int64_t"}},
      {"AT_DISPATCH_ALL_TYPES", {"uint8_t", "int8_t", "int16_t", "int32_t", "int64_t", "double", "float"}},
  };
  return types;
}

int extra_type_arguments(const std::string& macro) {
  if (macro.ends_with("_AND2")) return 2;
  if (macro.ends_with("_AND")) return 1;
  return 0;
}

std::string c10_type_named(const std::string& argument) {
  if (argument.find("BFloat16") != std::string::npos) return "c10::BFloat16";
  if (argument.find("Half") != std::string::npos) return "c10::Half";
  return "";
}

std::string unqualified_name(const std::string& name) {
  const size_t last_colon = name.rfind("::");
  return last_colon == std::string::npos ? name : name.substr(last_colon + 2);
}

std::string replace_word(const std::string& text, const std::string& word, const std::string& by) {
  return std::regex_replace(text, std::regex("\\b" + word + "\\b"), by);
}

std::vector<std::string> top_level_parts(const std::string& text, const std::string& mask, size_t from, size_t to,
                                         bool angles) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = from;
  for (size_t i = from; i < to; ++i) {
    const char c = mask[i];
    const bool angle_open = angles && c == '<' && i > 0 && ident_char(mask[i - 1]) && mask[i + 1] != '<';
    const bool angle_close = angles && c == '>' && mask[i - 1] != '-';
    if (c == '(' || c == '[' || c == '{' || angle_open) ++depth;
    if ((c == ')' || c == ']' || c == '}' || angle_close) && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trimmed(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trimmed(text.substr(start, to - start)).empty() || !parts.empty()) parts.push_back(trimmed(text.substr(start, to - start)));
  return parts;
}

std::string deduced_argument(const TemplateKernel& kernel, const std::vector<std::string>& arguments) {
  static const std::regex one_type(R"(^\s*(typename|class)\s+([A-Za-z_]\w*)\s*$)");
  std::smatch m;
  if (!std::regex_match(kernel.parameters, m, one_type) || arguments.size() != kernel.function_parameters.size()) return "";
  const std::string t = m[2];
  const std::regex pointer_to_t("^(const\\s+)?" + t + "\\s*(const\\s*)?\\*");
  static const std::regex typed_pointer(R"(\.\s*(data_ptr|data|mutable_data_ptr|const_data_ptr)\s*<\s*([^<>()]+?)\s*>\s*\(\s*\)\s*$)");
  static const std::regex cast_pointer(R"(^\(\s*(const\s+)?([A-Za-z_][\w:]*)\s*\*\s*\))");
  // A functor taken by value (`Op op`) and given a temporary of its type (`HardSigmoidOp()`).
  const std::regex t_by_value("^(const\\s+)?" + t + "\\s+[A-Za-z_]\\w*$");
  static const std::regex temporary(R"(^\s*([A-Za-z_][\w:]*)\s*(\(\s*\)|\{\s*\})\s*$)");
  std::string found;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const bool pointer = std::regex_search(kernel.function_parameters[i], pointer_to_t);
    const bool by_value = std::regex_search(kernel.function_parameters[i], t_by_value);
    if (!pointer && !by_value) continue;
    std::smatch a;
    std::string type;
    if (by_value && std::regex_match(arguments[i], a, temporary)) type = a[1];
    else if (pointer && std::regex_search(arguments[i], a, typed_pointer)) type = trimmed(a[2]);
    else if (pointer && std::regex_search(arguments[i], a, cast_pointer)) type = a[2];
    else return "";
    if (!found.empty() && found != type) return "";
    found = type;
  }
  return found;
}

bool uses_tensor_accessors(const std::string& code) {
  static const std::regex names(
      R"(\b(PackedTensorAccessor(32|64)?|GenericPackedTensorAccessor|TensorAccessor|RestrictPtrTraits|DefaultPtrTraits)\b)");
  return std::regex_search(code, names);
}

}  // namespace kforge::build::split
