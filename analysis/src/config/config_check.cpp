// The config.json validator. It walks the position-aware JSON once, checks
// each key against the field table for the target version, then applies the
// cross-field rules msProbe's DebuggerConfig enforces (msprobe-facts §1.3).
#include "msprobe/analysis/config/config_check.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace msprobe::analysis::config {
namespace {

constexpr long long kRangeMax = 1000000;
constexpr std::size_t kMaxConfigBytes = 1 << 20;

std::string q(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The closest candidate, if it is close enough to be a likely typo.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string w = lower(word);
  for (char& c : w) {
    if (c == '-' || c == ' ') c = '_';
  }
  std::string best;
  std::size_t best_d = 99;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(w, lower(c));
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  std::size_t limit = word.size() <= 3 ? 1 : (word.size() <= 6 ? 2 : 3);
  return best_d <= limit && best != word ? best : std::string();
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

uint32_t line_number(std::string_view text, uint32_t offset) {
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + std::min<std::size_t>(offset, text.size()), '\n')) + 1;
}

Fix replace_fix(std::string title, ByteRange r, std::string text, bool preferred = true) {
  Fix f;
  f.title = std::move(title);
  f.edits.push_back({r, std::move(text)});
  f.preferred = preferred;
  return f;
}

// Deletes member `i` of `obj` together with one neighbouring comma.
Fix delete_member_fix(const JsonValue& obj, std::size_t i, std::string title) {
  const JsonMember& m = obj.members[i];
  ByteRange r{m.key_range.start, m.value.range.end};
  if (i + 1 < obj.members.size()) r.end = obj.members[i + 1].key_range.start;
  else if (i > 0) r.start = obj.members[i - 1].value.range.end;
  Fix f;
  f.title = std::move(title);
  f.edits.push_back({r, ""});
  return f;
}

std::vector<std::string> names_of(const std::vector<const FieldSpec*>& fields) {
  std::vector<std::string> out;
  for (const FieldSpec* f : fields) out.emplace_back(f->name);
  return out;
}

std::vector<std::string> allowed_values(const FieldSpec& f, ConfigVersion v) {
  std::vector<std::string> out;
  if (f.name == "task" && f.block.empty()) {
    for (const TaskSpec* t : tasks_of(v)) out.emplace_back(t->name);
    return out;
  }
  for (const EnumValue& e : f.values) {
    if (in_version(e.versions, v)) out.emplace_back(e.name);
  }
  return out;
}

class Checker {
 public:
  Checker(std::string_view text, const AnalysisOptions& options, std::vector<Finding>& out)
      : text_(text), options_(options), v_(version_of(options)), out_(out) {}

  void run() {
    JsonDoc doc = parse_json(text_);
    for (const JsonSyntaxError& e : doc.errors) {
      uint32_t end = std::min<uint32_t>(e.offset + 1, static_cast<uint32_t>(text_.size()));
      report("MSP300", Severity::Error, {e.offset, std::max(end, e.offset)},
             "JSON syntax error: " + e.message + "; msProbe cannot read this file");
    }
    if (!doc.has_root) return;
    const JsonValue& root = doc.root;
    if (!root.is(JsonKind::Object)) {
      if (root.complete)
        report("MSP300", Severity::Error, root.range,
               std::string("config.json must be a JSON object ({...}), not ") + to_string(root.kind));
      return;
    }
    complete_ = doc.errors.empty();
    check_root(root);
  }

 private:
  void report(const char* code, Severity sev, ByteRange r, std::string message, std::vector<Fix> fixes = {},
              std::vector<Tag> tags = {}) {
    Finding f;
    f.code = code;
    f.severity = sev;
    f.range = r;
    f.message = std::move(message);
    f.fixes = std::move(fixes);
    f.tags = std::move(tags);
    out_.push_back(std::move(f));
  }

  std::string version_hint() const {
    return options_.msprobe_version ? "" : " (target msProbe " + std::string(to_string(v_)) + "; set msprobe.msprobeVersion otherwise)";
  }

