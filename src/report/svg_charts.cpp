#include "report/svg_charts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "metrics/statistics.hpp"
#include "report/html_escape.hpp"

namespace kforge::report::svg {
namespace {

// Room around the plot area for the legend (top), the y labels (left) and the x labels and
// title (bottom) [px].
constexpr double kLeft = 64, kRight = 20, kTop = 34, kBottom = 50;
constexpr double kCharWidth = 7;  // a rough width of one character of the 12 px labels [px]

// Coordinates at 0.1 px: enough for any screen, and the same value always prints the same way.
std::string px(double v) { return fmt::format("{:.1f}", v); }

bool finite(double v) { return std::isfinite(v); }

// An axis that can be drawn: finite ends, the larger above the smaller.
Axis drawable(Axis a) {
  if (!finite(a.min)) a.min = 0;
  if (!finite(a.max)) a.max = a.min + 1;
  if (a.max < a.min) std::swap(a.min, a.max);
  if (a.max == a.min) {
    a.min -= 0.5;
    a.max += 0.5;
  }
  if (a.ticks.empty()) a.ticks = round_ticks(a.min, a.max);
  return a;
}

// The plot area and the mapping of values into it.
struct Frame {
  double left, top, width, height;
  Axis x, y;
  double to_x(double v) const {
    return left + width * (std::clamp(v, x.min, x.max) - x.min) / (x.max - x.min);
  }
  double to_y(double v) const {
    return top + height - height * (std::clamp(v, y.min, y.max) - y.min) / (y.max - y.min);
  }
  double right() const { return left + width; }
  double bottom() const { return top + height; }
};

std::string open_svg(const std::string& title, double width, double height) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "role=\"img\" aria-label=\"{2}\"><title>{2}</title>\n",
      px(width), px(height), html_escaped(title));
}

std::string no_data(double width, double height) {
  return fmt::format("<text class=\"nodata\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">no data</text>\n", px(width / 2),
                     px(height / 2));
}

std::string tooltip(const std::string& text) {
  return text.empty() ? std::string() : "<title>" + html_escaped(text) + "</title>";
}

// Grid lines at the y ticks, tick labels on both axes, the axis titles, the frame's two axes.
std::string axes(const Frame& f, bool y_grid) {
  std::string out = "<g class=\"axes\">\n";
  for (const auto& t : f.y.ticks) {
    if (t.at < f.y.min || t.at > f.y.max) continue;
    const double y = f.to_y(t.at);
    if (y_grid)
      out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", px(f.left), px(y),
                         px(f.right()), px(y));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", px(f.left - 6), px(y + 4),
                       html_escaped(t.label));
  }
  for (const auto& t : f.x.ticks) {
    if (t.at < f.x.min || t.at > f.x.max) continue;
    const double x = f.to_x(t.at);
    out += fmt::format("<line class=\"tick\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", px(x), px(f.bottom()),
                       px(f.bottom() + 4));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(x), px(f.bottom() + 17),
                       html_escaped(t.label));
  }
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>", px(f.left), px(f.bottom()),
                     px(f.right()));
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", px(f.left), px(f.top),
                     px(f.bottom()));
  if (!f.x.title.empty())
    out += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       px(f.left + f.width / 2), px(f.bottom() + 38), html_escaped(f.x.title));
  if (!f.y.title.empty())
    out += fmt::format(
        "<text class=\"axis-title\" x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" transform=\"rotate(-90 {0} {1})\">{2}"
        "</text>\n",
        px(14), px(f.top + f.height / 2), html_escaped(f.y.title));
  return out + "</g>\n";
}

std::string markers(const Frame& f, const std::vector<Marker>& list) {
  std::string out;
  for (const auto& m : list) {
    if (!finite(m.x) || m.x < f.x.min || m.x > f.x.max) continue;
    const double x = f.to_x(m.x);
    out += fmt::format("<line class=\"marker\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", px(x), px(f.top),
                       px(f.bottom()));
    if (!m.label.empty())
      out += fmt::format("<text class=\"marker-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", px(x),
                         px(f.top - 4), html_escaped(m.label));
    out += "\n";
  }
  return out;
}

