#pragma once
// The candidate in a model's answer: the last complete fenced code block whose language tag fits
// the format asked for (kernelbench and triton: python; cuda: cuda, cu, c++, cpp; cpp: cpp, c++).
// An answer with no complete block is `no_code`; one whose blocks are all in another language is
// `wrong_format`. The raw answer is kept by the caller either way.
#include <optional>
#include <string>

namespace kforge::generate {

struct Extraction {
  std::optional<std::string> code;
  std::string outcome;  // "ok" | "no_code" | "wrong_format"
  std::string message;  // why, when not ok
};

Extraction extract_code(const std::string& answer, const std::string& format);

}  // namespace kforge::generate