  // ----- top level -----

  void check_root(const JsonValue& root) {
    std::string task = "statistics";
    if (const JsonValue* t = root.get("task"); t && t->is(JsonKind::String)) task = t->text;
    for (std::size_t i = 0; i < root.members.size(); ++i) {
      const JsonMember& m = root.members[i];
      if (m.shadowed) {
        repeated(root, i);
        continue;
      }
      if (const FieldSpec* f = find_field("", m.key)) {
        check_known_member(root, i, *f);
      } else if (const TaskSpec* t = find_task(m.key)) {
        check_block(root, i, *t, task);
      } else {
        unknown_key(root, i, "");
      }
    }
    if (!complete_) return;
    const JsonMember* dp = root.member("dump_path");
    if (!dp) {
      ByteRange at{root.range.start, root.range.start + 1};
      report("MSP303", Severity::Error, at,
             "dump_path is missing: msProbe stops with \"The dump_path not found.\" unless PrecisionDebugger(dump_path=...) "
             "passes it");
    }
    combinations(root);
  }

  void repeated(const JsonValue& obj, std::size_t i) {
    const JsonMember& m = obj.members[i];
    uint32_t later = 0;
    for (std::size_t j = obj.members.size(); j-- > i + 1;) {
      if (obj.members[j].key == m.key) later = obj.members[j].key_range.start;
    }
    report("MSP305", Severity::Warning, m.key_range,
           "repeated key " + q(m.key) + ": msProbe ignores this one and uses the one on line " +
               std::to_string(line_number(text_, later)),
           {delete_member_fix(obj, i, "Remove the ignored " + q(m.key))}, {Tag::Unnecessary});
  }

  // A key the table knows (top level or in a block); false when it is not read.
  bool usable(const JsonValue& obj, std::size_t i, const FieldSpec& f) {
    const JsonMember& m = obj.members[i];
    std::string where = f.block.empty() ? "" : " in " + q(f.block);
    if (!f.removed.empty()) {
      report("MSP305", Severity::Warning, m.key_range, q(m.key) + where + " is no longer read by msProbe: " + std::string(f.removed),
             {delete_member_fix(obj, i, "Remove " + q(m.key))}, {Tag::Deprecated});
      return false;
    }
    if (!in_version(f.versions, v_)) {
      report("MSP305", Severity::Warning, m.key_range,
             q(m.key) + where + " is read by msProbe " + versions_text(f.versions) + "; msProbe " + to_string(v_) +
                 " ignores it" + version_hint(),
             {}, {Tag::Unnecessary});
      return false;
    }
    if (f.name == "file_format" && v_ == ConfigVersion::V8) return true;  // 8.x's TensorConfig rejects bad values
    if (!f.ignored.empty()) {
      report("MSP305", Severity::Hint, m.key_range,
             q(m.key) + where + " is ignored by the PyTorch dump (" + std::string(f.ignored) + ")", {}, {Tag::Unnecessary});
      return false;
    }
    return true;
  }

  void check_known_member(const JsonValue& root, std::size_t i, const FieldSpec& f) {
    if (!usable(root, i, f)) return;
    const JsonMember& m = root.members[i];
    if (f.name == "task") return check_task(m);
    if (f.name == "dump_path") return check_dump_path(m);
    if (f.name == "rank" || f.name == "step") return check_ranks(m);
    check_value(f, m.value);
    if (f.name == "enable_dataloader" && v_ == ConfigVersion::V8)
      report("MSP305", Severity::Hint, m.key_range, "enable_dataloader is deprecated (and ignored by msProbe 26.x); call start/stop/step in the loop instead",
             {}, {Tag::Deprecated});
  }

