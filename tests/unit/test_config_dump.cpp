// check-dump: the folder layouts msProbe writes, complete and broken.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "config_schema_json.h"
#include "dump_check.h"
#include "dump_json_scan.h"
#include "msprobe/analysis/config/config_generate.h"

namespace fs = std::filesystem;
using namespace msprobe::server;
namespace cfg = msprobe::analysis::config;
using msprobe::analysis::AnalysisOptions;
using msprobe::analysis::Version;

namespace {

// A dump.json as msProbe writes it for one statistics step: two APIs, the
// tensors' dtype and shape beside their statistics, and a non-tensor argument.
// A tensor dump of it writes 8*4*4 + 8*2*4 + 2 = 194 bytes.
const char* kStatisticsDumpJson = R"({
  "task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null,
  "data": {
    "Functional.linear.0.forward": {
      "input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8, 4], "Max": 1.5, "Min": -1.0,
                      "Mean": 0.1, "Norm": 3.2, "requires_grad": true}],
      "input_kwargs": {},
      "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8, 2], "Max": 1.0, "Min": 0.0,
                  "Mean": 0.5, "Norm": 2.0, "requires_grad": true}]
    },
    "Tensor.add.0.forward": {
      "input_args": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [], "Max": 2.0},
                     {"type": "int", "value": 1}],
      "input_kwargs": {},
      "output": [{"type": "torch.Size", "value": [8, 2]}]
    }
  }
})";
constexpr long long kStatisticsTensorBytes = 194;

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
    file(dir + "/dump.json", data ? kStatisticsDumpJson : R"({"task": "statistics", "data": {}})");
    file(dir + "/stack.json", "{}");
    file(dir + "/construct.json", "{}");
  }
  DumpReport check(const std::string& config, const AnalysisOptions& options = {}) const {
    return check_dump((root / "config.json").string(), config, {root.string()}, options);
  }
};

