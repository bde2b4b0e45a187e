// The config.json entry points: the rules' check over the shared walk
// (config/config_walk.h; each rule in analysis/rules/msp30*.cpp), and the
// rank/step and dump_path syntax that the rules, the generator and the
// editors' input checks share.
#include "msprobe/analysis/config/config_check.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "config/config_walk.h"

namespace msprobe::analysis::config {
namespace {

constexpr long long kRangeMax = 1000000;
constexpr std::size_t kMaxConfigBytes = 1 << 20;

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Python's int() on one side of "A-B": optional sign, digits (underscores between them), spaces around.
bool parse_py_int(std::string_view s, long long& out) {
  std::string t = trim(s);
  if (t.empty()) return false;
  bool neg = false;
  std::size_t i = 0;
  if (t[0] == '+' || t[0] == '-') {
    neg = t[0] == '-';
    i = 1;
  }
  if (i >= t.size()) return false;
  long long v = 0;
  bool digit_before = false;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (c == '_' && digit_before && i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1]))) continue;
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    digit_before = true;
    if (v < 1'000'000'000'000LL) v = v * 10 + (c - '0');
  }
  out = neg ? -v : v;
  return true;
}

}  // namespace

std::string range_entry_problem(const RangeEntry& e, std::string_view field) {
  std::string name(field);
  if (e.is_int) {
    if (e.number < 0 || e.number > kRangeMax)
      return "each " + name + " entry must be between 0 and 1000000, not " + std::to_string(e.number);
    return "";
  }
  std::string t = trim(e.text);
  std::size_t hyphen = t.find('-', 1);
  if (t.find('-') == 0 && hyphen == std::string::npos) hyphen = 0;
  if (hyphen == std::string::npos) {
    long long n = 0;
    if (!parse_py_int(t, n))
      return "the string " + quoted(e.text) + " in " + name +
             " is not \"N\" or \"A-B\" (msProbe: \"The string parameter for " + name +
             " only supports formats like \\\"3-5\\\"\")";
    if (n < 0 || n > kRangeMax) return name + " entry " + quoted(e.text) + " is outside [0, 1000000]";
    return "";
  }
  std::string left = t.substr(0, hyphen), right = t.substr(hyphen + 1);
  if (right.find('-') != std::string::npos)
    return "the string " + quoted(e.text) + " in " + name + " has more than one hyphen; write \"A-B\"";
  long long a = 0, b = 0;
  if (!parse_py_int(left, a) || !parse_py_int(right, b))
    return "in " + quoted(e.text) + " the hyphen(-) must have a number on both sides, as in \"4-6\"";
  if (a < 0 || a > kRangeMax || b < 0 || b > kRangeMax)
    return "the bounds of " + quoted(e.text) + " must be within [0, 1000000]";
  if (a > b)
    return "in " + quoted(e.text) + " the left boundary (" + std::to_string(a) + ") is greater than the right one (" +
           std::to_string(b) + ")";
  return "";
}

bool expand_ranges(const std::vector<RangeEntry>& entries, std::vector<long long>& out, std::size_t cap) {
  std::set<long long> values;
  for (const RangeEntry& e : entries) {
    if (!range_entry_problem(e, "step").empty()) return false;
    if (e.is_int) {
      values.insert(e.number);
      continue;
    }
    std::string t = trim(e.text);
    std::size_t hyphen = t.find('-', 1);
    long long a = 0, b = 0;
    if (hyphen == std::string::npos) {
      parse_py_int(t, a);
      b = a;
    } else {
      parse_py_int(t.substr(0, hyphen), a);
      parse_py_int(t.substr(hyphen + 1), b);
    }
    for (long long i = a; i <= b && values.size() < cap; ++i) values.insert(i);
  }
  out.assign(values.begin(), values.end());
  return true;
}

