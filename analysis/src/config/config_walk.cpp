// The shared config.json walk: parse once, classify every member against the
// field table, work out the task and level msProbe will run with.
#include "config/config_walk.h"

#include <algorithm>

#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis::config {
namespace {

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

// Which role a known field plays for the target version. file_format is read
// by 8.x's TensorConfig (which rejects bad values) although MindSpore is the
// only framework that uses it, so on 8.x it is a field to check.
MemberRole field_role(const FieldSpec& f, ConfigVersion v) {
  if (!f.removed.empty()) return MemberRole::Removed;
  if (!in_version(f.versions, v)) return MemberRole::OtherVersion;
  if (f.name == "file_format" && v == ConfigVersion::V8) return MemberRole::Field;
  if (!f.ignored.empty()) return MemberRole::Ignored;
  return MemberRole::Field;
}

}  // namespace

bool falls_back_to_default(const JsonValue& v, bool null_too) {
  return (v.is(JsonKind::String) && v.text.empty()) || (null_too && v.is(JsonKind::Null));
}

ConfigContext::ConfigContext(std::string_view text_in, const AnalysisOptions& options_in)
    : text(text_in), options(options_in), version(version_of(options_in)), doc(parse_json(text_in)) {
  if (!doc.has_root || !doc.root.is(JsonKind::Object)) return;
  object_root = true;
  complete = doc.errors.empty();
  const JsonValue& root = doc.root;
  if (const JsonValue* t = root.get("task"); t && t->is(JsonKind::String) && !t->text.empty()) selected_task = t->text;

  const JsonValue* block = nullptr;
  const TaskSpec* block_task = nullptr;
  for (std::size_t i = 0; i < root.members.size(); ++i) {
    MemberRef ref;
    ref.object = &root;
    ref.index = i;
    const JsonMember& m = root.members[i];
    if (m.shadowed) {
      ref.role = MemberRole::Repeated;
    } else if (const FieldSpec* f = find_field("", m.key)) {
      ref.field = f;
      ref.role = field_role(*f, version);
    } else if (const TaskSpec* t = find_task(m.key)) {
      ref.task = t;
      bool readable = in_version(t->versions, version) && !t->mindspore_only;
      if (!t->has_block) ref.role = MemberRole::BlocklessTask;
      else if (m.key == selected_task && readable) ref.role = MemberRole::Block;
      else ref.role = MemberRole::IgnoredBlock;
      if (ref.role == MemberRole::Block && m.value.is(JsonKind::Object)) {
        block = &m.value;
        block_task = t;
      }
    }
    members.push_back(ref);
  }
  if (block) {
    for (std::size_t i = 0; i < block->members.size(); ++i) {
      MemberRef ref;
      ref.object = block;
      ref.index = i;
      ref.block = block_task->name;
      const JsonMember& m = block->members[i];
      if (m.shadowed) {
        ref.role = MemberRole::Repeated;
      } else if (const FieldSpec* f = find_field(block_task->name, m.key)) {
        ref.field = f;
        ref.role = field_role(*f, version);
      }
      members.push_back(ref);
    }
  }

  if (!complete) return;
  RunSettings e;
  e.task = "statistics";
  e.level = "L1";
  e.task_member = root.member("task");
  e.level_member = root.member("level");
  if (e.task_member && !falls_back_to_default(e.task_member->value, false)) {
    const JsonValue& t = e.task_member->value;
    if (!t.is(JsonKind::String) || !find_task(t.text)) return;
    e.task = t.text;
  }
  if (e.level_member && !falls_back_to_default(e.level_member->value, true)) {
    const JsonValue& l = e.level_member->value;
    if (!l.is(JsonKind::String) || !find_field("", "level")->value(l.text)) return;
    e.level = l.text;
  }
  ByteRange start{root.range.start, root.range.start + 1};
  e.level_at = e.level_member ? e.level_member->value.range : (e.task_member ? e.task_member->value.range : start);
  e.task_at = e.task_member ? e.task_member->value.range : e.level_at;
  e.block = root.get(e.task);
  if (e.block && !e.block->is(JsonKind::Object)) e.block = nullptr;
  effective = e;
}

std::string ConfigContext::version_hint() const {
  return options.msprobe_version
             ? ""
             : " (target msProbe " + std::string(to_string(version)) + "; set msprobe.msprobeVersion otherwise)";
}

uint32_t ConfigContext::line_of(uint32_t offset) const {
  auto end = text.begin() + std::min<std::size_t>(offset, text.size());
  return static_cast<uint32_t>(std::count(text.begin(), end, '\n')) + 1;
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string w = lowered(word);
  for (char& c : w) {
    if (c == '-' || c == ' ') c = '_';
  }
  std::string best;
  std::size_t best_d = 99;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(w, lowered(c));
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  std::size_t limit = word.size() <= 3 ? 1 : (word.size() <= 6 ? 2 : 3);
  return best_d <= limit && best != word ? best : std::string();
}

Finding make_finding(const char* code, Severity severity, ByteRange range, std::string message, std::vector<Fix> fixes,
                     std::vector<Tag> tags) {
  Finding f;
  f.code = code;
  f.severity = severity;
  f.range = range;
  f.message = std::move(message);
  f.fixes = std::move(fixes);
  f.tags = std::move(tags);
  return f;
}

Fix replace_fix(std::string title, ByteRange range, std::string text, bool preferred) {
  Fix f;
  f.title = std::move(title);
  f.edits.push_back({range, std::move(text)});
  f.preferred = preferred;
  return f;
}

Fix delete_member_fix(const JsonValue& object, std::size_t index, std::string title) {
  const JsonMember& m = object.members[index];
  ByteRange r{m.key_range.start, m.value.range.end};
  if (index + 1 < object.members.size()) r.end = object.members[index + 1].key_range.start;
  else if (index > 0) r.start = object.members[index - 1].value.range.end;
  Fix f;
  f.title = std::move(title);
  f.edits.push_back({r, ""});
  return f;
}

}  // namespace msprobe::analysis::config
