#pragma once
// Reading C++/CUDA source as code: the static checks of native candidates and the splitter of
// load_inline sources both need the text with comments out of the way.
#include <optional>
#include <string>
#include <vector>

namespace kforge::build {

struct MaskedSource {
  std::string text;         // same length as the source, newlines kept
  bool has_raw_string = false;  // an R"(...)" literal, which the mask does not understand
};

// The source with comments blanked to spaces; with `blank_literals`, the insides of string and
// character literals too (their quotes stay). Offsets into the mask are offsets into the source.
MaskedSource mask_source(const std::string& source, bool blank_literals);

// A character of a C++ identifier.
bool ident_char(char c);

// `text` without its leading and trailing spaces, tabs and newlines.
std::string trimmed(const std::string& text);

// Where the logical line starting at `i` ends (a newline no backslash continues; the size at the end).
size_t logical_line_end(const std::string& source, size_t i);

// `#define NAME(PARAMS) BODY`, read from one preprocessor line (its continuations joined, its
// comments blanked: a body's `// ...` written out mid-line would swallow the rest of that line;
// literals kept, so `#x` and strings stay as written). The splitter's launch macros and kernel
// macros are both such macros.
struct FunctionLikeMacro {
  std::string name;
  std::vector<std::string> parameters;  // trimmed; `...` kept as written
  std::string body;                     // trimmed
};
std::optional<FunctionLikeMacro> function_like_macro(const std::string& define_line);
// The macro's body with `arguments` put in for its parameters as the preprocessor does, unexpanded:
// `#p` quoted, `a ## b` pasted (a variadic macro's `__VA_ARGS__` is not: callers refuse those).
std::string macro_expansion(const FunctionLikeMacro& macro, const std::vector<std::string>& arguments);

}  // namespace kforge::build
