// kforge report --html through the real binary on a real CPU run, and the page rendered by a
// real browser: headless Chromium loads it from disk (nothing else to fetch), its script must
// finish (data-ready="1") without an error (no data-errors), sorting must work when a header is
// clicked, and a screenshot must come out. Without a chromium binary the rendering part skips,
// unless KFORGE_REQUIRE_CHROMIUM=1 (as .ci/run sets), where it fails.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "store/store.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"
#if KFORGE_WITH_LLM
#include "support/fake_model_server.hpp"
#endif

namespace kforge::testing {
namespace {

const std::vector<std::string> kQuick{"--device", "cpu", "--timeout", "60", "--max-time", "0.3", "--min-time", "0",
                                      "--min-samples", "5"};

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The browser: $KFORGE_CHROMIUM, else the first of Debian's and Google's names on PATH.
std::optional<std::string> find_chromium() {
  if (const char* given = std::getenv("KFORGE_CHROMIUM"); given && *given) return std::string(given);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    for (const char* name : {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}) {
      const auto candidate = std::filesystem::path(dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  return std::nullopt;
}

bool chromium_required() {
  const char* v = std::getenv("KFORGE_REQUIRE_CHROMIUM");
  return v && std::string(v) == "1";
}

// Headless Chromium on `page` with `args` (a dump or a screenshot), its own profile folder, and a
// deadline so a browser that hangs fails the test instead of holding it.
CommandResult chromium(const std::string& browser, const TempDir& dir, const std::string& page,
                       std::vector<std::string> args) {
  std::vector<std::string> argv;
  if (::access("/usr/bin/timeout", X_OK) == 0) argv = {"/usr/bin/timeout", "180"};
  argv.insert(argv.end(), {browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--user-data-dir=" + dir.file("chromium-profile")});
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("file://" + page);
  return run_command(argv);
}

// What the test asks of every page in the browser: the script finished and raised nothing.
void expect_ready_without_errors(const std::string& dom) {
  EXPECT_NE(dom.find("data-ready=\"1\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_EQ(dom.find("data-errors"), std::string::npos) << dom.substr(dom.find("data-errors") - 100, 600);
}

// A PNG of some size: the signature and more than an empty image's bytes.
void expect_png(const std::string& path) {
  const std::string png = file_text(path);
  ASSERT_GT(png.size(), 10000u) << path;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

class CpuHtmlReport : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.file("k.db");
    page_ = dir_.file("page.html");
  }
  // Renders the page, checks it and keeps the browser's DOM in dom_. Without a browser it skips
  // the test (or fails it where one is required) and leaves dom_ empty: the caller then returns.
  void render_and_check(const std::string& page) {
    auto browser = find_chromium();
    if (!browser) {
      if (chromium_required()) FAIL() << "KFORGE_REQUIRE_CHROMIUM=1 but no chromium on PATH (apt-get install chromium)";
      GTEST_SKIP() << "no chromium on PATH: the page was written and checked, not rendered";
    }
    auto dom = chromium(*browser, dir_, page, {"--dump-dom"});
    ASSERT_EQ(dom.exit_code, 0) << dom.err;
    expect_ready_without_errors(dom.out);
    const std::string shot = dir_.file("page.png");
    auto screenshot = chromium(*browser, dir_, page, {"--screenshot=" + shot, "--window-size=1280,2000"});
    ASSERT_EQ(screenshot.exit_code, 0) << screenshot.err;
    expect_png(shot);
    // KFORGE_REPORT_SCREENSHOT=FILE keeps a copy (docs/images/report-example.png is made so).
    if (const char* keep = std::getenv("KFORGE_REPORT_SCREENSHOT"); keep && *keep)
      std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);
    dom_ = dom.out;
  }
  TempDir dir_;
  std::string db_, page_, dom_;
};

TEST_F(CpuHtmlReport, AnEvalRunAsAPageABrowserRenders) {
  const std::string suite = source_path("tests/problems");
  dir_.write("run/level1/1_Tiny_Add_ReLU/clamp.py", file_text(source_path("tests/candidates/correct.py")));
  // A name a browser would take for markup if it were not escaped, on a wrong candidate.
  dir_.write("run/level1/1_Tiny_Add_ReLU/a<b&c\"d.py",
             "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n        return a - b\n");
  dir_.write("run/level1/2_Tiny_Argmax/argmax.py",
             "import torch\nclass ModelNew(torch.nn.Module):\n    def __init__(self, dim):\n"
             "        super().__init__()\n        self.dim = dim\n"
             "    def forward(self, x):\n        return torch.max(x, dim=self.dim).indices\n");
  dir_.write("run/level1/4_Tiny_Log_ReLU/raises.py",
             "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
             "        raise RuntimeError('no <kernel> & no luck')\n");
  // A binary file is never evaluated: the run's gap, a load_error row on the page.
  dir_.write("run/level1/3_Tiny_Linear/binary.py", std::string("\x7f" "ELF\xff\xfe\x00\x01", 8));

  std::vector<std::string> eval{"--db", db_, "eval", "--suite", suite};
  eval.insert(eval.end(), kQuick.begin(), kQuick.end());
  eval.push_back(dir_.file("run"));
  auto run = run_kforge(eval);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  // The speed of light of two problems on this CPU: figures for the problems' own sizes, which a
  // CPU run does not evaluate (it takes their cpu_sizes), so the page must not use them.
  auto info = run_kforge({"--db", db_, "problems", "info", "--suite", suite, "--sol", "--device", "cpu", "level1/1",
                          "level1/2"});
  ASSERT_EQ(info.exit_code, 0) << info.out << info.err;

  // A folder that does not exist: exit 1, said clearly, nothing written.
  auto nowhere = run_kforge({"--db", db_, "report", "--html", dir_.file("no/such/folder/page.html")});
  EXPECT_EQ(nowhere.exit_code, 1) << nowhere.out << nowhere.err;
  EXPECT_NE(nowhere.err.find("does not exist"), std::string::npos) << nowhere.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "no"));
  auto folder = run_kforge({"--db", db_, "report", "--html", dir_.path().string()});
  EXPECT_EQ(folder.exit_code, 1) << folder.err;
  EXPECT_NE(folder.err.find("is a folder"), std::string::npos) << folder.err;

  auto report = run_kforge({"--db", db_, "report", "--html", page_});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  EXPECT_NE(report.out.find("fast_1.5"), std::string::npos) << "the tables are still printed\n" << report.out;
  EXPECT_NE(report.err.find("wrote " + page_), std::string::npos) << report.err;
  const std::string page = file_text(page_);
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u) << page.substr(0, 200);
  for (const char* part : {"level1/1_Tiny_Add_ReLU", "level1/2_Tiny_Argmax", "level1/3_Tiny_Linear",
                           "level1/4_Tiny_Log_ReLU", "a&lt;b&amp;c&quot;d.py", "no &lt;kernel&gt; &amp; no luck",
                           "data-verdict=\"correct\">2<", "data-verdict=\"load_error\">1<",
                           "data-verdict=\"runtime_error\">1<", "data-verdict=\"incorrect\">1<",
                           "return torch.clamp(a + b, min=0)"})
    EXPECT_NE(page.find(part), std::string::npos) << part;
  EXPECT_EQ(page.find("a<b&c"), std::string::npos);
  EXPECT_EQ(page.find("%</td><td class=\"msg\""), std::string::npos) << "no SOL share on a CPU run";
  EXPECT_NE(page.find("data-v=\"\">-</td><td class=\"msg\""), std::string::npos);

  // The browser, with a probe appended that clicks two headers: candidate (names ascending),
  // then speedup twice (descending, then ascending; untimed rows stay last either way).
  std::string probed = page;
  probed.insert(probed.rfind("</body>"),
                "<script>(function () {"
                "var th = document.querySelectorAll('table.results th'); th[1].click();"
                "var first = function () { return document.querySelector('table.results tbody tr'); };"
                "document.body.dataset.firstByName = first().cells[1].textContent;"
                "th[3].click(); th[3].click();"
                "document.body.dataset.speedupOrder = th[3].getAttribute('aria-sort');"
                "document.body.dataset.firstHasSpeedup = String(first().cells[3].getAttribute('data-v') !== '');"
                "var rows = document.querySelectorAll('table.results tbody tr');"
                "var last = rows[rows.length - 1];"
                "document.body.dataset.lastHasSpeedup = String(last.cells[3].getAttribute('data-v') !== '');"
                "})();</script>");
  const std::string probed_page = dir_.file("probed.html");
  std::ofstream(probed_page) << probed;
  render_and_check(probed_page);
  if (dom_.empty()) return;
  EXPECT_NE(dom_.find("data-first-by-name=\"a&lt;b&amp;c&quot;d.py\""), std::string::npos)
      << dom_.substr(0, 600);
  EXPECT_NE(dom_.find("data-speedup-order=\"ascending\""), std::string::npos);
  EXPECT_NE(dom_.find("data-first-has-speedup=\"true\""), std::string::npos);
  EXPECT_NE(dom_.find("data-last-has-speedup=\"false\""), std::string::npos);
  // The hostile name is text in the parsed page, not an element.
  EXPECT_EQ(dom_.find("<b&"), std::string::npos);
  EXPECT_NE(dom_.find("a&lt;b&amp;c\"d.py"), std::string::npos);
}

// A GPU run's record (put through the Store API: there is no GPU here) with the problem's figures
// and the device's rates stored, as `problems info --sol` stores them: the page shows the share of
// the speed of light reached, computed as problems info computes the SOL time.
TEST_F(CpuHtmlReport, AGpuRunShowsTheShareOfTheSpeedOfLight) {
  {
    Store store(db_);
    Problem p;
    p.level = 1;
    p.id = 1;
    p.name = "Copy";
    p.path = "/suite/level1/1_Copy.py";
    p.source = "class Model: ...";
    p.hash = "problem-hash";
    store.put_problem(p);
    store.put_candidate({"/run/level1/1_Copy/copy.cu", "level1/1_Copy/copy.cu", "__global__ void copy() {}", "cand-hash"});
    EvaluationRecord r;
    r.eval_key = "key";
    r.problem_hash = p.hash;
    r.candidate_hash = "cand-hash";
    r.problem_name = "level1/1_Copy";
    r.candidate_name = "level1/1_Copy/copy.cu";
    r.level = 1;
    r.problem_id = 1;
    r.device = "cuda:0";
    r.device_name = "NVIDIA H200";
    r.torch_version = "2.11.0";
    r.settings = {{"precision", "fp32"}};
    r.verdict = Verdict::correct;
    r.ref_ms = 2.0;
    r.cand_ms = 1.0;  // [ms]
    r.speedup = 2.0;
    r.id = store.insert_evaluation(r);
    store.add_to_run(store.begin_run("kforge eval --device cuda run", "cuda"), r);
    ProblemMetadata m;
    m.problem_hash = p.hash;
    m.torch_version = "2.11.0";
    m.precision = "fp32";
    m.flops = 0;
    m.tf32_flops = 0;
    m.input_bytes = 200'000'000;
    m.param_bytes = 0;
    m.output_bytes = 200'000'000;
    store.put_problem_metadata(m);
    DevicePeaks peaks;
    peaks.device_name = "NVIDIA H200";
    peaks.torch_version = "2.11.0";
    peaks.copy_bytes_per_s = 1e12;  // 400 MB at 1 TB/s: 0.4 ms, 40% of the candidate's 1 ms
    peaks.matmul_flops_per_s = {{"fp32", 5e13}};
    store.put_device_peaks(peaks);
  }
  auto report = run_kforge({"--db", db_, "report", "--html", page_});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const std::string page = file_text(page_);
  EXPECT_NE(page.find("data-v=\"0.4\">40%</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("0.4 ms (40% of it reached)"), std::string::npos);
  EXPECT_NE(page.find("__global__ void copy() {}"), std::string::npos);
}

#if KFORGE_WITH_LLM
// An agent run (a scripted model on loopback, real builds, a real CPU worker): the page draws
// each problem's attempts, failures at 0, and renders.
TEST_F(CpuHtmlReport, AnAgentRunShowsItsAttempts) {
  FakeModelServer server;
  std::ofstream(dir_.file("kforge.toml")) << "[models.scripted]\napi = \"openai\"\nendpoint = \"" << server.endpoint()
                                          << "\"\nmodel = \"scripted-coder\"\nprice_in = 2.0\nprice_out = 6.0\n"
                                             "concurrency = 1\nretries = 0\n";
  auto answer = [](const std::string& candidate) {
    return "```cpp\n" + file_text(source_path("tests/candidates/native/" + candidate)) + "```\n";
  };
  server.script(FakeModelServer::openai_stream(answer("cpp_syntax_error.cpp"), 2));
  server.script(FakeModelServer::openai_stream(answer("cpp_add_relu.cpp"), 2));
  server.script(FakeModelServer::openai_stream("I would keep it as it is.", 1));
  auto agent = run_kforge({"--db", db_, "agent", "--suite", source_path("tests/problems"), "--problem", "level1/1",
                           "--device", "cpu", "--max-time", "0.3", "--out", dir_.file("run"), "--format", "cpp",
                           "--model", "scripted", "--policy", "serial", "--attempts", "3", "--no-reverify"});
  ASSERT_EQ(agent.exit_code, 0) << agent.out << agent.err;

  auto report = run_kforge({"--db", db_, "report", "--html", page_});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const std::string page = file_text(page_);
  EXPECT_NE(page.find("Agent attempts (3)"), std::string::npos);
  EXPECT_NE(page.find("attempt 1 (#1, round 1, coder, scripted): compile_error"), std::string::npos);
  EXPECT_NE(page.find("attempt 2 (#2, round 2, debugger, scripted): correct "), std::string::npos);
  EXPECT_NE(page.find("attempt 3 (#3, round 3, refiner, scripted): no_code"), std::string::npos);
  render_and_check(page_);
}
#endif

}  // namespace
}  // namespace kforge::testing
