#pragma once
// What every `kforge report --html` page carries inline (no file beside it, nothing fetched): its
// style sheet, its two scripts, and the colours that mean the same thing in every chart.
#include <string>
#include <string_view>

namespace kforge::report::html_assets {

// The page's CSS: system fonts only (a web font would need the network or a file beside the page).
extern const std::string_view kStyle;

// The first thing in <body>: records any script error in document.body.dataset.errors, so a
// headless browser (the CPU test) can tell a page whose script broke from one that works.
extern const std::string_view kErrorRecorder;

// The last thing in <body>: click-to-sort on every `table.sortable` (numbers by a cell's data-v,
// missing values last in either direction; text by the cell's text), then
// document.body.dataset.ready = "1".
extern const std::string_view kSortScript;

// A verdict's colour: the badge in the tables, the segment in the verdict bars, the dot in the
// agent's trajectory. An agent attempt's outcome that is no verdict (no_code, a call's error) is grey.
std::string verdict_colour(std::string_view verdict);

// A verdict as a coloured badge (<span class="badge">), its text escaped.
std::string verdict_badge(std::string_view verdict);

// The colour of the index-th line of a chart (a level); "all" is drawn in kAllColour.
std::string series_colour(size_t index);
inline constexpr std::string_view kAllColour = "#222222";

}  // namespace kforge::report::html_assets