bool any_cause(const DumpReport& r, const std::string& s) {
  return std::any_of(r.causes.begin(), r.causes.end(),
                     [&](const std::string& c) { return c.find(s) != std::string::npos; });
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
  CHECK(any_cause(p, "only single-process folders"));
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

AnalysisOptions target(const char* version) {
  AnalysisOptions o;
  if (version) o.msprobe_version = Version::parse(version);
  return o;
}

bool any_note(const DumpReport& r, const std::string& s) {
  return std::any_of(r.notes.begin(), r.notes.end(),
                     [&](const std::string& n) { return n.find(s) != std::string::npos; });
}

TEST_CASE("check-dump: the three folder layouts msProbe writes, with and without --msprobe-version") {
  struct Layout {
    std::vector<std::string> folders;
    const char* words;
  };
  // 8.x single process: step0/rank; 26.x single process: step0/proc<pid>; torch.distributed: rank<N>.
  const Layout layouts[] = {{{"rank"}, "by msProbe 8.x (folder \"rank\")"},
                            {{"proc4242"}, "by msProbe 26.x (folders \"proc<pid>\")"},
                            {{"rank0", "rank1"}, "a torch.distributed run"}};
  for (const Layout& layout : layouts) {
    for (const char* version : {static_cast<const char*>(nullptr), "8.3.3", "26.0.0"}) {
      Run run;
      for (const std::string& f : layout.folders) {
        run.rank("dump/step0/" + f);
        run.rank("dump/step1/" + f);
      }
      DumpReport r = run.check(R"({"dump_path": "./dump", "step": [0, 1]})", target(version));
      INFO(layout.folders.front() << " with --msprobe-version " << (version ? version : "(none)") << "\n"
                                  << to_text(r));
      CHECK(r.ok);
      CHECK(r.layout.find(layout.words) != std::string::npos);
      REQUIRE(r.steps.size() == 2);
      CHECK(r.steps[0].ranks.size() == layout.folders.size());
      bool mismatch = version && ((std::string(version) == "8.3.3" && layout.folders.front() == "proc4242") ||
                                  (std::string(version) == "26.0.0" && layout.folders.front() == "rank"));
      CHECK(any_note(r, "check which msProbe the run used") == mismatch);
    }
  }
}

TEST_CASE("check-dump: 8.x writes stack.json and construct.json whatever extra_info says") {
  Run run;
  run.file("dump/step0/rank/dump.json", kStatisticsDumpJson);
  const char* config = R"({"dump_path": "./dump", "extra_info": false})";
  // The folder "rank" says 8.x wrote it, so the missing files count without a target version.
  DumpReport guessed = run.check(config);
  CHECK_FALSE(guessed.ok);
  CHECK(to_text(guessed).find("stack.json is missing") != std::string::npos);
  CHECK_FALSE(run.check(config, target("8.3.3")).ok);
  Run proc;
  proc.file("dump/step0/proc77/dump.json", kStatisticsDumpJson);
  CHECK(proc.check(config).ok);  // 26.x honours extra_info: false
}

TEST_CASE("check-dump: a rank filter that matches no process is named when the dump_path is absent") {
  Run run;
  DumpReport r = run.check(R"({"dump_path": "./dump", "rank": [0]})");
  INFO(to_text(r));
  CHECK_FALSE(r.exists);
  REQUIRE_FALSE(r.causes.empty());
  CHECK(r.causes.front().find("\"rank\": [0] matched no process of the run") != std::string::npos);
  CHECK(r.causes.front().find("does not even create the dump_path") != std::string::npos);
  CHECK_FALSE(any_cause(r, "start() was never reached"));
  DumpReport all = run.check(R"({"dump_path": "./dump", "rank": []})");
  CHECK(any_cause(all, "start() was never reached"));
}

TEST_CASE("check-dump: empty steps and their likely cause") {
  Run guard;  // start() before `if i >= n: break`: the guarded iteration still opens a step
  guard.rank("dump/step0/proc1");
  guard.rank("dump/step1/proc1", false);
  guard.rank("dump/step2/proc1");
  DumpReport r = guard.check(R"({"dump_path": "./dump", "step": [0, 1, 2]})");
  INFO(to_text(r));
  CHECK_FALSE(r.ok);
  CHECK(any_cause(r, "steps [1] are empty (dump.json has \"data\": {}) while steps [0, 2] have data"));
  CHECK(any_cause(r, "break/continue"));
  CHECK(any_cause(r, "step() is called twice"));

  Run none;
  none.rank("dump/step0/rank", false);
  DumpReport t = none.check(R"({"task": "tensor", "dump_path": "./dump"})");
  CHECK(any_cause(t, "every dump.json is empty"));
  CHECK(any_cause(t, "PyTorch < 2.0"));
  DumpReport st = none.check(R"({"task": "statistics", "dump_path": "./dump"})");
  CHECK(any_cause(st, "every dump.json is empty"));
  CHECK_FALSE(any_cause(st, "PyTorch < 2.0"));

  Run ranks;  // one rank of two recorded nothing
  ranks.rank("dump/step0/rank0");
  ranks.rank("dump/step0/rank1", false);
  CHECK(any_cause(ranks.check(R"({"dump_path": "./dump"})"), "in steps [0] some processes recorded nothing"));
}

TEST_CASE("check-dump: a large dump.json is read to the end, not assumed to hold data") {
  Run run;
  std::string padding(200 * 1024, 'x');
  run.file("dump/step0/proc1/dump.json", R"({"task": "statistics", "note": ")" + padding + R"(", "data": {}})");
  run.file("dump/step0/proc1/stack.json", "{}");
  run.file("dump/step0/proc1/construct.json", "{}");
  DumpReport r = run.check(R"({"dump_path": "./dump"})");
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].ranks[0].dump_json_bytes > 200 * 1024);
  CHECK_FALSE(r.steps[0].ranks[0].dump_json_has_data);
  CHECK(any_cause(r, "every dump.json is empty"));
}

TEST_CASE("check-dump: the errors msProbe logged in dump_error_info.log are in the report") {
  Run run;
  run.rank("dump/step0/rank", false);
  run.file("dump/step0/rank/dump_error_info.log",
           "2026-01-01 [ERROR] AttributeError: 'Tensor' object has no attribute 'untyped_storage'\n\nsecond line\n");
  DumpReport r = run.check(R"({"task": "tensor", "dump_path": "./dump"})");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].total == 2);
  CHECK(r.errors[0].lines[0].find("untyped_storage") != std::string::npos);
  CHECK(any_cause(r, "msProbe logged 2 error line(s)"));
  CHECK_FALSE(r.ok);
  std::string text = to_text(r);
  CHECK(text.find("errors from " + (run.root / "dump/step0/rank/dump_error_info.log").string()) != std::string::npos);
  CHECK(text.find("  | second line") != std::string::npos);
  CHECK(to_json(r)["errors"][0]["lines"].size() == 2);

  add_run_errors(r, {"[ERROR] The file path /d+ contains special characters."}, 1);
  CHECK(any_cause(r, "the run printed 1 [ERROR] line(s)"));
  CHECK(to_json(r)["errors"].size() == 2);
}

