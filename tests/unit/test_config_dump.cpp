// check-dump: the folder layouts msProbe writes, complete and broken.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "config_schema_json.h"
#include "dump_check.h"
#include "msprobe/analysis/config/config_generate.h"

namespace fs = std::filesystem;
using namespace msprobe::server;
namespace cfg = msprobe::analysis::config;

namespace {

struct Run {
  fs::path root;
  Run() {
    root = fs::temp_directory_path() / ("msprobe-dump-" + std::to_string(::getpid()) + "-" + std::to_string(rand()));
    fs::create_directories(root);
  }
  ~Run() { fs::remove_all(root); }
  void file(const std::string& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  void rank(const std::string& dir, bool data = true) const {
    file(dir + "/dump.json", data ? R"({"task": "statistics", "data": {"Tensor.add.0.forward": {}}})"
                                  : R"({"task": "statistics", "data": {}})");
    file(dir + "/stack.json", "{}");
    file(dir + "/construct.json", "{}");
  }
  DumpReport check(const std::string& config) const {
    return check_dump((root / "config.json").string(), config, {root.string()}, {});
  }
};

bool any_cause(const DumpReport& r, const std::string& s) {
  return std::any_of(r.causes.begin(), r.causes.end(), [&](const std::string& c) { return c.find(s) != std::string::npos; });
}

}  // namespace

TEST_CASE("check-dump: a complete statistics dump") {
  Run run;
  run.rank("dump/step0/rank0");
  run.rank("dump/step1/rank0");
  run.rank("dump/step0/rank1");
  run.rank("dump/step1/rank1");
  DumpReport r = run.check(R"({"dump_path": "./dump", "step": [0, 1]})");
  INFO(to_text(r));
  CHECK(r.ok);
  CHECK(r.steps.size() == 2);
  CHECK(r.steps[0].ranks.size() == 2);
  CHECK(to_text(r).find("result: the dump looks complete") != std::string::npos);
  CHECK(to_json(r)["ok"] == true);
}

TEST_CASE("check-dump: nothing written, relative path tried in each base") {
  Run run;
  DumpReport r = run.check(R"({"dump_path": "out"})");
  CHECK_FALSE(r.ok);
  CHECK_FALSE(r.exists);
  CHECK(any_cause(r, "the path is relative"));
  DumpReport none = run.check(R"({"task": "statistics"})");
  CHECK_FALSE(none.error.empty());
  DumpReport bad = run.check("[1]");
  CHECK(bad.error.find("not a readable") != std::string::npos);
}

TEST_CASE("check-dump: a rank filter without distributed, an empty dump_path") {
  Run run;
  run.file("dump/.keep", "");
  DumpReport r = run.check(R"({"dump_path": "./dump", "rank": [0]})");
  CHECK(any_cause(r, "no step folder"));
  CHECK(any_cause(r, "\"rank\": [0] matches no rank"));
  run.rank("dump/step0/proc1234");
  DumpReport p = run.check(R"({"dump_path": "./dump", "rank": [0]})");
  CHECK(any_cause(p, "only proc{pid} folders"));
}

TEST_CASE("check-dump: every rank asked for is missing while other ranks have folders") {
  Run run;
  run.rank("dump/step0/rank0");
  DumpReport r = run.check(R"({"dump_path": "./dump", "rank": [1]})");
  CHECK(any_cause(r, "none of the ranks [1] has a folder, only ranks [0] do"));
  CHECK_FALSE(r.ok);
  DumpReport some = run.check(R"({"dump_path": "./dump", "rank": [0, 1]})");
  CHECK(any_cause(some, "ranks [1] have no folder"));
}

TEST_CASE("check-dump: step() missing, stop() missing, extra_info off, tensors") {
  Run run;
  run.rank("dump/step0/rank0");
  DumpReport r = run.check(R"({"dump_path": "./dump", "step": [3]})");
  CHECK(any_cause(r, "steps [3] were never dumped"));
  CHECK(any_cause(r, "everything stays in step0"));

  Run tensors;
  tensors.file("dump/step0/rank0/dump_tensor_data/Tensor.add.0.forward.output.0.pt", "x");
  DumpReport t = tensors.check(R"({"task": "tensor", "dump_path": "./dump"})");
  CHECK(any_cause(t, "tensor files but no dump.json"));
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].ranks[0].tensor_files == 1);

  Run plain;
  plain.file("dump/step0/rank0/dump.json", R"({"data": {"a": 1}})");
  DumpReport e = plain.check(R"({"dump_path": "./dump", "extra_info": false})");
  CHECK(e.ok);
  DumpReport e2 = plain.check(R"({"dump_path": "./dump"})");
  CHECK_FALSE(e2.ok);  // 26.x writes stack.json and construct.json unless extra_info is false
}

TEST_CASE("check-dump: level L2 kernel layout") {
  Run run;
  run.file("dump/step0/20260101120000/0/Add.Add_1.1.1.123", "kernel");
  DumpReport r = run.check(R"({"task": "tensor", "level": "L2", "dump_path": "./dump"})");
  CHECK(r.ok);
  CHECK(r.steps[0].kernel_files == 1);
  Run empty;
  empty.file("dump/step0/.keep", "");
  fs::remove(empty.root / "dump/step0/.keep");
  DumpReport e = empty.check(R"({"task": "tensor", "level": "L2", "dump_path": "./dump"})");
  CHECK_FALSE(e.ok);
}

TEST_CASE("schema: draft-07, every field of the table, generated configs are instances of it") {
  for (cfg::ConfigVersion v : {cfg::ConfigVersion::V26, cfg::ConfigVersion::V8}) {
    nlohmann::json s = config_json_schema(v);
    CHECK(s["$schema"] == "http://json-schema.org/draft-07/schema#");
    CHECK(s["additionalProperties"] == false);
    for (const cfg::FieldSpec* f : cfg::fields_of("", v)) CHECK(s["properties"].contains(std::string(f->name)));
    for (const cfg::TaskSpec* t : cfg::tasks_of(v)) {
      if (t->has_block) CHECK(s["properties"][std::string(t->name)]["type"] == "object");
    }
    CHECK(s["properties"]["level"]["enum"] == nlohmann::json::array({"L0", "L1", "L2", "mix", "debug"}));
    CHECK(s["properties"].contains("extra_info") == (v == cfg::ConfigVersion::V26));
    CHECK_FALSE(s["properties"].contains("seed"));
  }
  nlohmann::json s26 = config_json_schema(cfg::ConfigVersion::V26);
  CHECK(s26["properties"]["statistics"]["properties"]["summary_mode"]["enum"] ==
        nlohmann::json::array({"statistics", "md5", "xor"}));
  CHECK(config_json_schema(cfg::ConfigVersion::V8)["properties"]["statistics"]["properties"]["summary_mode"]["enum"] ==
        nlohmann::json::array({"statistics", "md5"}));
}
