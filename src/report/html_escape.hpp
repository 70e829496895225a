#pragma once
// Text from a record (a problem's or candidate's name, a message, a candidate's source) placed in
// an HTML page. Names and messages are anyone's choice: a name with `<script>` must show as text,
// never run, and a quote must not end an attribute early.
#include <string>
#include <string_view>

namespace kforge::report {

// & < > " ' as character references; every other character as is. Safe in element text and in a
// double- or single-quoted attribute value. For a source in <pre>: newlines and tabs stay.
std::string html_escaped(std::string_view text);

// A name or a one-line message: control characters (newlines, escape codes) shown as visible
// escapes ("\n", "\x1b") first, as the terminal tables show them, then html_escaped.
std::string html_name(std::string_view name);

// html_name with a line-break opportunity (<wbr>) after each '/' and '_', so a long path in a
// narrow table cell breaks between its parts rather than inside a word.
std::string html_breakable_name(std::string_view name);

}  // namespace kforge::report