struct LegendEntry {
  std::string name, colour;
};

constexpr double kLegendLine = 18;  // one line of the legend [px]

// Coloured swatches and names, from `x` along the top edge, on as many lines as keep them left
// of `right`; `lines` is set to how many that took.
std::string legend(const std::vector<LegendEntry>& entries, double x, double y, double right = INFINITY,
                   int* lines = nullptr) {
  std::string out = "<g class=\"legend\">";
  const double left = x;
  int used = entries.empty() ? 0 : 1;
  for (const auto& e : entries) {
    const double step = 16 + kCharWidth * static_cast<double>(e.name.size()) + 14;
    if (x > left && x + step - 14 > right) {
      x = left;
      y += kLegendLine;
      ++used;
    }
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>", px(x), px(y - 10),
                       html_escaped(e.colour));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", px(x + 16), px(y), html_escaped(e.name));
    x += step;
  }
  if (lines) *lines = used;
  return out + "</g>\n";
}

std::string series_path(const Frame& f, const Series& s) {
  std::string d;
  bool first = true;
  double last_y = 0;
  for (const auto& p : s.points) {
    if (!finite(p.x) || !finite(p.y)) continue;
    const double x = f.to_x(p.x), y = f.to_y(p.y);
    if (first) d += "M" + px(x) + " " + px(y);
    else if (s.style == SeriesStyle::step) d += " H" + px(x) + " V" + px(y);
    else d += " L" + px(x) + " " + px(y);
    first = false;
    last_y = y;
  }
  if (d.empty()) return "";
  // A step series holds its last value to the right edge.
  if (s.style == SeriesStyle::step) d += " H" + px(f.right()) + " V" + px(last_y);
  return fmt::format("<path class=\"series\" d=\"{}\" stroke=\"{}\"{}/>\n", d, html_escaped(s.colour),
                     s.style == SeriesStyle::step ? " stroke-dasharray=\"5 3\"" : "");
}

std::string series_dots(const Frame& f, const Series& s) {
  std::string out;
  for (const auto& p : s.points) {
    if (!finite(p.x) || !finite(p.y)) continue;
    out += fmt::format("<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\">{}</circle>\n", px(f.to_x(p.x)),
                       px(f.to_y(p.y)), html_escaped(p.colour.empty() ? s.colour : p.colour), tooltip(p.tooltip));
  }
  return out;
}

size_t finite_points(const Series& s) {
  return std::count_if(s.points.begin(), s.points.end(), [](const Point& p) { return finite(p.x) && finite(p.y); });
}

bool has_finite_point(const std::vector<Series>& series) {
  return std::any_of(series.begin(), series.end(), [](const Series& s) { return finite_points(s) > 0; });
}

// Ticks at whole numbers for a count axis from 0 to `max`.
std::vector<Tick> count_ticks(double max) {
  std::vector<Tick> out;
  for (const auto& t : round_ticks(0, max))
    if (t.at == std::floor(t.at)) out.push_back(t);
  if (out.empty() || max <= 5) {
    out.clear();
    for (int i = 0; i <= static_cast<int>(max); ++i) out.push_back({double(i), std::to_string(i)});
  }
  return out;
}

}  // namespace

std::vector<Tick> round_ticks(double min, double max, int count) {
  if (!finite(min) || !finite(max)) return {};
  if (max < min) std::swap(min, max);
  if (max == min || count < 1) return {{min, fmt::format("{:g}", min)}};
  const double raw = (max - min) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double ratio = raw / magnitude;
  const double step = magnitude * (ratio < 1.5 ? 1 : ratio < 3.5 ? 2 : ratio < 7.5 ? 5 : 10);
  std::vector<Tick> out;
  const double first = std::ceil(min / step - 1e-9) * step;
  for (int i = 0;; ++i) {
    double v = first + i * step;
    if (v > max + step * 1e-9) break;
    if (std::abs(v) < step * 1e-9) v = 0;  // no "-0" or "1e-17"
    out.push_back({v, fmt::format("{:g}", v)});
  }
  return out;
}