TEST_CASE("check-dump: the tensor-volume estimate from dump.json's dtypes and shapes") {
  Run one;
  one.rank("dump/step0/rank0");
  DumpReport r = one.check(R"({"dump_path": "./dump", "step": [0]})");
  REQUIRE(r.tensor_bytes_per_step.count(0));
  CHECK(r.tensor_bytes_per_step.at(0) == kStatisticsTensorBytes);
  CHECK(r.steps[0].ranks[0].tensors == 3);
  nlohmann::json j = to_json(r);
  CHECK(j["tensor_bytes_per_step"]["0"] == kStatisticsTensorBytes);
  std::vector<std::string> lines = tensor_estimate_lines(r);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "a tensor dump of step 0 would write about 194 B on rank 0");
  CHECK(to_text(r).find("estimate: a tensor dump of step 0 would write about 194 B on rank 0") != std::string::npos);

  Run two;  // two ranks, two steps dumped, ten configured
  for (const char* d : {"dump/step0/rank0", "dump/step0/rank1", "dump/step1/rank0", "dump/step1/rank1"}) two.rank(d);
  DumpReport t = two.check(R"({"dump_path": "./dump", "step": ["0-9"]})");
  CHECK(t.tensor_bytes_per_step.at(0) == 2 * kStatisticsTensorBytes);
  CHECK(t.tensor_bytes_per_step.at(1) == 2 * kStatisticsTensorBytes);
  lines = tensor_estimate_lines(t);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "a tensor dump of step 0 would write about 388 B: 194 B on rank 0, 194 B on rank 1");
  CHECK(lines[2] ==
        "for the 10 configured step(s) [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]: about 3.9 KB (the average of the 2 "
        "steps dumped)");
  DumpReport every = two.check(R"({"dump_path": "./dump"})");
  CHECK(tensor_estimate_lines(every).back() ==
        "the config dumps every step: about 388 B per step (the average of the 2 "
        "steps dumped)");

  Run single;  // 8.x's single-process folder
  single.rank("dump/step0/rank");
  CHECK(tensor_estimate_lines(single.check(R"({"dump_path": "./dump", "step": [0]})")).front() ==
        "a tensor dump of step 0 would write about 194 B in the single process");
}

TEST_CASE("dump.json scan: tensors anywhere in the data, sizes by dtype, no data, broken files") {
  DumpJsonScan s = scan_dump_json_text(kStatisticsDumpJson);
  CHECK(s.readable);
  CHECK(s.has_data);
  CHECK(s.tensors == 3);
  CHECK(s.tensor_bytes == kStatisticsTensorBytes);
  // Nested argument lists, parameters, a bfloat16 and an unknown dtype.
  DumpJsonScan n = scan_dump_json_text(R"({"data": {"Module.fc.Linear.forward.0": {
      "input_args": [[{"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [1000, 1000]}]],
      "parameters": {"weight": {"type": "torch.Tensor", "dtype": "torch.float64", "shape": [3]}},
      "output": [{"type": "torch.Tensor", "dtype": "torch.weird", "shape": [5]}]}}})");
  CHECK(n.tensors == 3);
  CHECK(n.unknown_dtypes == 1);
  CHECK(n.tensor_bytes == 2000000 + 24);
  CHECK_FALSE(scan_dump_json_text(R"({"task": "tensor", "data": {}})").has_data);
  CHECK(scan_dump_json_text(R"({"task": "tensor", "data": {}})").readable);
  CHECK_FALSE(scan_dump_json_text(R"({"data": {"a": )").readable);
  // A shape too large to multiply saturates instead of wrapping.
  DumpJsonScan big = scan_dump_json_text(
      R"({"data": {"x": {"dtype": "torch.float32", "shape": [4294967296, 4294967296, 4294967296]}}})");
  CHECK(big.tensor_bytes == std::numeric_limits<long long>::max());
  CHECK(dtype_size("torch.float32") == 4);
  CHECK(dtype_size("int64") == 8);
  CHECK(dtype_size("torch.complex128") == 16);
  CHECK(dtype_size("torch.nonsense") == 0);
  CHECK(human_bytes(999) == "999 B");
  CHECK(human_bytes(1300000000) == "1.3 GB");
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
