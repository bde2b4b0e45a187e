// Half-typed and broken Python: facts for the parts that parse, syntax errors
// for the rest, and never a crash or an out-of-range fact, whatever the cut.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "facts_builder.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/plan.h"
#include "repair.h"
#include "unbounded_parser.h"

namespace fs = std::filesystem;
using namespace msprobe::analysis;

namespace {

Analysis run(PythonParser& parser, const SourceText& src) { return analyze(parser, src, AnalysisOptions{}); }

const LoopInfo* train_loop(const FileFacts& f) {
  for (const LoopInfo& i : f.loop_info) {
    if (i.role == LoopRole::Train) return &i;
  }
  return nullptr;
}

uint32_t loop_line(const FileFacts& f, const LoopInfo& i) { return f.loops[static_cast<std::size_t>(i.loop)].line; }

// Every range and index in the facts and the plan points inside the text.
void check_consistent(const SourceText& src, const FileFacts& f) {
  auto in = [&](ByteRange r) { return r.start <= r.end && r.end <= src.size(); };
  for (const Call& c : f.calls) REQUIRE(in(c.range));
  for (const Statement& s : f.statements) REQUIRE(in(s.range));
  for (const Loop& l : f.loops) {
    REQUIRE(in(l.range));
    REQUIRE(in(l.body));
  }
  for (const LoopInfo& i : f.loop_info) {
    REQUIRE(i.loop >= 0);
    REQUIRE(static_cast<std::size_t>(i.loop) < f.loops.size());
    for (const ByteRange& r : i.forward) REQUIRE(in(r));
  }
  for (const MsprobeUse& u : f.msprobe) REQUIRE(in(u.range));
  for (const SyntaxError& e : f.syntax_errors) REQUIRE(in(e.range));
  if (auto p = plan_dump(src, f)) {
    REQUIRE(p->import_offset <= src.size());
    REQUIRE(p->start_offset <= src.size());
    REQUIRE(p->stop_step_offset <= src.size());
    REQUIRE(p->start_offset <= p->stop_step_offset);
    for (const EarlyExit& e : p->exits) REQUIRE(e.offset <= src.size());
  }
  (void)plan_runner(src, f);
  for (const DynamoSite& d : find_dynamo_sites(src, f)) REQUIRE(in(d.range));
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* kLoop =
    "for x in data:\n"
    "    loss = model(x).sum()\n"
    "    loss.backward()\n"
    "    optimizer.step()\n";

}  // namespace

TEST_CASE("an unclosed bracket above the loop keeps the loop's facts") {
  test_support::UnboundedParser parser;
  SourceText src(std::string("import torch\n"
                             "import torch.nn as nn\n"
                             "model = nn.Linear(4, 4\n"  // line 3: unclosed
                             "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n\n") +
                 kLoop);
  Analysis a = run(parser, src);
  REQUIRE(!a.facts.syntax_errors.empty());
  CHECK(src.line_of(a.facts.syntax_errors.front().range.start) == 2);
  const LoopInfo* t = train_loop(a.facts);
  REQUIRE(t);
  CHECK(loop_line(a.facts, *t) == 5);
  CHECK(t->model == "model");
  CHECK(a.facts.imports.size() == 2);
  // The syntax error is still reported to the user.
  bool syntax_finding = false;
  for (const Finding& f : a.findings) syntax_finding = syntax_finding || f.code.empty();
  CHECK(syntax_finding);
  check_consistent(src, a.facts);
}

TEST_CASE("a half-typed line inside the loop body keeps the loop") {
  test_support::UnboundedParser parser;
  SourceText src(
      std::string("import torch\nmodel = torch.nn.Linear(4, 4)\nopt = torch.optim.SGD(model.parameters())\n") +
      "for x in data:\n"
      "    loss = model(x).sum()\n"
      "    loss.backward()\n"
      "    opt.step()\n"
      "    logger.info(\"loss %f\", loss.item(\n");
  Analysis a = run(parser, src);
  REQUIRE(!a.facts.syntax_errors.empty());
  const LoopInfo* t = train_loop(a.facts);
  REQUIRE(t);
  CHECK(loop_line(a.facts, *t) == 3);
  check_consistent(src, a.facts);
}

TEST_CASE("a loop header still being typed does not hide the rest of the file") {
  test_support::UnboundedParser parser;
  SourceText src(std::string("import torch\nfrom torch import nn\n") +
                 "for x in data\n"  // no colon yet
                 "    y = model(x)\n"
                 "\n"
                 "def later():\n"
                 "    return torch.compile(model)\n");
  Analysis a = run(parser, src);
  REQUIRE(!a.facts.syntax_errors.empty());
  bool later = false;
  for (const Function& fn : a.facts.functions) later = later || fn.name == "later";
  CHECK(later);
  CHECK(find_dynamo_sites(src, a.facts).size() == 1);
  check_consistent(src, a.facts);
}

TEST_CASE("unbalanced brackets, stray indentation and odd bytes never crash") {
  test_support::UnboundedParser parser;
  const char* cases[] = {
      "(((((((((",
      ")))]]]}}}",
      "for\n",
      "for x in :\n  pass\n",
      "while True:\n",
      "def f(:\n    for x in y:\n        model(x).backward()\n",
      "    indented = 1\nfor x in y:\nmodel(x)\n",
      "import\nfrom import\nfrom . import\nimport torch as\n",
      "x = [\n"
      "for x in y:\n"
      "    opt.step()\n",
      "\xff\xfe\x00\x01 for x in y: model(x)\n",
      "class A(:\n  def forward(self, x):\n    for l in self.layers: x = l(x)\n",
      "@torch.compile(\ndef f(): pass\n",
      "for x in y: model(x).sum().backward(); opt.step()\n",
  };
  for (const char* c : cases) {
    INFO("case: " << c);
    SourceText src{std::string(c)};
    Analysis a = run(parser, src);
    check_consistent(src, a.facts);
  }
}

TEST_CASE("every corpus script cut anywhere or with a byte dropped stays consistent") {
  test_support::UnboundedParser parser;
  std::mt19937 rng(1234);
  fs::path dir = fs::path(MSPROBE_TESTS_DIR) / "corpus" / "scripts";
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".py") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 40);
  for (const fs::path& file : files) {
    std::string text = read(file);
    INFO("file: " << file.filename().string());
    for (std::size_t cut = 0; cut < text.size(); cut += 211) {
      INFO("cut at " << cut);
      SourceText src(text.substr(0, cut));
      check_consistent(src, run(parser, src).facts);
    }
    for (int k = 0; k < 6; ++k) {
      std::string broken = text;
      std::size_t at = std::uniform_int_distribution<std::size_t>(0, broken.size() - 1)(rng);
      broken.erase(at, 1);
      INFO("byte dropped at " << at);
      SourceText src(broken);
      check_consistent(src, run(parser, src).facts);
    }
  }
}

TEST_CASE("the pruned error walk finds what the full pass finds") {
  test_support::UnboundedParser parser;
  fs::path dir = fs::path(MSPROBE_TESTS_DIR) / "corpus" / "scripts";
  for (const char* name : {"for_basic.py", "gan_two_optimizers.py", "vllm_gpu_model_runner.py"}) {
    std::string text = read(dir / name);
    for (std::size_t cut = 50; cut < text.size(); cut += 397) {
      std::string broken = text.substr(0, cut) + "(\n" + text.substr(cut);
      TreePtr tree = parser.parse(broken);
      REQUIRE(tree);
      FileFacts full = build_facts(tree, broken);
      std::vector<SyntaxError> pruned = syntax_errors(tree);
      REQUIRE(pruned.size() == full.syntax_errors.size());
      for (std::size_t i = 0; i < pruned.size(); ++i) {
        CHECK(pruned[i].range == full.syntax_errors[i].range);
        CHECK(pruned[i].missing == full.syntax_errors[i].missing);
        CHECK(pruned[i].expected == full.syntax_errors[i].expected);
      }
    }
  }
}
