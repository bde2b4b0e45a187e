// Hover and completion inside config.json, at positions marked with ^.
#include <catch2/catch.hpp>

#include "msprobe/analysis/config/config_assist.h"

using namespace msprobe::analysis;
using namespace msprobe::analysis::config;

namespace {

std::pair<std::string, std::size_t> marked(std::string s) {
  std::size_t at = s.find('^');
  REQUIRE(at != std::string::npos);
  s.erase(at, 1);
  return {s, at};
}

std::string covered(std::string_view text, ByteRange r) { return std::string(text.substr(r.start, r.end - r.start)); }

std::vector<std::string> labels(const std::vector<ConfigCompletion>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(i.label);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const ConfigCompletion* find(const std::vector<ConfigCompletion>& items, const std::string& label) {
  for (const auto& i : items) {
    if (i.label == label) return &i;
  }
  return nullptr;
}

AnalysisOptions v8() {
  AnalysisOptions o;
  o.msprobe_version = Version::parse("8.3.3");
  return o;
}

}  // namespace

TEST_CASE("config hover: every top-level key and every block key has docs") {
  for (const FieldSpec& f : all_fields()) {
    std::string text = f.block.empty() ? "{\"" + std::string(f.name) + "\": null}"
                                       : "{\"" + std::string(f.block) + "\": {\"" + std::string(f.name) + "\": null}}";
    std::size_t at = text.find("\"" + std::string(f.name) + "\"") + 2;
    INFO(text);
    auto h = config_hover(text, at, AnalysisOptions{});
    REQUIRE(h);
    CHECK(covered(text, h->range) == "\"" + std::string(f.name) + "\"");
    CHECK(h->markdown.find("**" + std::string(f.name) + "**") != std::string::npos);
    CHECK(h->markdown.find(f.meaning) != std::string::npos);
  }
}

TEST_CASE("config hover: enum values, tasks, list items and version notes") {
  {
    auto [t, at] = marked(R"({"level": "m^ix"})");
    auto h = config_hover(t, at, {});
    REQUIRE(h);
    CHECK(covered(t, h->range) == "\"mix\"");
    CHECK(h->markdown.find("L0 and L1 together") != std::string::npos);
  }
  {
    auto [t, at] = marked(R"({"task": "sta^tistics"})");
    auto h = config_hover(t, at, {});
    REQUIRE(h);
    CHECK(h->markdown.find("task `statistics`") != std::string::npos);
  }
  {
    auto [t, at] = marked(R"({"statistics": {"data_mode": ["forward", "inp^ut"]}})");
    auto h = config_hover(t, at, {});
    REQUIRE(h);
    CHECK(covered(t, h->range) == "\"input\"");
    CHECK(h->markdown.find("inputs only") != std::string::npos);
  }
  {
    auto [t, at] = marked(R"({"ext^ra_info": true})");
    auto h = config_hover(t, at, v8());
    REQUIRE(h);
    CHECK(h->markdown.find("not read by 8.x") != std::string::npos);
  }
  {
    auto [t, at] = marked(R"({"ten^sor": {}})");
    auto h = config_hover(t, at, {});
    REQUIRE(h);
    CHECK(h->markdown.find("Block fields: `scope`") != std::string::npos);
  }
  {
    auto [t, at] = marked(R"({"level": "L1", "unkn^own": 1})");
    CHECK_FALSE(config_hover(t, at, {}));
  }
  {
    auto [t, at] = marked(R"({"rank": [0, ^1]})");
    auto h = config_hover(t, at, {});
    REQUIRE(h);
    CHECK(h->markdown.find("**rank**") != std::string::npos);
  }
}

TEST_CASE("config completion: top-level keys not yet present, plus the selected task's block") {
  auto [t, at] = marked("{\n  \"task\": \"tensor\",\n  ^\n}");
  auto items = config_completions(t, at, {});
  auto l = labels(items);
  CHECK_FALSE(has(l, "task"));
  CHECK(has(l, "level"));
  CHECK(has(l, "extra_info"));
  CHECK_FALSE(has(l, "enable_dataloader"));  // 8.x only
  CHECK_FALSE(has(l, "seed"));               // removed
  const ConfigCompletion* block = find(items, "tensor");
  REQUIRE(block);
  CHECK(block->insert == R"("tensor": {"scope": [], "list": [], "data_mode": ["all"]})");
  const ConfigCompletion* level = find(items, "level");
  REQUIRE(level);
  CHECK(level->insert == R"("level": "L1")");
  CHECK(level->replace.start == at);
}

TEST_CASE("config completion: 8.x keys for an 8.x target") {
  auto [t, at] = marked("{^}");
  auto l = labels(config_completions(t, at, v8()));
  CHECK(has(l, "enable_dataloader"));
  CHECK_FALSE(has(l, "extra_info"));
  CHECK(has(l, "statistics"));
}

TEST_CASE("config completion: a key typed in quotes keeps the colon that follows") {
  auto [t, at] = marked(R"({"lev^": "L1"})");
  auto items = config_completions(t, at, {});
  const ConfigCompletion* level = find(items, "level");
  REQUIRE(level);
  CHECK(level->insert == "\"level\"");
  CHECK(covered(t, level->replace) == "\"lev\"");
}

TEST_CASE("config completion: values of enums, booleans, tasks, rank/step and list items") {
  {
    auto [t, at] = marked(R"({"level": ^})");
    auto items = config_completions(t, at, {});
    CHECK(labels(items) == std::vector<std::string>{"L0", "L1", "L2", "mix", "debug"});
    CHECK(find(items, "L1")->preselect);
    CHECK(find(items, "mix")->insert == "\"mix\"");
  }
  {
    auto [t, at] = marked(R"({"task": "^"})");
    auto items = config_completions(t, at, {});
    auto l = labels(items);
    CHECK(has(l, "nan_check"));
    CHECK_FALSE(has(l, "overflow_check"));
    CHECK_FALSE(has(l, "exception_dump"));
    CHECK(find(items, "statistics")->preselect);
    CHECK(covered(t, find(items, "tensor")->replace) == "\"\"");
  }
  {
    auto [t, at] = marked(R"({"task": "^"})");
    auto l = labels(config_completions(t, at, v8()));
    CHECK(has(l, "overflow_check"));
    CHECK_FALSE(has(l, "nan_check"));
  }
  {
    auto [t, at] = marked(R"({"async_dump": ^})");
    auto items = config_completions(t, at, {});
    CHECK(labels(items) == std::vector<std::string>{"true", "false"});
    CHECK(find(items, "false")->preselect);
  }
  {
    auto [t, at] = marked(R"({"step": ^})");
    auto items = config_completions(t, at, {});
    REQUIRE(find(items, "[0, 1]"));
    CHECK(find(items, "[0, 1]")->preselect);
  }
  {
    auto [t, at] = marked(R"({"statistics": {"data_mode": [^]}})");
    auto items = config_completions(t, at, {});
    CHECK(has(labels(items), "forward"));
    CHECK(find(items, "all")->preselect);
  }
  {
    auto [t, at] = marked(R"({"statistics": {"summary_mode": ^}})");
    CHECK(has(labels(config_completions(t, at, {})), "xor"));
    CHECK_FALSE(has(labels(config_completions(t, at, v8())), "xor"));
  }
  {
    auto [t, at] = marked(R"({"statistics": {"slice": [{^}]}})");
    CHECK(labels(config_completions(t, at, {})) == std::vector<std::string>{"dim", "size", "begin", "end"});
  }
  {
    auto [t, at] = marked(R"({"nonsense": ^})");
    CHECK(config_completions(t, at, {}).empty());
  }
}