  void unknown_key(const JsonValue& obj, std::size_t i, std::string_view block) {
    const JsonMember& m = obj.members[i];
    if (m.key == "keep_all_ranks") {
      report("MSP305", Severity::Warning, m.key_range,
             "keep_all_ranks is not an msProbe field (it comes from the vllm-ascend guide); msProbe ignores it. "
             "Use \"rank\": [] to dump every rank");
      return;
    }
    std::vector<std::string> candidates = names_of(fields_of(block, v_));
    if (block.empty()) {
      for (const TaskSpec* t : tasks_of(v_)) {
        if (t->has_block) candidates.emplace_back(t->name);
      }
    } else if (find_field("", m.key)) {
      report("MSP305", Severity::Warning, m.key_range,
             q(m.key) + " belongs at the top level of config.json; inside " + q(block) + " msProbe ignores it");
      return;
    }
    std::string where = block.empty() ? "" : " in " + q(block);
    std::string best = did_you_mean(m.key, candidates);
    std::string msg = "unknown key " + q(m.key) + where + ": msProbe ignores it";
    std::vector<Fix> fixes;
    if (!best.empty()) {
      msg += "; did you mean " + q(best) + "?";
      fixes.push_back(replace_fix("Rename to " + q(best), m.key_range, q(best)));
    }
    report("MSP305", Severity::Warning, m.key_range, msg, fixes);
  }

  // ----- values -----

  void type_error(const FieldSpec& f, const JsonValue& v, std::string extra = {}) {
    std::vector<Fix> fixes;
    if (f.type == FieldType::Bool && v.is(JsonKind::String) && (v.text == "true" || v.text == "false"))
      fixes.push_back(replace_fix("Write " + v.text + " without quotes", v.range, v.text));
    report("MSP301", Severity::Error, v.range,
           q(f.name) + " should be " + to_string(f.type) + ", not " + to_string(v.kind) + extra, fixes);
  }

  void enum_value(const FieldSpec& f, const JsonValue& v) {
    if (f.values.empty()) return;
    const EnumValue* e = f.value(v.text);
    if (e && in_version(e->versions, v_)) return;
    if (e) {
      report("MSP301", Severity::Error, v.range,
             q(f.name) + " " + q(v.text) + " needs msProbe " + versions_text(e->versions) + version_hint());
      return;
    }
    auto allowed = allowed_values(f, v_);
    std::string best = did_you_mean(v.text, allowed);
    std::vector<Fix> fixes;
    std::string msg = q(v.text) + " is not a valid " + std::string(f.name) + ": use one of " + join(allowed);
    if (!best.empty()) {
      msg = q(v.text) + " is not a valid " + std::string(f.name) + "; did you mean " + q(best) + "? (one of " + join(allowed) + ")";
      fixes.push_back(replace_fix("Change to " + q(best), v.range, q(best)));
    }
    report("MSP301", Severity::Error, v.range, msg, fixes);
  }

  void check_value(const FieldSpec& f, const JsonValue& v) {
    switch (f.type) {
      case FieldType::String:
        if (!v.is(JsonKind::String)) return type_error(f, v);
        return enum_value(f, v);
      case FieldType::Bool:
        if (!v.is(JsonKind::Bool)) return type_error(f, v, "; msProbe rejects anything but a JSON boolean");
        return;
      case FieldType::Int:
        if (!v.is_int() || !v.int_fits) return type_error(f, v);
        if (f.int_rule == IntRule::Positive && v.int_value <= 0)
          report("MSP301", Severity::Error, v.range, q(f.name) + " must be a positive integer");
        if (f.int_rule == IntRule::PositiveOrMinusOne && v.int_value <= 0 && v.int_value != -1)
          report("MSP301", Severity::Error, v.range, q(f.name) + " must be -1 (no limit) or a positive integer");
        return;
      case FieldType::StringList: return string_list(f, v);
      case FieldType::SliceList: return slice_list(f, v);
      case FieldType::NumberList: return number_list(f, v);
      case FieldType::RankStepList: return;
    }
  }