std::string xy_chart(const XYChart& chart) {
  const double width = chart.width, height = chart.height;
  std::string out = open_svg(chart.title, width, height);
  if (!has_finite_point(chart.series)) return out + no_data(width, height) + "</svg>\n";
  Frame f{kLeft, kTop, width - kLeft - kRight, height - kTop - kBottom, drawable(chart.x), drawable(chart.y)};
  out += axes(f, true);
  out += markers(f, chart.markers);
  for (const auto& s : chart.series) {
    out += s.style == SeriesStyle::dots ? series_dots(f, s) : series_path(f, s);
    // A line through one point draws nothing: show the point.
    if (s.style == SeriesStyle::line && finite_points(s) == 1) out += series_dots(f, s);
  }
  std::vector<LegendEntry> entries;
  for (const auto& s : chart.series)
    if (!s.name.empty()) entries.push_back({s.name, s.colour});
  out += legend(entries, f.left, 14);
  return out + "</svg>\n";
}

std::string histogram(const Histogram& chart) {
  const double width = chart.width, height = chart.height;
  std::string out = open_svg(chart.title, width, height);
  double most = 0;
  for (const auto& b : chart.bins)
    if (finite(b.from) && finite(b.to) && finite(b.count)) most = std::max(most, b.count);
  if (most <= 0) return out + no_data(width, height) + "</svg>\n";
  Axis y{chart.y_title, 0, most, count_ticks(most)};
  Frame f{kLeft, kTop, width - kLeft - kRight, height - kTop - kBottom, drawable(chart.x), drawable(y)};
  out += axes(f, true);
  for (const auto& b : chart.bins) {
    if (!finite(b.from) || !finite(b.to) || !finite(b.count) || b.count <= 0) continue;
    const double x0 = f.to_x(std::min(b.from, b.to)), x1 = f.to_x(std::max(b.from, b.to));
    const double top = f.to_y(b.count);
    out += fmt::format("<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">{}</rect>\n",
                       px(x0 + 0.5), px(top), px(std::max(0.0, x1 - x0 - 1)), px(f.bottom() - top),
                       html_escaped(chart.colour), tooltip(b.tooltip));
  }
  out += markers(f, chart.markers);
  return out + "</svg>\n";
}

std::string stacked_bars(const StackedBars& chart) {
  constexpr double kRow = 22, kGap = 8, kLabel = 96;
  const double width = chart.width;
  // The legend first: its lines (as many as the verdicts need within the width) push the bars down.
  std::vector<LegendEntry> entries;
  for (const auto& row : chart.rows)
    for (const auto& s : row.segments)
      if (finite(s.value) && s.value > 0 &&
          std::none_of(entries.begin(), entries.end(), [&](const LegendEntry& e) { return e.name == s.name; }))
        entries.push_back({s.name, s.colour});
  int legend_lines = 1;
  const std::string key = legend(entries, kLabel, 14, width - kRight, &legend_lines);
  const double top = kTop + kLegendLine * std::max(legend_lines - 1, 0);
  const double height = top + std::max<size_t>(chart.rows.size(), 1) * (kRow + kGap) + 8;
  std::string out = open_svg(chart.title, width, height);
  if (chart.rows.empty()) return out + no_data(width, height) + "</svg>\n";
  const double bar_width = width - kLabel - kRight;
  for (size_t i = 0; i < chart.rows.size(); ++i) {
    const auto& row = chart.rows[i];
    const double y = top + double(i) * (kRow + kGap);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", px(kLabel - 8), px(y + kRow / 2 + 4),
                       html_escaped(row.label));
    double total = 0;
    for (const auto& s : row.segments)
      if (finite(s.value) && s.value > 0) total += s.value;
    if (total <= 0) {
      out += fmt::format("<rect class=\"empty-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", px(kLabel),
                         px(y), px(bar_width), px(kRow));
      continue;
    }
    double x = kLabel;
    for (const auto& s : row.segments) {
      if (!finite(s.value) || s.value <= 0) continue;
      const double w = bar_width * s.value / total;
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">{}</rect>", px(x), px(y),
                         px(w), px(kRow), html_escaped(s.colour),
                         tooltip(fmt::format("{}: {:g} ({:.0f}%)", s.name, s.value, 100 * s.value / total)));
      const std::string count = fmt::format("{:g}", s.value);
      if (w > kCharWidth * double(count.size()) + 6)
        out += fmt::format("<text class=\"in-bar\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", px(x + w / 2),
                           px(y + kRow / 2 + 4), count);
      out += "\n";
      x += w;
    }
  }
  out += key;
  return out + "</svg>\n";
}

