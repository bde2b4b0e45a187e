// What the fixture files cannot show: the alternative (non-preferred) fixes,
// related information, fix safety, and the shape of every rule's docs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "msprobe/analysis/analyzer.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

std::vector<Finding> findings_of(const std::string& code, const std::string& text, AnalysisOptions options = {}) {
  test_support::UnboundedParser parser;
  SourceText src(text);
  std::vector<Finding> out;
  for (Finding& f : analyze(parser, src, options).findings) {
    if (f.code == code) out.push_back(std::move(f));
  }
  return out;
}

std::string apply(std::string text, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.range.start != b.range.start) return a.range.start > b.range.start;
    return a.range.end > b.range.end;
  });
  for (const Edit& e : edits) text.replace(e.range.start, e.range.end - e.range.start, e.text);
  return text;
}

std::string_view slice(const std::string& text, ByteRange r) {
  return std::string_view(text).substr(r.start, r.end - r.start);
}

}  // namespace

TEST_CASE("MSP502 offers try/finally as the alternative fix") {
  const std::string text = R"(from msprobe.pytorch import PrecisionDebugger, seed_all


class GPUModelRunner:
    def __init__(self):
        seed_all()
        self.debugger = PrecisionDebugger(config_path="./config.json")

    def execute_model(self, batch):
        self.debugger.start(model=self.model)
        if batch is None:
            return None
        out = self.model(batch)
        self.debugger.stop()
        self.debugger.step()
        return out
)";
  auto fs = findings_of("MSP502", text);
  REQUIRE(fs.size() == 1);
  CHECK(slice(text, fs[0].range) == "return None");
  REQUIRE(fs[0].related.size() == 1);
  CHECK(slice(text, fs[0].related[0].range) == "self.debugger.start(model=self.model)");
  REQUIRE(fs[0].fixes.size() == 2);
  CHECK(fs[0].fixes[0].preferred);
  const Fix& wrap = fs[0].fixes[1];
  CHECK_FALSE(wrap.preferred);
  CHECK(wrap.safety == FixSafety::Unsafe);
  const std::string wrapped = apply(text, wrap.edits);
  CHECK(wrapped.find(R"(        self.debugger.start(model=self.model)
        try:
            if batch is None:
                return None
            out = self.model(batch)
            return out
        finally:
            self.debugger.stop()
            self.debugger.step()
)") != std::string::npos);
  CHECK(findings_of("MSP502", wrapped).empty());
  CHECK(findings_of("MSP203", wrapped).empty());
}

TEST_CASE("MSP201 relates the loop and offers both hoists") {
  const std::string text = R"(import torch
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()


def run(model, batches):
    for x in batches:
        dbg = PrecisionDebugger(config_path="./config.json")
        dbg.start(model)
        model(x)
        dbg.stop()
        dbg.step()
)";
  auto fs = findings_of("MSP201", text);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].severity == Severity::Error);
  REQUIRE(!fs[0].related.empty());
  CHECK(slice(text, fs[0].related[0].range) == "for x in batches:");
  REQUIRE(fs[0].fixes.size() == 2);
  CHECK(fs[0].fixes[0].preferred);
  CHECK(fs[0].fixes[0].title.find("module level") != std::string::npos);
  CHECK_FALSE(fs[0].fixes[1].preferred);
  const std::string before_loop = apply(text, fs[0].fixes[1].edits);
  CHECK(before_loop.find("    dbg = PrecisionDebugger(config_path=\"./config.json\")\n    for x in batches:\n") !=
        std::string::npos);
}

TEST_CASE("MSP503 and MSP207 point at the engine and the launcher") {
  const std::string offline = R"(from msprobe.pytorch import PrecisionDebugger, seed_all
from vllm import LLM

seed_all()
dbg = PrecisionDebugger(config_path="./config.json")
llm = LLM(model="m")
)";
  auto fs = findings_of("MSP503", offline);
  REQUIRE(fs.size() == 1);
  REQUIRE(fs[0].related.size() == 1);
  CHECK(slice(offline, fs[0].related[0].range) == "LLM(model=\"m\")");
  REQUIRE(fs[0].fixes.size() == 1);
  CHECK(fs[0].fixes[0].safety == FixSafety::Safe);
  CHECK(apply(offline, fs[0].fixes[0].edits).find("llm = LLM(model=\"m\")\ndbg = PrecisionDebugger") !=
        std::string::npos);

  const std::string spawn = R"(import torch.multiprocessing as mp
from msprobe.pytorch import PrecisionDebugger, seed_all


def worker(rank):
    for x in range(3):
        PrecisionDebugger.start()
        PrecisionDebugger.stop()
        PrecisionDebugger.step()


def main():
    seed_all()
    PrecisionDebugger(config_path="./config.json")
    mp.spawn(worker, nprocs=2)
)";
  fs = findings_of("MSP207", spawn);
  REQUIRE(fs.size() == 1);
  REQUIRE(fs[0].related.size() == 2);
  CHECK(slice(spawn, fs[0].related[0].range) == "mp.spawn(worker, nprocs=2)");
  CHECK(slice(spawn, fs[0].related[1].range) == "PrecisionDebugger.start()");
}

