#pragma once
// Number formatting shared by the reporters.
#include <optional>
#include <string>

#include "metrics/statistics.hpp"

namespace kforge::report {

std::string format_ms(std::optional<double> ms);  // "0.512", "12.3", "-"
std::string format_speedup(std::optional<double> speedup, std::optional<stats::Interval> ci);  // "1.02x [0.99, 1.05]"
std::string format_error(std::optional<double> e);  // "3.1e-06", "-"
// Cuts to `width` display columns with an ellipsis; newlines become spaces.
std::string one_line(const std::string& text, size_t width);

// A name (a file a user or model chose, a problem's) as a terminal should show it: control
// characters (newlines, escape codes that would move the cursor or recolour the screen) written
// as visible escapes ("\n", "\x1b"), everything else as is.
std::string escaped(const std::string& name);

// The width a table printed on stdout should keep to: the terminal's columns when stdout is one,
// else $COLUMNS when set, else 0 (no limit: a file or a pipe gets every cell whole).
size_t output_columns();

}  // namespace kforge::report
