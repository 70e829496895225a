#pragma once
// The charts of `kforge report --html`, written as inline SVG by hand. Why not a chart library:
// the page must open without a network (no script from a CDN), the project vendors nothing, and
// the output must be deterministic text a unit test can read (the same records give the same
// bytes: coordinates rounded to 0.1 px, no random jitter, no time stamps). Four shapes cover
// the page: lines and dots over two numeric axes, a histogram, horizontal stacked bars, and a
// strip of samples with their box.
//
// Every label and tooltip is plain text, escaped here. Values that are not finite are left out.
// A chart with nothing to draw still gives a well-formed <svg> that says "no data".
#include <string>
#include <vector>

namespace kforge::report::svg {

struct Tick {
  double at = 0;
  std::string label;
};

struct Axis {
  std::string title;
  double min = 0, max = 1;
  std::vector<Tick> ticks;  // empty: about five evenly spaced round values, labelled {:g}
};

// A dashed vertical line across the plot at `x`, labelled at its top.
struct Marker {
  double x = 0;
  std::string label;
};

struct Point {
  double x = 0, y = 0;
  std::string tooltip;  // shown on hover (an SVG <title>); empty: none
  std::string colour;   // dots only; empty: the series'
};

enum class SeriesStyle {
  line,  // straight segments through the points in order
  step,  // horizontal then vertical: a value that holds until the next point (best so far)
  dots,  // a circle per point
};

struct Series {
  std::string name;  // in the legend; empty: not listed
  std::string colour;
  SeriesStyle style = SeriesStyle::line;
  std::vector<Point> points;
};

struct XYChart {
  std::string title;  // the SVG's accessible name
  Axis x, y;
  std::vector<Series> series;
  std::vector<Marker> markers;
  int width = 720, height = 340;  // [px]
};
std::string xy_chart(const XYChart& chart);

struct Bin {
  double from = 0, to = 0;  // on the x axis
  double count = 0;
  std::string tooltip;
};

struct Histogram {
  std::string title;
  Axis x;
  std::string y_title;
  std::vector<Bin> bins;
  std::vector<Marker> markers;
  std::string colour = "#4c78a8";
  int width = 720, height = 300;  // [px]
};
std::string histogram(const Histogram& chart);

struct Segment {
  std::string name;  // in the legend and the tooltip
  double value = 0;
  std::string colour;
};

struct StackedRow {
  std::string label;
  std::vector<Segment> segments;  // drawn left to right, each as wide as its share of the row's total
};

// One horizontal bar per row, every bar the full width (shares, not absolute counts), a legend of
// the segment names that occur.
struct StackedBars {
  std::string title;
  std::vector<StackedRow> rows;
  int width = 720;  // [px]; the height follows from the rows
};
std::string stacked_bars(const StackedBars& chart);

struct SampleRow {
  std::string label;
  std::vector<double> values;
  std::string colour;
};

// Per row: each value as a dot (spread vertically in a fixed pattern so equal values stay
// visible), and a box from the first to the third quartile with the median marked. One shared
// x axis from the smallest to the largest value of all rows.
struct SampleStrip {
  std::string title;
  std::string x_title;
  std::vector<SampleRow> rows;
  int width = 720;  // [px]
};
std::string sample_strip(const SampleStrip& chart);

// About `count` round values (1, 2 or 5 times a power of ten apart) covering [min, max].
std::vector<Tick> round_ticks(double min, double max, int count = 5);

}  // namespace kforge::report::svg
