// The Python side of the config rules (MSP205, MSP306, MSP307) with an
// in-memory resolver standing in for the server's file access.
#include <catch2/catch.hpp>

#include <map>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "unbounded_parser.h"

using namespace msprobe::analysis;

namespace {

struct Files {
  std::map<std::string, std::string> files;  // config_path as written -> content
  std::vector<std::string> asked;
};

AnalysisOptions with_files(std::shared_ptr<Files> files) {
  AnalysisOptions o;
  o.config_resolver = std::make_shared<const ConfigResolver>([files](const std::string& p) {
    files->asked.push_back(p);
    ConfigLookup l;
    l.path = "/ws/" + p;
    l.searched = {"/ws/" + p};
    auto it = files->files.find(p);
    if (it != files->files.end()) {
      l.found = true;
      l.text = std::make_shared<const std::string>(it->second);
    }
    return l;
  });
  return o;
}

std::vector<Finding> run(const std::string& code, const AnalysisOptions& o, const std::string& only) {
  test_support::UnboundedParser parser;
  SourceText src(code);
  Analysis a = analyze(parser, src, o);
  std::vector<Finding> out;
  for (auto& f : a.findings) {
    if (f.code == only) out.push_back(f);
  }
  return out;
}

std::string text_of(const std::string& code, const Finding& f) {
  return code.substr(f.range.start, f.range.end - f.range.start);
}

const char* kScript = R"(import torch
from msprobe.pytorch import PrecisionDebugger, seed_all

debugger = PrecisionDebugger(config_path="./config.json")
model = torch.nn.Linear(2, 2)
for x in range(3):
    debugger.start()
    model(x)
    debugger.stop()
    debugger.step()
)";

}  // namespace

TEST_CASE("python string literals") {
  using config::python_string_literal;
  CHECK(*python_string_literal("\"./config.json\"") == "./config.json");
  CHECK(*python_string_literal("'a\\'b'") == "a'b");
  CHECK(*python_string_literal("r\"C:\\x\"") == "C:\\x");
  CHECK(*python_string_literal("\"\"\"x\"\"\"") == "x");
  CHECK_FALSE(python_string_literal("f\"{p}/c.json\""));
  CHECK_FALSE(python_string_literal("b\"x\""));
  CHECK_FALSE(python_string_literal("\"a\" \"b\""));
  CHECK_FALSE(python_string_literal("args.config"));
}

TEST_CASE("MSP306: a missing config is reported on the argument; a present one is not") {
  auto files = std::make_shared<Files>();
  auto found = run(kScript, with_files(files), "MSP306");
  REQUIRE(found.size() == 1);
  CHECK(text_of(kScript, found[0]) == "\"./config.json\"");
  CHECK(found[0].message.find("/ws/./config.json") != std::string::npos);
  CHECK(found[0].severity == Severity::Error);
  files->files["./config.json"] = R"({"dump_path": "/d"})";
  CHECK(run(kScript, with_files(files), "MSP306").empty());
  // Without a resolver (plain `check`), nothing is claimed about files.
  CHECK(run(kScript, AnalysisOptions{}, "MSP306").empty());
}

TEST_CASE("MSP306: positional config_path, non-.json names, dynamic paths") {
  auto files = std::make_shared<Files>();
  std::string positional = "from msprobe.pytorch import PrecisionDebugger\nd = PrecisionDebugger('cfg/dump.json')\n";
  REQUIRE(run(positional, with_files(files), "MSP306").size() == 1);
  std::string yaml = "from msprobe.pytorch import PrecisionDebugger\nd = PrecisionDebugger(config_path='c.yaml')\n";
  auto f = run(yaml, with_files(files), "MSP306");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("not a .json file") != std::string::npos);
  std::string spaces =
      "from msprobe.pytorch import PrecisionDebugger\nd = PrecisionDebugger(config_path='my cfg/c.json')\n";
  auto sp = run(spaces, with_files(files), "MSP306");
  REQUIRE(sp.size() == 1);
  CHECK(sp[0].message.find("would be rejected: contains characters msProbe rejects (space)") != std::string::npos);
  std::string dynamic = "from msprobe.pytorch import PrecisionDebugger\nd = PrecisionDebugger(config_path=args.cfg)\n";
  CHECK(run(dynamic, with_files(files), "MSP306").empty());
  std::string other = "PrecisionDebugger = object\nd = other.PrecisionDebugger(config_path='x.json')\n";
  CHECK(run(other, with_files(files), "MSP306").empty());
}