  void string_list(const FieldSpec& f, const JsonValue& v) {
    if (!v.is(JsonKind::Array)) return type_error(f, v);
    bool all = false;
    for (const JsonValue& item : v.items) {
      if (!item.is(JsonKind::String)) {
        report("MSP301", Severity::Error, item.range,
               "every entry of " + q(f.name) + " should be a string, not " + to_string(item.kind));
        continue;
      }
      enum_value(f, item);
      if (item.text == "all") all = true;
    }
    if (f.name == "data_mode") {
      if (all && v.items.size() > 1)
        report("MSP301", Severity::Error, v.range, "data_mode \"all\" must be the only entry");
      if (v.items.size() > 4) report("MSP301", Severity::Error, v.range, "data_mode takes at most 4 entries");
    }
    if (f.name == "scope" && !v.items.empty() && v.items.size() != 2)
      report("MSP301", Severity::Error, v.range,
             "scope takes exactly two names (the start and the end of the dumped interval), not " +
                 std::to_string(v.items.size()));
  }

  void slice_list(const FieldSpec& f, const JsonValue& v) {
    if (!v.is(JsonKind::Array)) return type_error(f, v);
    for (const JsonValue& item : v.items) {
      if (!item.is(JsonKind::Object)) {
        report("MSP301", Severity::Error, item.range,
               "every slice should be an object such as {\"dim\": 0, \"begin\": 0, \"end\": 8}");
        continue;
      }
      for (const JsonMember& m : item.members) {
        if (m.key != "dim" && m.key != "size" && m.key != "begin" && m.key != "end") {
          report("MSP305", Severity::Warning, m.key_range,
                 "unknown slice key " + q(m.key) + ": only dim, size, begin and end are read");
          continue;
        }
        if (!m.value.is_int() || !m.value.int_fits) {
          report("MSP301", Severity::Error, m.value.range, "slice " + q(m.key) + " should be an integer");
          continue;
        }
        if ((m.key == "dim" || m.key == "size") && m.value.int_value < 0)
          report("MSP301", Severity::Error, m.value.range, "slice " + q(m.key) + " must be >= 0");
      }
    }
  }

  void number_list(const FieldSpec& f, const JsonValue& v) {
    if (!v.is(JsonKind::Array)) return type_error(f, v);
    const JsonValue* prev = nullptr;
    for (const JsonValue& item : v.items) {
      if (!item.is(JsonKind::Number)) {
        report("MSP301", Severity::Error, item.range, "every entry of " + q(f.name) + " should be a number");
        prev = nullptr;
        continue;
      }
      if (prev && f.name == "bounds" && !(prev->number < item.number))
        report("MSP301", Severity::Error, item.range, "bounds must be in ascending order");
      prev = &item;
    }
  }

  void check_task(const JsonMember& m) {
    const JsonValue& v = m.value;
    const FieldSpec& f = *find_field("", "task");
    if (!v.is(JsonKind::String)) return type_error(f, v);
    const TaskSpec* t = find_task(v.text);
    if (!t) return enum_value(f, v);
    if (t->mindspore_only) {
      report("MSP301", Severity::Error, v.range,
             "task " + q(v.text) + " is MindSpore only; the PyTorch dump rejects it");
      return;
    }
    if (!in_version(t->versions, v_)) {
      std::string msg = "task " + q(v.text) + " does not exist in msProbe " + to_string(v_);
      if (!t->other_version.empty()) msg += " (" + std::string(t->other_version) + ")";
      report("MSP301", Severity::Error, v.range, msg + version_hint());
    }
  }

  void check_dump_path(const JsonMember& m) {
    const JsonValue& v = m.value;
    if (!v.is(JsonKind::String)) {
      report("MSP303", Severity::Error, v.range,
             std::string("dump_path should be a string, not ") + to_string(v.kind) + " (\"dump_path is invalid, it should be a string\")");
      return;
    }
    std::string problem = dump_path_problem(v.text);
    if (!problem.empty()) {
      report("MSP303", Severity::Error, v.range, problem);
      return;
    }
    if (v.text[0] != '/')
      report("MSP303", Severity::Hint, v.range,
             "relative dump_path: it is resolved against the directory the run starts in (and that directory's "
             "characters are checked too); an absolute path is recommended");
  }

