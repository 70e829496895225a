#pragma once
// Prompt templates: text files (prompts/*.md) with {{variable}} slots. A slot the caller does not
// fill is an error naming the file, the line and the variables it knows: a typo in an edited
// template never reaches a model as literal braces.
#include <map>
#include <string>

namespace kforge::generate {

// Fills every {{name}} of `text` (read from `origin`, for messages) from `values`; throws
// kforge::Error at the first unknown or unterminated slot.
std::string render(const std::string& text, const std::string& origin, const std::map<std::string, std::string>& values);

}  // namespace kforge::generate