TEST_CASE("MSP203: a return path makes the fix unsafe, continue paths do not") {
  const std::string text = R"(from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()
dbg = PrecisionDebugger(config_path="./config.json")


def f(batches):
    for x in batches:
        dbg.start()
        if x is None:
            continue
        if x == 0:
            return x
        dbg.stop()
        dbg.step()
)";
  auto fs = findings_of("MSP203", text);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].message.find("the continue at line 11 skips stop() and step()") != std::string::npos);
  CHECK(fs[0].message.find("the return at line 13 skips stop() and step()") != std::string::npos);
  REQUIRE(fs[0].fixes.size() == 1);
  CHECK(fs[0].fixes[0].safety == FixSafety::Unsafe);
  CHECK(fs[0].related.size() == 3);  // two exits and the loop
}

TEST_CASE("version-dependent severities") {
  const std::string text = R"(from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()
dbg = PrecisionDebugger(config_path="./config.json", model=None)
dbg.start(rank_id=0)
dbg.forward_backward_dump_end()
dbg.step()
)";
  AnalysisOptions v26, v8;
  v26.msprobe_version = Version::parse("26.0.0");
  v8.msprobe_version = Version::parse("8.3.0");
  for (const auto& [code, unknown, new_line, old_line] :
       std::vector<std::tuple<std::string, int, int, int>>{{"MSP401", 1, 1, 4},
                                                           {"MSP402", 1, 1, 4},
                                                           {"MSP403", 0, 0, 1}}) {
    INFO(code);
    auto none = findings_of(code, text);
    auto newer = findings_of(code, text, v26);
    auto older = findings_of(code, text, v8);
    CHECK(static_cast<int>(none.size()) == unknown);
    CHECK(static_cast<int>(newer.size()) == new_line);
    if (code == "MSP403") {
      REQUIRE(older.size() == 1);
      CHECK(older[0].severity == Severity::Error);
    } else {
      REQUIRE(older.size() == 1);
      CHECK(older[0].severity == static_cast<Severity>(old_line));
      CHECK(std::find(older[0].tags.begin(), older[0].tags.end(), Tag::Deprecated) != older[0].tags.end());
      CHECK(none[0].severity == Severity::Error);
    }
  }
}

TEST_CASE("every rule documents what, why, an example and the fix, citing msprobe-facts") {
  for (const Rule* r : all_rules()) {
    INFO(r->meta.code);
    for (const char* section : {"## What it does", "## Why it matters", "## Example", "## Fix"})
      CHECK(r->meta.docs.find(section) != std::string_view::npos);
    if (r->meta.code != "MSP001") CHECK(r->meta.docs.find("msprobe-facts §") != std::string_view::npos);
    CHECK(!r->meta.summary.empty());
  }
}

// Rules run on every keystroke, so on half-typed code too: every range they
// report (findings, related information, fix edits) must lie in the text,
// and the edits of one fix must not overlap.
TEST_CASE("rules keep their ranges sane on broken input") {
  namespace fs = std::filesystem;
  std::vector<std::string> texts;
  for (const char* dir : {"rules/fixtures", "corpus/scripts"}) {
    for (auto& e : fs::recursive_directory_iterator(fs::path(MSPROBE_TESTS_DIR) / dir)) {
      if (e.path().extension() != ".py") continue;
      std::ifstream in(e.path(), std::ios::binary);
      texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  REQUIRE(texts.size() > 50);
  const char* pieces[] = {"(",
                          ")",
                          ":",
                          "\n",
                          "    ",
                          "\t",
                          "continue\n",
                          "return\n",
                          "debugger.start(",
                          "PrecisionDebugger(",
                          "model=",
                          ",",
                          "\"",
                          "'''",
                          "for x in y:\n",
                          "if a:\n",
                          "#",
                          "\r\n",
                          "é"};
  std::mt19937 rng(2024);
  test_support::UnboundedParser parser;
  AnalysisOptions v8;
  v8.msprobe_version = Version::parse("8.3.0");
  std::size_t checked = 0;
  for (std::size_t round = 0; round < 400; ++round) {
    std::string text = texts[rng() % texts.size()];
    for (int k = 0; k < 3; ++k) {
      std::size_t a = rng() % (text.size() + 1), n = rng() % 40;
      text.replace(a, std::min(n, text.size() - a),
                   rng() % 2 ? "" : pieces[rng() % (sizeof(pieces) / sizeof(*pieces))]);
    }
    SourceText src(text);
    for (const AnalysisOptions& o : {AnalysisOptions{}, v8}) {
      Analysis a = analyze(parser, src, o);
      for (const Finding& f : a.findings) {
        INFO("round " << round << " " << f.code << ": " << f.message);
        CHECK(f.range.start <= f.range.end);
        CHECK(f.range.end <= text.size());
        for (const Related& r : f.related) CHECK((r.range.start <= r.range.end && r.range.end <= text.size()));
        for (const Fix& fix : f.fixes) {
          for (std::size_t i = 0; i < fix.edits.size(); ++i) {
            const Edit& e = fix.edits[i];
            CHECK((e.range.start <= e.range.end && e.range.end <= text.size()));
            for (std::size_t j = i + 1; j < fix.edits.size(); ++j) {
              const Edit& g = fix.edits[j];
              CHECK_FALSE((e.range.start < g.range.end && g.range.start < e.range.end));
            }
          }
        }
        ++checked;
      }
    }
  }
  CHECK(checked > 100);
}