  void check_ranks(const JsonMember& m) {
    const JsonValue& v = m.value;
    const std::string& name = m.key;
    if (v.is(JsonKind::Null)) return;
    if (!v.is(JsonKind::Array)) {
      report("MSP302", Severity::Error, v.range,
             q(name) + " should be a list such as [] or [0, 1, \"4-6\"], not " + to_string(v.kind) + " (\"" + name +
                 " is invalid, it should be a list\")");
      return;
    }
    if (v.items.size() > static_cast<std::size_t>(kRangeMax))
      report("MSP302", Severity::Error, v.range, q(name) + " has more than 1000000 entries");
    for (const JsonValue& item : v.items) {
      RangeEntry e;
      if (item.is(JsonKind::Number) && item.integer) {
        e.number = item.int_fits ? item.int_value : (item.text[0] == '-' ? -1 : kRangeMax + 1);
      } else if (item.is(JsonKind::String)) {
        e.is_int = false;
        e.text = item.text;
      } else {
        report("MSP302", Severity::Error, item.range,
               name + " entries must be integers or strings such as \"4-6\", not " + to_string(item.kind));
        continue;
      }
      std::string problem = range_entry_problem(e, name);
      if (!problem.empty()) report("MSP302", Severity::Error, item.range, problem);
    }
  }

  // ----- blocks -----

  void check_block(const JsonValue& root, std::size_t i, const TaskSpec& t, const std::string& task) {
    const JsonMember& m = root.members[i];
    bool readable = in_version(t.versions, v_) && !t.mindspore_only;
    if (m.key == task && readable && t.has_block) {
      if (!m.value.is(JsonKind::Object)) {
        report("MSP301", Severity::Error, m.value.range,
               "the " + q(m.key) + " block should be an object, not " + std::string(to_string(m.value.kind)));
        return;
      }
      check_block_members(m.value, t);
      return;
    }
    if (!t.has_block) {
      report("MSP305", Severity::Warning, m.key_range,
             "task " + q(m.key) + " has no block of its own: msProbe ignores " + q(m.key),
             {delete_member_fix(root, i, "Remove the " + q(m.key) + " block")}, {Tag::Unnecessary});
      return;
    }
    std::string why = !readable ? "it is for msProbe " + versions_text(t.versions)
                                : "task is " + q(task);
    report("MSP305", Severity::Hint, m.key_range, "the " + q(m.key) + " block is ignored: " + why,
           {delete_member_fix(root, i, "Remove the ignored " + q(m.key) + " block")}, {Tag::Unnecessary});
  }

  void check_block_members(const JsonValue& block, const TaskSpec& t) {
    for (std::size_t i = 0; i < block.members.size(); ++i) {
      const JsonMember& m = block.members[i];
      if (m.shadowed) {
        repeated(block, i);
        continue;
      }
      const FieldSpec* f = find_field(t.name, m.key);
      if (!f) {
        unknown_key(block, i, t.name);
        continue;
      }
      if (!usable(block, i, *f)) continue;
      check_value(*f, m.value);
      if (f->name == "error_data_path") check_existing_directory(*f, m.value);
    }
  }

  // acc_check's error_data_path must exist when msProbe reads the config. Only
  // an absolute path can be checked here: a relative one depends on the
  // directory the run starts in.
  void check_existing_directory(const FieldSpec& f, const JsonValue& v) {
    if (!options_.directory_exists || !v.is(JsonKind::String) || v.text.empty() || v.text[0] != '/') return;
    if ((*options_.directory_exists)(v.text)) return;
    report("MSP301", Severity::Error, v.range,
           std::string(f.name) + " " + q(v.text) + " does not exist: msProbe stops with \"" + std::string(f.name) +
               ": " + v.text + " does not exist\"; create the directory or point at an existing one");
  }

  // ----- cross-field rules (msprobe-facts §1.3) -----

