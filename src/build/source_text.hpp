#pragma once
// Reading C++/CUDA source as code: the static checks of native candidates and the splitter of
// load_inline sources both need the text with comments out of the way.
#include <string>

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

}  // namespace kforge::build
