// The position-aware JSON reader and the cursor locator.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>

#include "msprobe/analysis/config/config_assist.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/config/json_doc.h"

using namespace msprobe::analysis;
using namespace msprobe::analysis::config;

namespace {

std::string covered(std::string_view text, ByteRange r) { return std::string(text.substr(r.start, r.end - r.start)); }

// Splits "...^..." into the text without the caret and the caret's offset.
std::pair<std::string, std::size_t> marked(std::string s) {
  std::size_t at = s.find('^');
  REQUIRE(at != std::string::npos);
  s.erase(at, 1);
  return {s, at};
}

}  // namespace

TEST_CASE("json: values keep the ranges of keys and values") {
  std::string t = R"({"task": "statistics", "rank": [0, "4-6"], "x": {"y": null}, "f": -1.5e3, "b": true})";
  JsonDoc d = parse_json(t);
  REQUIRE(d.ok());
  const JsonValue& r = d.root;
  REQUIRE(r.is(JsonKind::Object));
  REQUIRE(r.members.size() == 5);
  CHECK(covered(t, r.members[0].key_range) == "\"task\"");
  CHECK(covered(t, r.members[0].value.range) == "\"statistics\"");
  CHECK(r.get("task")->text == "statistics");
  const JsonValue* rank = r.get("rank");
  REQUIRE(rank->items.size() == 2);
  CHECK(rank->items[0].is_int());
  CHECK(rank->items[0].int_value == 0);
  CHECK(covered(t, rank->items[1].range) == "\"4-6\"");
  CHECK(r.get("x")->get("y")->is(JsonKind::Null));
  CHECK_FALSE(r.get("f")->integer);
  CHECK(r.get("f")->number == -1500.0);
  CHECK(r.get("b")->boolean);
  CHECK(covered(t, r.range) == t);
}

TEST_CASE("json: strings are decoded (escapes, surrogate pairs, UTF-8)") {
  JsonDoc d = parse_json(R"(["a\"b\\c\/\n", "\u00e9\u6a21\ud83d\ude00", "数据"])");
  REQUIRE(d.ok());
  CHECK(d.root.items[0].text == "a\"b\\c/\n");
  CHECK(d.root.items[1].text == "\xc3\xa9\xe6\xa8\xa1\xf0\x9f\x98\x80");
  CHECK(d.root.items[2].text == "数据");
}

TEST_CASE("json: Python's extensions and big numbers") {
  JsonDoc d = parse_json("[NaN, Infinity, -Infinity, 123456789012345678901234567890]");
  REQUIRE(d.ok());
  CHECK(d.root.items[0].is(JsonKind::Number));
  CHECK(d.root.items[3].integer);
  CHECK_FALSE(d.root.items[3].int_fits);
}

TEST_CASE("json: repeated keys: the last one wins, earlier ones are shadowed") {
  JsonDoc d = parse_json(R"({"a": 1, "b": 2, "a": 3})");
  REQUIRE(d.ok());
  CHECK(d.root.members[0].shadowed);
  CHECK_FALSE(d.root.members[2].shadowed);
  CHECK(d.root.get("a")->int_value == 3);
}

TEST_CASE("json: the first syntax error is reported at its offset and the prefix is kept") {
  struct Case {
    const char* text;
    const char* marker;  // the error offset, marked with ^ in a copy of the text
    const char* message;
  };
  const Case cases[] = {
      {R"({"a": 1 "b": 2})", R"({"a": 1 ^"b": 2})", "expected ',' or '}'"},
      {R"({"a": [1, 2,]})", R"({"a": [1, 2^,]})", "trailing comma"},
      {R"({"a": tru})", R"({"a": ^tru})", "expected a value"},
      {R"({"a": "x)", R"({"a": ^"x)", "unterminated string"},
      {"{\"a\": \"x\ty\"}", "{\"a\": \"x^\ty\"}", "control character"},
      {R"({"a": "\q"})", R"({"a": "^\q"})", "invalid escape"},
      {R"({"a": 1} x)", R"({"a": 1} ^x)", "extra data"},
      {R"({"a": 01})", R"({"a": 0^1})", "expected ',' or '}'"},
      {"", "^", "empty"},
      {R"({a: 1})", R"({^a: 1})", "property name"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    JsonDoc d = parse_json(c.text);
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].offset == marked(c.marker).second);
    CHECK(d.errors[0].message.find(c.message) != std::string::npos);
  }
  JsonDoc d = parse_json(R"({"task": "tensor", "level": "L1", "step": [0,)");
  REQUIRE(d.has_root);
  CHECK(d.root.get("task")->text == "tensor");
  CHECK(d.root.get("level")->text == "L1");
  CHECK_FALSE(d.root.get("step")->complete);
  CHECK_FALSE(d.root.complete);
}

TEST_CASE("json: deep nesting is an error, not a crash") {
  std::string deep(100000, '[');
  JsonDoc d = parse_json(deep);
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0].message.find("nested too deeply") != std::string::npos);
}