  void combinations(const JsonValue& root) {
    const JsonMember* task_m = root.member("task");
    const JsonMember* level_m = root.member("level");
    std::string task = "statistics", level = "L1";
    if (task_m) {
      if (!task_m->value.is(JsonKind::String) || !find_task(task_m->value.text)) return;
      task = task_m->value.text;
    }
    if (level_m) {
      if (!level_m->value.is(JsonKind::String) || !find_field("", "level")->value(level_m->value.text)) return;
      level = level_m->value.text;
    }
    ByteRange level_at = level_m ? level_m->value.range : (task_m ? task_m->value.range : ByteRange{root.range.start, root.range.start + 1});
    ByteRange task_at = task_m ? task_m->value.range : level_at;
    const JsonValue* block = root.get(task);
    if (block && !block->is(JsonKind::Object)) block = nullptr;
    auto block_member = [&](std::string_view key) -> const JsonMember* { return block ? block->member(key) : nullptr; };
    auto count = [](const JsonMember* m) -> long { return m && m->value.is(JsonKind::Array) ? static_cast<long>(m->value.items.size()) : 0; };
    auto str = [](const JsonMember* m) -> std::string { return m && m->value.is(JsonKind::String) ? m->value.text : std::string(); };

    if (level == "L2") {
      if (task != "tensor")
        report("MSP304", Severity::Error, level_at,
               "level L2 needs task \"tensor\" (\"When level is set to L2, the task must be set to tensor.\")");
      if (task == "tensor") {
        const JsonMember* scope = block_member("scope");
        if (count(scope) > 0)
          report("MSP304", Severity::Error, scope->value.range,
                 "level L2 does not allow a scope (\"When level is set to L2, the scope cannot be configured.\")");
        const JsonMember* list = block_member("list");
        if (count(list) != 1)
          report("MSP304", Severity::Error, list ? list->value.range : level_at,
                 "level L2 needs tensor.list with exactly one API name, e.g. [\"Functional.linear.0.forward\"]");
      }
      npu_required(level_at, "level L2 (kernel dump)");
    }

    const JsonMember* async = root.member("async_dump");
    if (async && async->value.is(JsonKind::Bool) && async->value.boolean) {
      if (task == "tensor" && level != "debug" && count(block_member("list")) == 0)
        report("MSP304", Severity::Error, async->value.range,
               "async_dump with task tensor needs a non-empty tensor.list (\"the parameters list cannot be empty\")");
      if (str(block_member("summary_mode")) == "md5")
        report("MSP304", Severity::Error, async->value.range, "async_dump does not allow summary_mode \"md5\"");
      if (task != "statistics" && task != "tensor")
        report("MSP304", Severity::Warning, async->value.range, "async_dump works with tasks statistics and tensor only");
      if (level == "L2") report("MSP304", Severity::Warning, async->value.range, "async_dump does not work at level L2");
      report("MSP304", Severity::Hint, async->value.range,
             "msProbe warns that async_dump may cause OOM; use it when the tool's synchronisation changes results");
    }

    if (task == "nan_check" && v_ == ConfigVersion::V26) {
      if (level != "L1")
        report("MSP304", Severity::Error, level_at, "task nan_check needs level \"L1\"");
      if (const JsonMember* dm = block_member("data_mode"); dm && dm->value.is(JsonKind::Array)) {
        bool input = false, output = false;
        for (const JsonValue& item : dm->value.items) {
          if (item.text == "input") input = true;
          if (item.text == "output" || item.text == "all") output = true;
        }
        if (input && !output)
          report("MSP304", Severity::Error, dm->value.range,
                 "task nan_check rejects data_mode with \"input\" but without \"output\"");
      }
      if (!npu_required(task_at, "task nan_check (it also needs msProbe built with --include-mod=nan_check)"))
        report("MSP308", Severity::Info, task_at,
               "task nan_check needs Ascend NPU with torch_npu, msProbe built from source with --include-mod=nan_check "
               "(the pip wheel lacks it), CANN >= 8.5.0 and INF_NAN_MODE_FORCE_DISABLE=1");
    }

    if (task == "structure" && level != "L0" && level != "mix")
      report("MSP304", Severity::Warning, level_m ? level_at : task_at,
             "task structure works at level L0 or mix; msProbe warns and switches level " + level + " to mix");

    if (task == "statistics" || task == "tensor") {
      if (level == "L2" || level == "debug") {
        for (const char* key : {"slice", "request_id"}) {
          const JsonMember* m = block_member(key);
          bool set = m && ((m->value.is(JsonKind::Array) && !m->value.items.empty()) ||
                           (m->value.is(JsonKind::String) && !m->value.text.empty()));
          if (set)
            report("MSP304", Severity::Warning, m->key_range,
                   std::string(key) + " works at levels L0, L1 and mix only; at level " + level + " msProbe drops it");
        }
      }
      if (level == "debug" && count(block_member("tensor_list")) > 0) {
        const JsonMember* tl = block_member("tensor_list");
        report("MSP304", Severity::Warning, tl->key_range, "tensor_list is ignored at level debug");
      }
      if (const JsonMember* scope = block_member("scope"); count(scope) == 2) scope_names(scope->value, level);
    }
    if (task == "tensor" && v_ == ConfigVersion::V26) {
      const JsonMember* bench = block_member("bench_path");
      if (bench && !str(bench).empty() && str(block_member("summary_mode")) != "md5")
        report("MSP304", Severity::Warning, bench->key_range, "bench_path needs summary_mode \"md5\" (in both runs)");
    }

    if (v_ == ConfigVersion::V8) combinations_8x(task, level, level_at, block);
  }

