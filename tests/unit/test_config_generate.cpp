// config.json generation: the rendered text, its validation, and the
// rank/step and dump_path helpers shared with the commands and the CLI.
#include <catch2/catch.hpp>

#include "msprobe/analysis/config/config_generate.h"

using namespace msprobe::analysis;
using namespace msprobe::analysis::config;

TEST_CASE("generate: the recommended defaults render as msProbe's layout and check clean") {
  GenerateRequest r;
  r.dump_path = "/home/user/project/dump_path";
  r.step = {{true, 0, ""}, {true, 1, ""}};
  GeneratedConfig g = generate_config(r, {});
  CHECK(g.ok());
  CHECK(g.notes.empty());
  CHECK(g.text == R"({
    "task": "statistics",
    "dump_path": "/home/user/project/dump_path",
    "rank": [],
    "step": [0, 1],
    "level": "L1",
    "async_dump": false,
    "extra_info": true,
    "statistics": {
        "scope": [],
        "list": [],
        "data_mode": ["all"],
        "summary_mode": "statistics"
    }
}
)");
  CHECK(check_config(g.text, {}).empty());
}

TEST_CASE("generate: every 26.x and 8.x task renders a config the checker accepts") {
  for (ConfigVersion v : {ConfigVersion::V26, ConfigVersion::V8}) {
    AnalysisOptions o;
    if (v == ConfigVersion::V8) o.msprobe_version = Version::parse("8.3.0");
    for (const TaskSpec* t : tasks_of(v)) {
      GenerateRequest r;
      r.task = std::string(t->name);
      r.dump_path = "/d";
      r.level = t->name == "structure" ? "mix" : "L1";
      GeneratedConfig g = generate_config(r, o);
      INFO(to_string(v) << " " << t->name << "\n" << g.text);
      CHECK(g.ok());
      JsonDoc d = parse_json(g.text);
      REQUIRE(d.ok());
      CHECK((d.root.get("extra_info") != nullptr) == (v == ConfigVersion::V26));
      CHECK((d.root.get(t->name) != nullptr) == t->has_block);
    }
  }
}

TEST_CASE("generate: invalid values are refused with the checker's message") {
  GenerateRequest r;
  r.level = "L3";
  r.dump_path = "my dumps";
  r.rank = {{false, 0, "5-3"}};
  GeneratedConfig g = generate_config(r, {});
  CHECK_FALSE(g.ok());
  auto has = [&](const char* s) {
    return std::any_of(g.errors.begin(), g.errors.end(),
                       [&](const std::string& e) { return e.find(s) != std::string::npos; });
  };
  CHECK(has("is not a valid level"));
  CHECK(has("characters msProbe rejects"));
  CHECK(has("left boundary (5)"));
}

TEST_CASE("generate: combinations are refused, block contents left to fill in become notes") {
  GenerateRequest r;
  r.task = "nan_check";
  r.level = "L0";
  r.dump_path = "/d";
  CHECK_FALSE(generate_config(r, {}).ok());
  r.task = "tensor";
  r.level = "L2";
  GeneratedConfig g = generate_config(r, {});
  CHECK(g.ok());
  REQUIRE(g.notes.size() == 1);
  CHECK(g.notes[0].find("exactly one API name") != std::string::npos);
  r.level = "L1";
  r.dump_path = "./dump_path";
  g = generate_config(r, {});
  CHECK(g.ok());
  REQUIRE(g.notes.size() == 1);
  CHECK(g.notes[0].find("relative dump_path") != std::string::npos);
}

TEST_CASE("generate: strings are escaped") {
  GenerateRequest r;
  r.dump_path = "/a\"b\\c";
  r.step = {{false, 0, "4-6"}};
  JsonDoc d = parse_json(render_config(r, ConfigVersion::V26));
  REQUIRE(d.ok());
  CHECK(d.root.get("dump_path")->text == "/a\"b\\c");
  CHECK(d.root.get("step")->items[0].text == "4-6");
}

TEST_CASE("rank/step lists from the command line and from JSON") {
  std::string err;
  auto a = parse_range_list("0, 1,4-6", err);
  REQUIRE(a);
  CHECK(range_list_json(*a) == R"([0, 1, "4-6"])");
  auto b = parse_range_list(R"([0, "2-3"])", err);
  REQUIRE(b);
  CHECK(range_list_json(*b) == R"([0, "2-3"])");
  auto c = parse_range_list("", err);
  REQUIRE(c);
  CHECK(c->empty());
  CHECK_FALSE(parse_range_list("[0, true]", err));
  std::vector<long long> values;
  REQUIRE(expand_ranges(*a, values));
  CHECK(values == std::vector<long long>{0, 1, 4, 5, 6});
  CHECK_FALSE(expand_ranges({{false, 0, "x"}}, values));
}

TEST_CASE("dump_path and range entry problems") {
  CHECK(dump_path_problem("/data/dump_path-1.x:y").empty());
  CHECK(dump_path_problem("").find("empty") != std::string::npos);
  CHECK(dump_path_problem("~/d").find("does not expand ~") != std::string::npos);
  CHECK(dump_path_problem("/a b").find("space") != std::string::npos);
  CHECK(dump_path_problem(std::string(5000, 'a')).find("4096") != std::string::npos);
  CHECK(range_entry_problem({true, 3, ""}, "rank").empty());
  CHECK(range_entry_problem({false, 0, "3"}, "rank").empty());
  CHECK(range_entry_problem({false, 0, " 4 - 6 "}, "rank").empty());
  CHECK_FALSE(range_entry_problem({true, -1, ""}, "rank").empty());
  CHECK_FALSE(range_entry_problem({false, 0, "4-"}, "step").empty());
}
