#include "build/cuda_split.hpp"

#include <algorithm>

#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <vector>

#include "build/cuda_split_prelude.hpp"
#include "build/cuda_split_reading.hpp"
#include "build/kernel_macros.hpp"
#include "build/source_text.hpp"

namespace kforge::build {
namespace {

using namespace split;  // the splitter's reading of the source, and the texts it adds

enum class Place { device, host, both };

struct Item {
  Place place;
  std::string text;
};

class Splitter {
 public:
  explicit Splitter(const std::string& source) : s_(source), m_(code_mask(source)) {}

  std::vector<Item> run() {
    parse(0, s_.size());
    add_instances();
    return std::move(items_);
  }

  // The c10 headers the device part's instances need, to put before its code.
  std::string device_includes() const {
    std::string out;
    if (needs_half_) out += "#include <c10/util/Half.h>\n";
    if (needs_bfloat16_) out += "#include <c10/util/BFloat16.h>\n";
    return out;
  }

 private:
  void add(Place place, std::string text) {
    // c10's two small type headers, for device code that names torch's Half or BFloat16 (a trait
    // mapping them to __half and __nv_bfloat16, a device function taking one).
    if (place != Place::host) {
      static const std::regex half(R"(\b(at|c10)::Half\b)"), bfloat16(R"(\b(at|c10)::BFloat16\b)");
      needs_half_ = needs_half_ || std::regex_search(text, half);
      needs_bfloat16_ = needs_bfloat16_ || std::regex_search(text, bfloat16);
    }
    items_.push_back({place, std::move(text)});
  }

  // A type or constant whose only torch names are its Half and BFloat16 types (`template <> struct
  // CudaType<at::Half> { using type = __half; };`): the device part can have it, with c10's headers.
  static bool names_torch_only_for_half_types(const std::string& code) {
    static const std::regex half_types(R"(\b(at|c10)::(Half|BFloat16)\b)");
    return std::regex_search(code, half_types) && !mentions_torch(std::regex_replace(code, half_types, "float"));
  }

  // The device part's specialisations of every kforge_split_address_<kernel>, in its namespaces.
  void add_instances() {
    for (const auto& [name, kernel] : template_kernels_) {
      if (kernel.instances.empty()) continue;
      std::string text = "// kforge: the instances of " + name + " the host part launches\n";
      for (const auto& open : kernel.namespaces) text += open;
      for (const auto& args : kernel.instances)
        text += "template <> void* kforge_split_address_" + name + "<" + args + ">() { return (void*)&" + name + "<" +
                args + ">; }\n";
      for (size_t i = 0; i < kernel.namespaces.size(); ++i) text += "}\n";
      add(Place::device, text);
    }
  }