  // L0 scope names are module names, L1 ones API names (msprobe-facts §1.2).
  void scope_names(const JsonValue& scope, const std::string& level) {
    static const std::vector<std::string> kPrefixes = {"Distributed", "Functional", "Torch", "Tensor", "Mint",
                                                       "MintFunctional", "Primitive", "Aten", "VF", "NPU", "Jit"};
    for (const JsonValue& item : scope.items) {
      if (!item.is(JsonKind::String)) continue;
      std::string head = item.text.substr(0, item.text.find('.'));
      bool module = head == "Module";
      bool api = std::find(kPrefixes.begin(), kPrefixes.end(), head) != kPrefixes.end();
      if (level == "L0" && !module)
        report("MSP304", Severity::Warning, item.range,
               "at level L0 scope names are module names such as \"Module.conv1.Conv2d.forward.0\"");
      else if (level == "L1" && !api)
        report("MSP304", Severity::Warning, item.range,
               "at level L1 scope names are API names such as \"Tensor.add.0.forward\" (prefixes: " + join(kPrefixes) + ")");
    }
  }

  void combinations_8x(const std::string& task, const std::string& level, ByteRange level_at, const JsonValue* block) {
    auto member = [&](std::string_view key) -> const JsonMember* { return block ? block->member(key) : nullptr; };
    auto str = [&](std::string_view key, std::string def) {
      const JsonMember* m = member(key);
      return m && m->value.is(JsonKind::String) ? m->value.text : def;
    };
    auto count = [&](std::string_view key) -> std::size_t {
      const JsonMember* m = member(key);
      return m && m->value.is(JsonKind::Array) ? m->value.items.size() : 0;
    };
    if (task == "overflow_check" && level != "L0" && level != "L1")
      report("MSP304", Severity::Error, level_at, "task overflow_check needs level L0 or L1 with PyTorch");
    if (task != "free_benchmark") return;
    if (level != "L1") report("MSP304", Severity::Error, level_at, "task free_benchmark needs level L1");
    if (!block) return;
    if (count("scope") > 0 && count("list") > 0)
      report("MSP304", Severity::Error, member("list")->key_range, "free_benchmark takes scope or list, not both");
    std::string device = str("fuzz_device", "npu"), pert = str("pert_mode", "improve_precision");
    std::string handler = str("handler_type", "check"), stage = str("fuzz_stage", "forward");
    auto at = [&](std::string_view key) { const JsonMember* m = member(key); return m ? m->value.range : level_at; };
    if ((device == "cpu") != (pert == "to_cpu"))
      report("MSP304", Severity::Error, at(device == "cpu" ? "fuzz_device" : "pert_mode"),
             "fuzz_device \"cpu\" and pert_mode \"to_cpu\" go together");
    if (handler == "fix") {
      const JsonMember* preheat = member("if_preheat");
      bool pre = preheat && preheat->value.is(JsonKind::Bool) && preheat->value.boolean;
      if (stage != "forward" || pre || (pert != "improve_precision" && pert != "to_cpu"))
        report("MSP304", Severity::Error, at("handler_type"),
               "handler_type \"fix\" needs fuzz_stage forward, if_preheat false and pert_mode improve_precision or to_cpu");
    }
    if (stage == "backward" && (count("list") == 0 || handler != "check"))
      report("MSP304", Severity::Error, at("fuzz_stage"), "fuzz_stage \"backward\" needs a non-empty list and handler_type \"check\"");
  }