TEST_CASE("json cursor: keys, values, array items, paths and sibling keys") {
  SECTION("a new key at the top level") {
    auto [t, at] = marked(R"({"task": "statistics", ^ "step": []})");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Key);
    CHECK(c.path.empty());
    CHECK(c.sibling_keys == std::vector<std::string>{"task", "step"});
  }
  SECTION("a key being typed inside quotes, in a task block") {
    auto [t, at] = marked(R"({"task": "tensor", "tensor": {"sc^"}})");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Key);
    CHECK(c.path == std::vector<std::string>{"tensor"});
    CHECK(c.inside_string);
    CHECK(c.typed == "sc");
    CHECK(covered(t, c.replace) == "\"sc\"");
  }
  SECTION("a key followed by a colon already") {
    auto [t, at] = marked(R"({"le^": "L1"})");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Key);
    CHECK(c.colon_follows);
  }
  SECTION("a value after the colon") {
    auto [t, at] = marked(R"({"level": ^})");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Value);
    CHECK(c.key == "level");
    CHECK(c.replace.start == c.replace.end);
  }
  SECTION("a value being typed in an unfinished file") {
    auto [t, at] = marked("{\n  \"task\": \"ten^");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Value);
    CHECK(c.key == "task");
    CHECK(c.typed == "ten");
    CHECK(covered(t, c.replace) == "\"ten");
  }
  SECTION("an item of a list inside a block") {
    auto [t, at] = marked(R"({"statistics": {"data_mode": ["forward", ^]}})");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Value);
    CHECK(c.in_array);
    CHECK(c.key == "data_mode");
    CHECK(c.path == std::vector<std::string>{"statistics"});
  }
  SECTION("a bare word is replaced as a whole") {
    auto [t, at] = marked(R"({"async_dump": tr^})");
    JsonCursor c = locate(t, at);
    CHECK(c.kind == JsonCursor::Kind::Value);
    CHECK(covered(t, c.replace) == "tr");
  }
  SECTION("after a complete value there is nothing to complete") {
    auto [t, at] = marked(R"({"level": "L1"^})");
    CHECK(locate(t, at).kind == JsonCursor::Kind::None);
  }
  SECTION("outside the root object") {
    auto [t, at] = marked(R"(^{"level": "L1"})");
    CHECK(locate(t, at).kind == JsonCursor::Kind::None);
  }
}

TEST_CASE("json reader, cursor, checker, hover and completion survive random edits") {
  // Deterministic mutations of a real config: every prefix, and random byte
  // deletions/insertions. Nothing may crash, and every range stays in the text.
  const std::string base = R"({
    "task": "tensor", "dump_path": "/d", "rank": [0, "2-3"], "step": [],
    "level": "L2", "async_dump": true, "extra_info": false,
    "tensor": {"scope": [], "list": ["Functional.linear.0.forward"], "slice": [{"dim": 0}], "data_mode": ["all"]},
    "statistics": {"summary_mode": "md5"}, "seed": 1, "levle": "x", "task": "statistics"
})";
  const char pieces[] = "{}[]:,\"\\ \n0-9eEtrufalsnNI/'";
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
  std::vector<std::string> texts;
  for (std::size_t n = 0; n <= base.size(); n += 3) texts.push_back(base.substr(0, n));
  for (int i = 0; i < 300; ++i) {
    std::string t = base;
    for (int k = 0; k < 4; ++k) {
      std::size_t at = next() % (t.size() + 1);
      if (next() % 2 && at < t.size()) t.erase(at, 1 + next() % 3);
      else t.insert(at, 1, pieces[next() % (sizeof pieces - 1)]);
    }
    texts.push_back(t);
  }
  msprobe::analysis::AnalysisOptions options;
  for (const std::string& t : texts) {
    JsonDoc d = parse_json(t);
    for (const auto& e : d.errors) REQUIRE(e.offset <= t.size());
    for (const Finding& f : check_config(t, options)) {
      REQUIRE(f.range.start <= f.range.end);
      REQUIRE(f.range.end <= t.size());
      for (const Fix& fix : f.fixes) {
        for (const Edit& e : fix.edits) REQUIRE(e.range.end <= t.size());
      }
    }
    for (std::size_t at = 0; at <= t.size(); at += 7) {
      JsonCursor c = locate(t, at);
      REQUIRE(c.replace.start <= c.replace.end);
      REQUIRE(c.replace.end <= t.size());
      if (auto h = config_hover(t, at, options)) REQUIRE(h->range.end <= t.size());
      for (const auto& item : config_completions(t, at, options)) REQUIRE(item.replace.end <= t.size());
    }
  }
}

TEST_CASE("check: acc_check's error_data_path must exist (absolute paths, when the file system is known)") {
  const std::string text =
      R"({"task": "acc_check", "dump_path": "/d", "acc_check": {"white_list": [], "error_data_path": "/no/such/dir"}})";
  AnalysisOptions options;
  auto msp301 = [&](const std::vector<Finding>& fs) {
    std::vector<std::string> out;
    for (const Finding& f : fs) {
      if (f.code == "MSP301") out.push_back(text.substr(f.range.start, f.range.end - f.range.start) + " " + f.message);
    }
    return out;
  };
  CHECK(msp301(check_config(text, options)).empty());  // no file system: silent
  std::vector<std::string> asked;
  options.directory_exists = std::make_shared<const std::function<bool(const std::string&)>>([&](const std::string& p) {
    asked.push_back(p);
    return p == "/data/errors";
  });
  auto found = msp301(check_config(text, options));
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("\"/no/such/dir\" error_data_path \"/no/such/dir\" does not exist", 0) == 0);
  CHECK(asked == std::vector<std::string>{"/no/such/dir"});

  std::string ok = text;
  ok.replace(ok.find("/no/such/dir"), 12, "/data/errors");
  CHECK(msp301(check_config(ok, options)).empty());
  std::string relative = text;
  relative.replace(relative.find("/no/such/dir"), 12, "./errors");
  asked.clear();
  CHECK(msp301(check_config(relative, options)).empty());  // depends on where the run starts: not checked
  CHECK(asked.empty());
}