TEST_CASE("MSP205: start() without a model when the config's level needs one") {
  auto files = std::make_shared<Files>();
  files->files["./config.json"] = R"({"dump_path": "/d", "level": "mix"})";
  auto f = run(kScript, with_files(files), "MSP205");
  REQUIRE(f.size() == 1);
  CHECK(text_of(kScript, f[0]) == "debugger.start()");
  CHECK(f[0].message.find("level \"mix\"") != std::string::npos);
  REQUIRE(f[0].fixes.size() == 1);
  CHECK(f[0].fixes[0].edits[0].text == "model");

  files->files["./config.json"] = R"({"dump_path": "/d", "task": "structure"})";
  REQUIRE(run(kScript, with_files(files), "MSP205").size() == 1);
  files->files["./config.json"] = R"({"dump_path": "/d", "level": "L1"})";
  CHECK(run(kScript, with_files(files), "MSP205").empty());

  std::string with_model = kScript;
  with_model.replace(with_model.find("debugger.start()"), 16, "debugger.start(model)");
  files->files["./config.json"] = R"({"dump_path": "/d", "level": "L0"})";
  CHECK(run(with_model, with_files(files), "MSP205").empty());
}

TEST_CASE("MSP205: constructor arguments override the file; token_range needs a model") {
  auto files = std::make_shared<Files>();
  files->files["./config.json"] = R"({"dump_path": "/d", "level": "mix"})";
  std::string overridden = kScript;
  overridden.replace(overridden.find("config_path=\"./config.json\""), 27,
                     "config_path=\"./config.json\", level=\"L1\"");
  CHECK(run(overridden, with_files(files), "MSP205").empty());

  std::string no_file = "from msprobe.pytorch import PrecisionDebugger\nd = PrecisionDebugger(level='L0')\nd.start()\n";
  CHECK(run(no_file, AnalysisOptions{}, "MSP205").size() == 1);
  std::string token =
      "from msprobe.pytorch import PrecisionDebugger\nd = PrecisionDebugger()\nd.start(token_range=[0, 3])\n";
  auto f = run(token, AnalysisOptions{}, "MSP205");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("token_range") != std::string::npos);
  std::string cls =
      "from msprobe.pytorch import PrecisionDebugger\nPrecisionDebugger(level='mix')\nPrecisionDebugger.start()\n";
  CHECK(run(cls, AnalysisOptions{}, "MSP205").size() == 1);
}

TEST_CASE("MSP307: a non-empty rank without torch.distributed") {
  auto files = std::make_shared<Files>();
  files->files["./config.json"] = R"({"dump_path": "/d", "rank": [0, "2-3"]})";
  auto f = run(kScript, with_files(files), "MSP307");
  REQUIRE(f.size() == 1);
  CHECK(text_of(kScript, f[0]) == "\"./config.json\"");
  CHECK(f[0].message.find("[0, \"2-3\"]") != std::string::npos);

  std::string dist = std::string("import torch.distributed as dist\n") + kScript;
  CHECK(run(dist, with_files(files), "MSP307").empty());
  std::string ds = std::string("import deepspeed\n") + kScript;
  CHECK(run(ds, with_files(files), "MSP307").empty());
  std::string rank_id = kScript;
  rank_id.replace(rank_id.find("debugger.start()"), 16, "debugger.start(rank_id=0)");
  CHECK(run(rank_id, with_files(files), "MSP307").empty());
  files->files["./config.json"] = R"({"dump_path": "/d", "rank": []})";
  CHECK(run(kScript, with_files(files), "MSP307").empty());
}

TEST_CASE("config rules are registered with docs") {
  for (const char* code :
       {"MSP205", "MSP300", "MSP301", "MSP302", "MSP303", "MSP304", "MSP305", "MSP306", "MSP307", "MSP308", "MSP309"}) {
    const Rule* r = find_rule(code);
    INFO(code);
    REQUIRE(r);
    CHECK(r->meta.docs.find("## What it does") != std::string_view::npos);
    CHECK(r->meta.docs.find("## Fix") != std::string_view::npos);
  }
}