  // True when the probe says the NPU is missing (and that was reported).
  bool npu_required(ByteRange at, const std::string& what) {
    std::string why;
    if (options_.torch_npu_importable && !*options_.torch_npu_importable) why = "torch_npu does not import";
    else if (options_.npu_available && !*options_.npu_available) why = "torch.npu.is_available() is False";
    if (why.empty()) return false;
    report("MSP308", Severity::Warning, at,
           what + " runs on Ascend NPU only, and in the configured Python interpreter " + why);
    return true;
  }

  std::string_view text_;
  const AnalysisOptions& options_;
  ConfigVersion v_;
  std::vector<Finding>& out_;
  bool complete_ = true;
};

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
      return "the string " + q(e.text) + " in " + name + " is not \"N\" or \"A-B\" (msProbe: \"The string parameter for " +
             name + " only supports formats like \\\"3-5\\\"\")";
    if (n < 0 || n > kRangeMax) return name + " entry " + q(e.text) + " is outside [0, 1000000]";
    return "";
  }
  std::string left = t.substr(0, hyphen), right = t.substr(hyphen + 1);
  if (right.find('-') != std::string::npos)
    return "the string " + q(e.text) + " in " + name + " has more than one hyphen; write \"A-B\"";
  long long a = 0, b = 0;
  if (!parse_py_int(left, a) || !parse_py_int(right, b))
    return "in " + q(e.text) + " the hyphen(-) must have a number on both sides, as in \"4-6\"";
  if (a < 0 || a > kRangeMax || b < 0 || b > kRangeMax) return "the bounds of " + q(e.text) + " must be within [0, 1000000]";
  if (a > b)
    return "in " + q(e.text) + " the left boundary (" + std::to_string(a) + ") is greater than the right one (" +
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
    std::string item = trim(std::string_view(t).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) {
      if (item.size() >= 2 && item.front() == '"' && item.back() == '"') item = item.substr(1, item.size() - 2);
      RangeEntry e;
      long long n = 0;
      bool digits = std::all_of(item.begin(), item.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
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
  std::vector<Finding> out;
  Checker(text, options, out).run();
  std::vector<Finding> kept;
  for (Finding& f : out) {
    if (options.disabled_rules.count(f.code)) continue;
    if (auto it = options.severity_overrides.find(f.code); it != options.severity_overrides.end()) f.severity = it->second;
    kept.push_back(std::move(f));
  }
  std::stable_sort(kept.begin(), kept.end(), [](const Finding& a, const Finding& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return a.code < b.code;
  });
  return kept;
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
  if (const JsonValue* v = r.get("task"); v && v->is(JsonKind::String)) s.task = v->text, s.task_set = true;
  if (const JsonValue* v = r.get("level"); v && v->is(JsonKind::String)) s.level = v->text, s.level_set = true;
  if (const JsonValue* v = r.get("dump_path"); v && v->is(JsonKind::String)) s.dump_path = v->text, s.dump_path_set = true;
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
  if (const JsonValue* v = r.get("rank")) s.rank_text = std::string(text.substr(v->range.start, v->range.end - v->range.start));
  return s;
}

}  // namespace msprobe::analysis::config