  // Top-level items of [begin, end): preprocessor lines, namespaces, declarations, definitions.
  void parse(size_t begin, size_t end) {
    size_t i = begin;
    size_t previous = std::string::npos;  // where the last step started
    while (i < end) {
      // Every step below moves past what it read; one that did not would loop for ever (a
      // namespace alias once did), so a source it cannot move through is built whole.
      if (i == previous) throw GiveUp{"a construct at offset " + std::to_string(i) + " it cannot read past"};
      previous = i;
      while (i < end && std::isspace(static_cast<unsigned char>(m_[i]))) ++i;
      if (i >= end) break;
      if (m_[i] == '#') {
        static const std::regex kDefine(R"(^\s*#\s*define\b)");
        const size_t eol = std::min(logical_line_end(s_, i), end);
        std::string line = s_.substr(i, eol - i) + "\n";
        remember_object_macro(line);
        remember_launch_macro(line);
        if (is_torch_include(line)) add(Place::host, line);
        else if (is_device_only_include(line)) add(Place::device, line);
        // A macro that defines kernels: its calls were written out (build/kernel_macros.hpp).
        else if (std::regex_search(line, kDefine) && has_word(m_.substr(i, eol - i), "__global__"))
          add(Place::device, line);
        else if (!std::regex_search(line, std::regex(R"(^\s*#\s*pragma\s+once)"))) add(Place::both, line);
        i = eol;
        continue;
      }
      if (m_.compare(i, 6, "extern") == 0 && s_.find('"', i) < m_.find_first_of(";{", i) &&
          m_[m_.find_first_of(";{(", i)] == '{') {
        // extern "C" { ... }: its items, on both sides inside the same block.
        size_t brace = m_.find('{', i);
        size_t close = matching(m_, brace, end);
        add(Place::both, s_.substr(i, brace - i) + "{\n");
        parse(brace + 1, close);
        add(Place::both, "}\n");
        i = close + 1;
        continue;
      }
      if (m_.compare(i, 9, "namespace") == 0 && !ident_char(m_[i + 9])) {
        size_t brace = m_.find_first_of("{;=", i);
        if (brace == std::string::npos || brace >= end) throw GiveUp{"a namespace it cannot read"};
        if (m_[brace] != '{') {  // `namespace a = b;`: an ordinary item
          i = item(i, end);
          continue;
        }
        std::string head = s_.substr(i, brace - i);
        // An anonymous namespace gets a name of its own and a using-directive after it: its
        // kernels' host stubs must be reachable from the host part, and unqualified names in
        // the code after it still find its members.
        const bool anonymous = head.find_first_not_of(" \t\n", 9) == std::string::npos;
        std::string named = anonymous ? "kforge_split_anon_" + std::to_string(++anonymous_count_) : "";
        if (anonymous) head = "namespace " + named + " ";
        size_t close = matching(m_, brace, end);
        add(Place::both, head + "{\n");
        namespaces_.push_back(head + "{\n");
        parse(brace + 1, close);
        namespaces_.pop_back();
        add(Place::both, "}\n");
        if (anonymous) add(Place::both, "using namespace " + named + ";\n");
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
          function = head.find('(') != std::string::npos && !initialises(head) && !std::regex_search(head, aggregate);
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

  // Whether a head before '{' is a variable's (`auto f = [](int v) {`, `int t[] = {`), not a
  // function's: an '=' outside its template parameters and its parentheses. A default template
  // argument (`template <typename T, int BLOCK = 256>`) or a default function argument (`double eps
  // = 1e-5`) is the function's own.
  static bool initialises(const std::string& head_mask) {
    if (std::regex_search(head_mask, std::regex(R"(\boperator\b)"))) return false;
    size_t from = 0;
    static const std::regex template_header(R"(^\s*template\s*<)");
    std::smatch m;
    if (std::regex_search(head_mask, m, template_header)) {
      from = static_cast<size_t>(m.length(0));
      for (int depth = 1; from < head_mask.size() && depth > 0; ++from) {
        if (head_mask[from] == '<') ++depth;
        if (head_mask[from] == '>') --depth;
      }
    }
    int parens = 0;
    for (size_t k = from; k < head_mask.size(); ++k) {
      if (head_mask[k] == '(') ++parens;
      if (head_mask[k] == ')') --parens;
      if (head_mask[k] == '=' && parens == 0) return true;
    }
    return false;
  }

  void classify(const std::string& text, const std::string& head, const std::string& head_mask,
                const std::string& code, bool function) {
    // `template __global__ void k<float>(const float*, float*, int);`: an explicit instantiation,
    // nvcc's alone (the host part launches instances through the device part's addresses).
    static const std::regex explicit_instantiation(R"(^\s*(extern\s+)?template\s+[^<\s])");
    if (has_word(head_mask, "__global__") && std::regex_search(head_mask, explicit_instantiation)) {
      add(Place::device, text);
      return;
    }
    if (has_word(head_mask, "__global__")) {
      std::string kernel = text, declared = head;
      if (has_word(head_mask, "static")) {
        // Internal linkage would hide its host stub from the host part; nothing else sees it.
        declared = replace_word(head, "static", "");
        kernel = declared + text.substr(head.size());
      }
      add(Place::device, kernel);
      add(Place::host, host_declaration(declared));
      if (has_word(head_mask, "template")) add_template_kernel(head, head_mask);
      else add_kernel_signature(host_declaration(declared));
      return;
    }
    bool device = has_word(head_mask, "__device__") || has_word(head_mask, "__constant__") ||
                  has_word(head_mask, "__shared__") || has_word(head_mask, "__managed__");
    if (device) {
      add(has_word(head_mask, "__host__") ? Place::both : Place::device, text);
      if (!function && !has_word(head_mask, "__host__")) add_device_variable(head, head_mask);
      return;
    }
    if (names_a_device_only_namespace(code)) {
      add(Place::device, text);
      return;
    }
    // CUB's device-wide algorithms and Thrust's are templates that launch kernels of their own:
    // host code calling them needs nvcc, so the whole build is the only one (said now rather than
    // found by a split that fails to compile).
    static const std::regex device_wide(R"(\b(cub::Device\w+|thrust::)\w*)");
    if (std::regex_search(code, device_wide)) throw GiveUp{"host code calls CUB's or Thrust's device-wide algorithms (nvcc only)"};
    if (names_a_launch_macro(code)) {
      // Its launches written out, then read as any others.
      const std::string expanded = expand_launch_macros(text, code);
      add(Place::host, rewrite_launches(expanded, code_mask(expanded), has_word(head_mask, "template")));
      return;
    }
    if (code.find("<<<") != std::string::npos || names_a_template_kernel(code) || names_a_device_variable(code)) {
      add(Place::host, rewrite_launches(text, code, has_word(head_mask, "template")));
      return;
    }
    if (!function && names_torch_only_for_half_types(code)) {
      add(Place::both, text);
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

  // Kernels overloaded on their parameter types (`scale_kernel(const float*, ...)` and
  // `scale_kernel(const double*, ...)`): the launch helper takes the kernel as a pointer, which a
  // name alone cannot choose. For each overload the host part declares a picker taking the same
  // parameters and returning a pointer of that overload's type, and a launch converts the name to
  // the type of `decltype(kforge_split_pick_<name>(args))`: overload resolution on the launch's
  // own arguments, unevaluated, as nvcc resolves the launch.
  void add_kernel_signature(const std::string& declaration) {
    static const std::regex shape(R"(^(.*?)\b([A-Za-z_]\w*)\s*\(([\s\S]*)\)\s*;\s*$)");
    std::smatch m;
    if (!std::regex_match(declaration, m, shape)) return;
    const std::string name = m[2], parameters = m[3];
    auto& seen = kernel_signatures_[name];
    seen.push_back(parameters);
    if (seen.size() < 2) return;
    if (parameters.find('=') != std::string::npos || seen.front().find('=') != std::string::npos)
      throw GiveUp{"overloaded kernel " + name + " with default arguments"};
    auto picker = [&](const std::string& p) {
      return "auto kforge_split_pick_" + name + "(" + p + ") -> void (*)(" + p + ");\n";
    };
    if (seen.size() == 2) add(Place::host, picker(seen.front()));
    add(Place::host, picker(parameters));
  }

  // `__constant__ float weights[256];` (or `__device__`): the host code nvcc makes for it is a
  // shadow variable of internal linkage, whose address cudaMemcpyToSymbol and
  // cudaGetSymbolAddress take. The device part defines a function returning that address
  // (`kforge_split_symbol_<name>`), the host part declares it, and host code that names the
  // variable names what it points to instead (rewrite_launches). Only a single declarator of a
  // type and a name (and array bounds) is read; any other shape is left to the device part, and a
  // host item that names it fails to compile there, so the source is built whole.
  void add_device_variable(const std::string& head, const std::string& head_mask) {
    if (has_word(head_mask, "__shared__") || has_word(head_mask, "__managed__") || has_word(head_mask, "extern") ||
        has_word(head_mask, "template"))
      return;
    std::string declaration = head_mask.substr(0, head_mask.find('='));
    if (declaration.find_first_of("(,") != std::string::npos) return;
    declaration = head.substr(0, declaration.size());
    static const std::regex qualifiers(R"(\b(__constant__|__device__|static|__align__\s*\(\s*\w+\s*\)))");
    declaration = trimmed(std::regex_replace(declaration, qualifiers, " "));
    static const std::regex declarator(R"(^([^\[\]]*[^\w\s\[\]]?\s*)\b([A-Za-z_]\w*)\s*((\[[^\[\]]*\]\s*)*)$)");
    std::smatch m;
    if (!std::regex_match(declaration, m, declarator) || trimmed(m[1]).empty()) return;
    DeviceVariable variable{trimmed(m[1]), trimmed(m[3])};
    const std::string name = m[2];
    device_variables_[name] = variable;
    add(Place::device, "void* kforge_split_symbol_" + name + "() { return (void*)&" + name + "; }\n");
    add(Place::host, "void* kforge_split_symbol_" + name + "();\n");
  }

  bool names_a_device_variable(const std::string& mask) const {
    return std::any_of(device_variables_.begin(), device_variables_.end(),
                       [&](const auto& v) { return has_word(mask, v.first); });
  }

  // The host part's expression for a device variable named `written` (possibly qualified): the
  // shadow the device part's function points to, as an lvalue of the variable's own type.
  std::string device_variable_expression(const std::string& written, const std::string& unqualified) const {
    const DeviceVariable& v = device_variables_.at(unqualified);
    const std::string qualifier = written.substr(0, written.size() - unqualified.size());
    const std::string pointer = v.bounds.empty() ? v.type + "*" : v.type + "(*)" + v.bounds;
    return "(*reinterpret_cast<" + pointer + ">(" + qualifier + "kforge_split_symbol_" + unqualified + "()))";
  }

  // `template <PARAMS> __global__ void NAME(...)`: remembered, with the address template both
  // parts declare.
  void add_template_kernel(const std::string& head, const std::string& head_mask) {
    size_t open = head_mask.find('<', head_mask.find("template"));
    if (open == std::string::npos) throw GiveUp{"a template kernel it cannot read"};
    size_t close = open;
    for (int depth = 0; close < head_mask.size(); ++close) {
      if (head_mask[close] == '<') ++depth;
      if (head_mask[close] == '>' && --depth == 0) break;
    }
    if (close >= head_mask.size()) throw GiveUp{"a template kernel it cannot read"};
    std::string name;
    size_t parameters_open = std::string::npos;
    static const std::regex call(R"(\b([A-Za-z_]\w*)\s*\()");
    for (std::sregex_iterator it(head_mask.begin() + static_cast<long>(close), head_mask.end(), call), stop; it != stop; ++it) {
      std::string word = (*it)[1];
      if (word != "__launch_bounds__" && word != "__maxnreg__" && word != "__cluster_dims__" && word != "__align__") {
        name = word;
        parameters_open = close + static_cast<size_t>(it->position(0) + it->length(0)) - 1;
      }
    }
    if (name.empty()) throw GiveUp{"a template kernel it cannot name"};
    if (template_kernels_.count(name) && template_kernels_[name].parameters != head.substr(open + 1, close - open - 1))
      throw GiveUp{"two template kernels named " + name};
    TemplateKernel& k = template_kernels_[name];
    k.parameters = head.substr(open + 1, close - open - 1);
    k.namespaces = namespaces_;
    const size_t parameters_close = matching(head_mask, parameters_open, head_mask.size());
    k.function_parameters = top_level_parts(head, head_mask, parameters_open + 1, parameters_close);
    add(Place::both, "template <" + k.parameters + "> void* kforge_split_address_" + name + "();\n");
  }

  // The template arguments `args` of a launch at `at` in a host item whose mask is `mask`, as
  // the concrete lists the device part must instantiate: scalar_t is each type of the
  // AT_DISPATCH macro around the launch.
  std::vector<std::string> concrete_arguments(std::string args, const std::string& text, const std::string& mask,
                                              size_t at) {
    // A constant local to the host function (`constexpr int kBlock = 256;` then `k<kBlock>`) is
    // not in the device part: its value stands in (to a depth of three, for one made of others).
    static const std::regex local(R"(\b(?:constexpr|const)\s+[A-Za-z_][\w:]*\s+([A-Za-z_]\w*)\s*=\s*([^;{}]+);)");
    // So is a type alias local to it, or to a dispatch's lambda (`using cuda_t = typename
    // CudaType<scalar_t>::type;` then `k<cuda_t>`): its definition stands in.
    static const std::regex alias(R"(\busing\s+([A-Za-z_]\w*)\s*=\s*([^;{}]+);)");
    for (int depth = 0; depth < 3; ++depth) {
      for (std::sregex_iterator it(text.begin(), text.end(), local), stop; it != stop; ++it)
        if (has_word(args, (*it)[1])) args = replace_word(args, (*it)[1], "(" + trimmed((*it)[2]) + ")");
      for (std::sregex_iterator it(text.begin(), text.end(), alias), stop; it != stop; ++it)
        if (has_word(args, (*it)[1])) args = replace_word(args, (*it)[1], trimmed((*it)[2]));
    }
    if (!has_word(args, "scalar_t")) return {trimmed(args)};
    static const std::regex macro(R"(\b(AT_DISPATCH_\w+)\s*\()");
    std::string innermost;
    size_t innermost_open = 0;
    for (std::sregex_iterator it(mask.begin(), mask.end(), macro), stop; it != stop; ++it) {
      size_t open = static_cast<size_t>(it->position(0) + it->length(0) - 1);
      size_t close = matching(mask, open, mask.size());
      if (open < at && at < close) {
        innermost = (*it)[1];
        innermost_open = open;
      }
    }
    if (innermost.empty()) throw GiveUp{"a template kernel launched with scalar_t outside an AT_DISPATCH macro"};
    auto known = dispatch_types().find(innermost);
    if (known == dispatch_types().end()) throw GiveUp{innermost + " (a dispatch macro it does not know)"};
    std::vector<std::string> types = known->second;
    // The extra types of an _AND macro: its first arguments, up to their top-level commas.
    size_t from = innermost_open + 1;
    for (int k = 0; k < extra_type_arguments(innermost); ++k) {
      size_t comma = from;
      for (int depth = 0; comma < mask.size(); ++comma) {
        if (mask[comma] == '(' || mask[comma] == '<') ++depth;
        if (mask[comma] == ')' || mask[comma] == '>') --depth;
        if (depth == 0 && mask[comma] == ',') break;
      }
      std::string type = c10_type_named(text.substr(from, comma - from));
      if (type.empty()) throw GiveUp{innermost + " with a type other than Half or BFloat16"};
      types.push_back(type);
      from = comma + 1;
    }
    std::vector<std::string> out;
    for (const auto& type : types) {
      if (type == "c10::Half") needs_half_ = true;
      if (type == "c10::BFloat16") needs_bfloat16_ = true;
      out.push_back(trimmed(replace_word(args, "scalar_t", type)));
    }
    return out;
  }

  // `#define NAME(PARAMS) BODY` whose body launches a kernel (`#define LAUNCH(B) k<B><<<g, B>>>(x)`,
  // a switch over block sizes): remembered, so that host code calling it is read with the launch
  // written out. g++ cannot read `<<<`, so unexpanded the host part would not compile.
  void remember_launch_macro(const std::string& line) {
    auto macro = function_like_macro(line);
    if (macro && code_mask(macro->body).find("<<<") != std::string::npos) launch_macros_[macro->name] = std::move(*macro);
  }

  bool names_a_launch_macro(const std::string& mask) const {
    return std::any_of(launch_macros_.begin(), launch_macros_.end(), [&](const auto& m) { return has_word(mask, m.first); });
  }

  // `text` (and its mask) with every call of a launch macro replaced by its body, the arguments
  // put in for the parameters as the preprocessor does (`#p` quoted, `a ## b` pasted, as for the
  // kernel-defining macros of kernel_macros.hpp). A variadic one, or a call with the wrong number
  // of arguments, gives up.
  std::string expand_launch_macros(const std::string& text, const std::string& mask) const {
    std::string out;
    size_t copied = 0;
    for (size_t at = 0; at < mask.size(); ++at) {
      if (!ident_char(mask[at]) || (at > 0 && ident_char(mask[at - 1]))) continue;
      size_t end = at;
      while (end < mask.size() && ident_char(mask[end])) ++end;
      auto macro = launch_macros_.find(text.substr(at, end - at));
      size_t open = end;
      while (open < mask.size() && std::isspace(static_cast<unsigned char>(mask[open]))) ++open;
      if (macro == launch_macros_.end() || open >= mask.size() || mask[open] != '(') {
        at = end - 1;
        continue;
      }
      const FunctionLikeMacro& m = macro->second;
      if (std::any_of(m.parameters.begin(), m.parameters.end(), [](const std::string& p) { return p == "..."; }))
        throw GiveUp{"launch macro " + macro->first + " takes variadic arguments"};
      const size_t close = matching(mask, open, mask.size());
      std::vector<std::string> arguments = top_level_parts(text, mask, open + 1, close, /*angles=*/false);
      if (arguments.empty() && !m.parameters.empty()) arguments.push_back("");  // `L()`: one empty argument
      if (arguments.size() != m.parameters.size())
        throw GiveUp{"launch macro " + macro->first + " called with " + std::to_string(arguments.size()) + " arguments"};
      out += text.substr(copied, at - copied) + macro_expansion(m, arguments);
      copied = close + 1;
      at = close;
    }
    return out + text.substr(copied);
  }

  // `#define NAME BODY` (no parameters): remembered, so that a launch through NAME is read as a
  // launch of what BODY names (`#define RELU relu_kernel<4>` then `RELU<<<g, b>>>(...)`).
  void remember_object_macro(const std::string& line) {
    static const std::regex define(R"(^\s*#\s*define\s+([A-Za-z_]\w*)(\s+(.*))?\n?$)");
    std::smatch m;
    if (std::regex_match(line, m, define)) object_macros_[m[1]] = trimmed(m[3]);
  }

  // What a name used as a kernel stands for: itself, or the kernel (and template arguments) an
  // object-like macro of that name holds.
  struct KernelName {
    std::string name;            // possibly qualified: ops::fill
    std::string template_args;  // the text between the brackets, when written
    bool explicit_arguments = false;
  };
  KernelName through_macro(KernelName k) const {
    auto macro = object_macros_.find(k.name);
    if (k.explicit_arguments || macro == object_macros_.end()) return k;
    static const std::regex named(R"(^([A-Za-z_][\w:]*)\s*(<(.*)>)?$)");
    std::smatch m;
    if (!std::regex_match(macro->second, m, named)) return k;
    return {m[1], m[3], m[2].matched};
  }

  // Whether host code `mask` names a template kernel, directly or through an object-like macro.
  bool names_a_template_kernel(const std::string& mask) const {
    for (const auto& [name, kernel] : template_kernels_)
      if (has_word(mask, name)) return true;
    for (const auto& [macro, body] : object_macros_)
      if (has_word(mask, macro) && template_kernels_.count(through_macro({macro, "", false}).name)) return true;
    return false;
  }

  // The host part's expression for a kernel named in host code (`k`, `ops::k<float, 4>`): a plain
  // kernel is its own name; a template kernel's instance is the address the device part hands
  // out, and the instance is recorded so the device part defines it. `at`: where in the item.
  std::string host_kernel_expression(const KernelName& k, const std::string& text, const std::string& mask, size_t at,
                                     bool in_template) {
    const std::string unqualified = unqualified_name(k.name);
    const std::string qualifier = k.name.substr(0, k.name.size() - unqualified.size());
    auto known = template_kernels_.find(unqualified);
    if (known == template_kernels_.end()) {
      if (k.explicit_arguments) throw GiveUp{"a launch of a template kernel it did not see defined"};
      return k.name;
    }
    if (!k.explicit_arguments) throw GiveUp{"a template kernel launched with its arguments deduced"};
    if (in_template) throw GiveUp{"a template kernel launched from a template function"};
    for (auto& concrete : concrete_arguments(k.template_args, text, mask, at)) known->second.instances.insert(concrete);
    return "reinterpret_cast<decltype(&" + k.name + "<" + k.template_args + ">)>(" + qualifier + "kforge_split_address_" +
           unqualified + "<" + k.template_args + ">())";
  }

  // The kernel name (and written template arguments) that ends at `end` of `mask`; `start` is set
  // to where it begins. Empty name where there is none.
  KernelName kernel_name_before(const std::string& text, const std::string& mask, size_t end, size_t& start) const {
    KernelName k;
    size_t name_end = end;
    while (name_end > 0 && std::isspace(static_cast<unsigned char>(mask[name_end - 1]))) --name_end;
    if (name_end > 0 && mask[name_end - 1] == '>') {
      k.explicit_arguments = true;
      size_t lt = name_end - 1;
      for (int depth = 0;; --lt) {
        if (mask[lt] == '>') ++depth;
        if (mask[lt] == '<' && --depth == 0) break;
        if (lt == 0) throw GiveUp{"a launch of a template kernel it cannot read"};
      }
      k.template_args = text.substr(lt + 1, name_end - 1 - lt - 1);
      name_end = lt;
      while (name_end > 0 && std::isspace(static_cast<unsigned char>(mask[name_end - 1]))) --name_end;
    }
    start = name_end;
    while (start > 0 && (ident_char(mask[start - 1]) || mask[start - 1] == ':')) --start;
    k.name = text.substr(start, name_end - start);
    return k;
  }

  // Rewrites each `name<<<config>>>(args)` of a host item (`text`, and `mask`, its code_mask) into
  // a call of kforge_split::launch, and every other naming of a template kernel's instance
  // (cudaFuncSetAttribute for more shared memory, an occupancy query) into the address the device
  // part hands out: the instance's own host stub has internal linkage there, and a reference to
  // it would link to nothing. `in_template`: the item is itself a template, whose own parameters
  // a launch's template arguments could name.
  std::string rewrite_launches(const std::string& text, const std::string& mask, bool in_template) {
    struct Edit {
      size_t start, end;
      std::string by;
    };
    std::vector<Edit> edits;
    for (size_t open = mask.find("<<<"); open != std::string::npos; open = mask.find("<<<", open + 3)) {
      size_t name_start = 0;
      KernelName written = kernel_name_before(text, mask, open, name_start);
      if (written.name.empty()) throw GiveUp{"a launch whose kernel it cannot name"};
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
      KernelName launched = through_macro(written);
      auto templated = template_kernels_.find(unqualified_name(launched.name));
      if (templated != template_kernels_.end() && !launched.explicit_arguments) {
        // `k<<<g, b>>>(x.data_ptr<scalar_t>(), ...)`: the argument nvcc deduces, written.
        const size_t args_close = matching(mask, args_open, mask.size());
        const std::string type =
            deduced_argument(templated->second, top_level_parts(text, mask, args_open + 1, args_close));
        if (!type.empty()) launched = {launched.name, type, true};
      }
      std::string kernel = host_kernel_expression(launched, text, mask, open, in_template);
      if (auto overloads = kernel_signatures_.find(unqualified_name(launched.name));
          overloads != kernel_signatures_.end() && overloads->second.size() > 1 && !launched.explicit_arguments) {
        const size_t args_close = matching(mask, args_open, mask.size());
        const std::string qualifier = launched.name.substr(0, launched.name.size() - overloads->first.size());
        kernel = "static_cast<decltype(" + qualifier + "kforge_split_pick_" + overloads->first +
                 text.substr(args_open, args_close - args_open + 1) + ")>(&" + launched.name + ")";
      }
      std::string config = text.substr(open + 3, close - open - 3);
      edits.push_back({name_start, args_open, "::kforge_split::launch(" + kernel + ", " + config + ")"});
      open = close;
    }
    // Template kernels (or macros naming their instances) named outside a launch.
    auto in_edit = [&](size_t at) {
      return std::any_of(edits.begin(), edits.end(), [&](const Edit& e) { return at >= e.start && at < e.end; });
    };
    std::vector<Edit> references;
    for (size_t at = 0; at < mask.size(); ++at) {
      if (!ident_char(mask[at]) || (at > 0 && (ident_char(mask[at - 1]) || mask[at - 1] == ':'))) continue;
      size_t word_end = at;
      while (word_end < mask.size() && (ident_char(mask[word_end]) || mask[word_end] == ':')) ++word_end;
      size_t before = at;
      while (before > 0 && std::isspace(static_cast<unsigned char>(mask[before - 1]))) --before;
      if (before > 0 && (mask[before - 1] == '.' || (before > 1 && mask.compare(before - 2, 2, "->") == 0))) {
        at = word_end - 1;  // a member (`x.size`), whatever kernel or variable shares its name
        continue;
      }
      std::string word = text.substr(at, word_end - at);
      const std::string unqualified = unqualified_name(word);
      if (device_variables_.count(unqualified) && !in_edit(at)) {
        references.push_back({at, word_end, device_variable_expression(word, unqualified)});
        at = word_end - 1;
        continue;
      }
      KernelName k = through_macro({word, "", false});
      const bool template_kernel = template_kernels_.count(unqualified) ||
                                   (k.name != word && template_kernels_.count(unqualified_name(k.name)));
      if (!template_kernel || in_edit(at)) {
        at = word_end - 1;
        continue;
      }
      size_t end = word_end;
      if (k.name == word) {  // written directly: its template arguments follow
        size_t lt = end;
        while (lt < mask.size() && std::isspace(static_cast<unsigned char>(mask[lt]))) ++lt;
        if (lt >= mask.size() || mask[lt] != '<')
          throw GiveUp{"template kernel " + unqualified + " named outside a launch without its template arguments"};
        size_t gt = lt;
        for (int depth = 0; gt < mask.size(); ++gt) {
          if (mask[gt] == '<') ++depth;
          if (mask[gt] == '>' && --depth == 0) break;
        }
        if (gt >= mask.size()) throw GiveUp{"a template kernel's arguments it cannot read"};
        k = {word, text.substr(lt + 1, gt - lt - 1), true};
        end = gt + 1;
      }
      references.push_back({at, end, host_kernel_expression(k, text, mask, at, in_template)});
      at = end - 1;
    }
    edits.insert(edits.end(), references.begin(), references.end());
    // Right to left, so earlier offsets stay valid while later text changes length.
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.start > b.start; });
    std::string out = text;
    for (const auto& e : edits) out.replace(e.start, e.end - e.start, e.by);
    return out;
  }

  const std::string& s_;
  std::string m_;
  std::vector<Item> items_;
  std::vector<std::string> namespaces_;  // openers of the namespaces being parsed
  std::map<std::string, TemplateKernel> template_kernels_;
  std::map<std::string, std::string> object_macros_;  // `#define NAME BODY` without parameters
  std::map<std::string, FunctionLikeMacro> launch_macros_;   // `#define NAME(PARAMS) ...<<<...>>>...`
  struct DeviceVariable {
    std::string type;    // "float"
    std::string bounds;  // "[256]", or empty
  };
  std::map<std::string, DeviceVariable> device_variables_;  // __constant__ and __device__ variables
  std::map<std::string, std::vector<std::string>> kernel_signatures_;  // parameter lists per non-template kernel
  int anonymous_count_ = 0;
  bool needs_half_ = false, needs_bfloat16_ = false;
};

}  // namespace

SplitAttempt split_cuda_source(const std::string& cuda_source) {
  SplitAttempt attempt;
  try {
    std::string source;
    try {
      source = expand_kernel_macros(cuda_source);
    } catch (const std::invalid_argument& e) {
      throw GiveUp{e.what()};
    }
    Splitter splitter(source);
    std::vector<Item> items = splitter.run();
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
    else split.device_cu = splitter.device_includes() +
                           // c10's macros (C10_LAUNCH_BOUNDS_1, C10_HOST_DEVICE): a small header nvcc reads alone.
                           (std::regex_search(split.device_cu, std::regex(R"(\bC10_[A-Z0-9_]+)")) ? "#include <c10/macros/Macros.h>\n" : "") +
                           (uses_tensor_accessors(split.device_cu) ? kDeviceAccessors : "") + split.device_cu;
    if (any_kernel && has_word(split.host_cpp, "RestrictPtrTraits")) {
      // After the torch include at its head, before the candidate's code.
      const size_t after_includes = split.host_cpp.find(kLauncher);
      split.host_cpp.insert(after_includes, kHostRestrictPtrTraits);
    }
    attempt.split = std::move(split);
  } catch (const GiveUp& g) {
    attempt.why_not = g.why;
  }
  return attempt;
}

}  // namespace kforge::build