std::optional<std::vector<RangeEntry>> parse_range_list(std::string_view text, std::string& error) {
  std::string t = trim(text);
  std::vector<RangeEntry> out;
  if (!t.empty() && t[0] == '[') {
    JsonDoc doc = parse_json(t);
    if (!doc.ok() || !doc.root.is(JsonKind::Array)) {
      error = "not a JSON list: " + t;
      return std::nullopt;
    }
    for (const JsonValue& item : doc.root.items) {
      RangeEntry e;
      if (item.is_int() && item.int_fits) e.number = item.int_value;
      else if (item.is(JsonKind::String)) e.is_int = false, e.text = item.text;
      else {
        error = "entries must be integers or strings such as \"4-6\"";
        return std::nullopt;
      }
      out.push_back(e);
    }
    return out;
  }
  std::size_t start = 0;
  while (start <= t.size()) {
    std::size_t comma = t.find(',', start);
    std::string item = trim(
        std::string_view(t).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) {
      if (item.size() >= 2 && item.front() == '"' && item.back() == '"') item = item.substr(1, item.size() - 2);
      RangeEntry e;
      long long n = 0;
      bool digits = std::all_of(item.begin(), item.end(),
                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      if (digits && parse_py_int(item, n)) e.number = n;
      else e.is_int = false, e.text = item;
      out.push_back(e);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string range_list_json(const std::vector<RangeEntry>& entries) {
  std::string out = "[";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    if (entries[i].is_int) out += std::to_string(entries[i].number);
    else append_json_string(out, entries[i].text);
  }
  return out + "]";
}

std::string dump_path_problem(std::string_view path) {
  if (path.empty()) return "dump_path is empty";
  if (path.size() > 4096) return "dump_path is longer than 4096 characters";
  std::vector<std::string> bad;
  for (std::size_t i = 0; i < path.size();) {
    unsigned char c = static_cast<unsigned char>(path[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    len = std::min(len, path.size() - i);
    if (len > 1 || !dump_path_char_ok(path[i])) {
      std::string ch(path.substr(i, len));
      std::string shown = ch == " " ? "space" : ch == "\t" ? "tab" : "'" + ch + "'";
      if (std::find(bad.begin(), bad.end(), shown) == bad.end()) bad.push_back(shown);
    }
    i += len;
  }
  if (bad.empty()) return "";
  std::string msg = "dump_path contains characters msProbe rejects (" + join(bad) +
                    "): only letters, digits and _ . : / - are allowed (\"contains special characters\")";
  if (path[0] == '~') msg += "; msProbe does not expand ~, write the full path";
  return msg;
}

std::vector<Finding> check_config(std::string_view text, const AnalysisOptions& options) {
  ConfigContext ctx(text, options);
  std::vector<Finding> out;
  for (const Rule* rule : all_rules()) {
    if (!rule->check_config || options.disabled_rules.count(std::string(rule->meta.code))) continue;
    std::vector<Finding> local;
    FindingSink sink(local);
    rule->check_config(ctx, sink);
    auto over = options.severity_overrides.find(std::string(rule->meta.code));
    for (Finding& f : local) {
      if (over != options.severity_overrides.end()) f.severity = over->second;
      out.push_back(std::move(f));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return a.code < b.code;
  });
  return out;
}

bool looks_like_msprobe_config(std::string_view text) {
  if (text.size() > kMaxConfigBytes) return false;
  JsonDoc doc = parse_json(text);
  if (!doc.has_root || !doc.root.is(JsonKind::Object)) return false;
  const JsonValue& r = doc.root;
  // msProbe's own outputs (dump.json) carry task and level too.
  if (r.member("data") || r.member("dump_data_dir") || r.member("framework")) return false;
  if (r.member("dump_path")) return true;
  return r.member("task") && (r.member("level") || r.member("rank") || r.member("step"));
}

ConfigSummary summarize_config(std::string_view text) {
  ConfigSummary s;
  JsonDoc doc = parse_json(text);
  if (!doc.has_root || !doc.root.is(JsonKind::Object)) return s;
  s.readable = true;
  const JsonValue& r = doc.root;
  // "" (and a null level) run as msProbe's defaults.
  if (const JsonValue* v = r.get("task"); v && v->is(JsonKind::String) && !v->text.empty())
    s.task = v->text, s.task_set = true;
  if (const JsonValue* v = r.get("level"); v && v->is(JsonKind::String) && !v->text.empty())
    s.level = v->text, s.level_set = true;
  if (const JsonValue* v = r.get("dump_path"); v && v->is(JsonKind::String))
    s.dump_path = v->text, s.dump_path_set = true;
  if (const JsonValue* v = r.get("extra_info"); v && v->is(JsonKind::Bool)) s.extra_info = v->boolean;
  if (const JsonValue* v = r.get("async_dump"); v && v->is(JsonKind::Bool)) s.async_dump = v->boolean;
  auto ranges = [&](const char* key, std::vector<RangeEntry>& out, bool& valid) {
    const JsonValue* v = r.get(key);
    if (!v || v->is(JsonKind::Null)) return;
    if (!v->is(JsonKind::Array)) {
      valid = false;
      return;
    }
    for (const JsonValue& item : v->items) {
      RangeEntry e;
      if (item.is_int() && item.int_fits) e.number = item.int_value;
      else if (item.is(JsonKind::String)) e.is_int = false, e.text = item.text;
      else {
        valid = false;
        continue;
      }
      if (!range_entry_problem(e, key).empty()) valid = false;
      out.push_back(e);
    }
  };
  ranges("rank", s.rank, s.rank_valid);
  ranges("step", s.step, s.step_valid);
  if (const JsonValue* v = r.get("rank"))
    s.rank_text = std::string(text.substr(v->range.start, v->range.end - v->range.start));
  return s;
}

}  // namespace msprobe::analysis::config