std::string sample_strip(const SampleStrip& chart) {
  constexpr double kRow = 40, kLabel = 110;
  const double width = chart.width;
  const double height = kTop + std::max<size_t>(chart.rows.size(), 1) * kRow + kBottom;
  std::string out = open_svg(chart.title, width, height);
  double low = INFINITY, high = -INFINITY;
  for (const auto& row : chart.rows)
    for (double v : row.values)
      if (finite(v)) {
        low = std::min(low, v);
        high = std::max(high, v);
      }
  if (!(low <= high)) return out + no_data(width, height) + "</svg>\n";
  const double pad = high > low ? (high - low) * 0.04 : std::max(std::abs(low) * 0.05, 1e-9);
  Axis x{chart.x_title, low - pad, high + pad, {}};
  Frame f{kLabel, kTop, width - kLabel - kRight, double(chart.rows.size()) * kRow, drawable(x),
          drawable({"", 0, double(chart.rows.size()), {}})};
  f.y.ticks.clear();  // the rows are labelled instead
  out += axes(f, false);
  for (size_t i = 0; i < chart.rows.size(); ++i) {
    const auto& row = chart.rows[i];
    const double centre = f.top + (double(i) + 0.5) * kRow;
    std::vector<double> values;
    for (double v : row.values)
      if (finite(v)) values.push_back(v);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", px(kLabel - 8), px(centre + 4),
                       html_escaped(row.label));
    if (values.empty()) continue;
    const double q1 = stats::quantile(values, 0.25), q3 = stats::quantile(values, 0.75);
    const double median = stats::median(values);
    out += fmt::format("<rect class=\"box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke=\"{}\">{}</rect>",
                       px(f.to_x(q1)), px(centre - 11), px(std::max(1.0, f.to_x(q3) - f.to_x(q1))), px(22),
                       html_escaped(row.colour),
                       tooltip(fmt::format("{}: median {:.4g}, quartiles {:.4g} to {:.4g}, {} values", row.label,
                                           median, q1, q3, values.size())));
    out += fmt::format("<line class=\"median\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"/>\n",
                       px(f.to_x(median)), px(centre - 13), px(centre + 13), html_escaped(row.colour));
    for (size_t k = 0; k < values.size(); ++k) {
      // A fixed spread in [-0.5, 0.5) of the row: dots of equal values sit apart, and the same
      // samples always land in the same places.
      const double spread = double((k * 7) % 13) / 13.0 - 0.5;
      out += fmt::format("<circle class=\"sample\" cx=\"{}\" cy=\"{}\" r=\"2.2\" fill=\"{}\"/>", px(f.to_x(values[k])),
                         px(centre + spread * kRow * 0.7), html_escaped(row.colour));
    }
    out += "\n";
  }
  return out + "</svg>\n";
}

}  // namespace kforge::report::svg
