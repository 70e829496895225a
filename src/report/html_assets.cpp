#include "report/html_assets.hpp"

#include <array>
#include <utility>

#include "report/html_escape.hpp"

namespace kforge::report::html_assets {

const std::string_view kStyle = R"css(
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; font-size: 14px;
       color: #1d1d1f; background: #fafafa; margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 0 0 6px; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.note { color: #555; margin: 4px 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 10px 0; }
.card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.card .value { font-size: 20px; font-weight: 600; }
.card .label { color: #555; font-size: 12px; }
table { border-collapse: collapse; background: #fff; margin: 6px 0; }
th, td { border: 1px solid #e2e2e2; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \2195"; color: #aaa; }
table.sortable th[aria-sort="ascending"]::after { content: " \25B2"; color: #333; }
table.sortable th[aria-sort="descending"]::after { content: " \25BC"; color: #333; }
td.msg { min-width: 240px; max-width: 420px; overflow-wrap: anywhere; color: #444; }
td.name { min-width: 12em; max-width: 300px; overflow-wrap: anywhere; }
.badge { display: inline-block; color: #fff; border-radius: 4px; padding: 0 6px; font-size: 12px; white-space: nowrap; }
.rule { color: #555; font-size: 12px; }
.few { color: #b26a00; font-size: 12px; }
svg.chart { display: block; max-width: 100%; height: auto; background: #fff; border: 1px solid #e2e2e2;
            border-radius: 4px; margin: 6px 0; font-size: 12px; }
svg.chart text { fill: #333; }
svg.chart .axis { stroke: #777; }
svg.chart .tick { stroke: #777; }
svg.chart .grid { stroke: #ececec; }
svg.chart .marker { stroke: #999; stroke-dasharray: 3 3; }
svg.chart .marker-label { fill: #666; font-size: 11px; }
svg.chart .series { fill: none; stroke-width: 2; }
svg.chart .axis-title { fill: #555; }
svg.chart .nodata { fill: #999; font-size: 14px; }
svg.chart .in-bar { fill: #fff; font-size: 11px; }
svg.chart .empty-bar { fill: #f3f3f3; stroke: #ddd; }
svg.chart .box { fill: none; stroke-width: 1.5; }
svg.chart .median { stroke-width: 2.5; }
svg.chart .sample { fill-opacity: 0.55; }
svg.chart .dot { stroke: #fff; stroke-width: 1; }
section.problem { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
section.problem:target { border-color: #4c78a8; box-shadow: 0 0 0 2px #4c78a833; }
pre.source { max-height: 28em; overflow: auto; background: #f6f8fa; border: 1px solid #e2e2e2; padding: 8px;
             margin: 4px 0; white-space: pre; tab-size: 4; }
details summary { cursor: pointer; color: #333; margin: 4px 0; }
.pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 0 24px; }
.pair > section { min-width: 0; }
.wide { overflow-x: auto; }  /* a table wider than its column scrolls in it, never past the page */
.charts-row { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
)css";

const std::string_view kErrorRecorder = R"js(
window.onerror = function (message, source, line, column) {
  var b = document.body, text = String(message) + " (line " + line + ":" + column + ")";
  b.dataset.errors = b.dataset.errors ? b.dataset.errors + "\n" + text : text;
};
)js";

const std::string_view kSortScript = R"js(
(function () {
  // A cell's sort key: its data-v number, or null when it has none (missing values sort last in
  // either direction); a text column's key is the cell's text.
  function key(row, column, numeric) {
    var cell = row.cells[column];
    if (!numeric) return cell.textContent.trim().toLowerCase();
    var v = cell.getAttribute("data-v");
    return v === null || v === "" ? null : parseFloat(v);
  }
  function sortBy(table, column, numeric, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {  // stable: equal keys keep their order
      var x = key(a, column, numeric), y = key(b, column, numeric);
      if (x === null || y === null) return x === y ? 0 : (x === null ? 1 : -1);
      var c = numeric ? x - y : x.localeCompare(y);
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (th, column) {
      var numeric = th.getAttribute("data-type") === "number";
      function activate() {
        // A new column starts with the largest numbers or the first names; a second click turns it.
        var now = th.getAttribute("aria-sort");
        var descending = now ? now === "ascending" : numeric;
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        sortBy(table, column, numeric, descending);
      }
      th.tabIndex = 0;
      th.addEventListener("click", activate);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); }
      });
    });
  });
  document.body.dataset.ready = "1";
})();
)js";

std::string verdict_colour(std::string_view verdict) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kColours{{
      {"correct", "#2e7d32"},
      {"incorrect", "#c62828"},
      {"rejected", "#6a1b9a"},
      {"compile_error", "#e65100"},
      {"load_error", "#795548"},
      {"runtime_error", "#ad1457"},
      {"timeout", "#b28704"},
      {"crashed", "#37474f"},
  }};
  for (const auto& [name, colour] : kColours)
    if (name == verdict) return std::string(colour);
  return "#9e9e9e";
}

std::string verdict_badge(std::string_view verdict) {
  return "<span class=\"badge\" style=\"background:" + verdict_colour(verdict) + "\">" + html_escaped(verdict) +
         "</span>";
}

std::string series_colour(size_t index) {
  static constexpr std::array<std::string_view, 6> kPalette{"#4c78a8", "#f58518", "#54a24b",
                                                            "#e45756", "#72b7b2", "#b279a2"};
  return std::string(kPalette[index % kPalette.size()]);
}

}  // namespace kforge::report::html_assets
