// Hover and completion for config.json, driven by the field table.
#include "msprobe/analysis/config/config_assist.h"

#include <cstdio>

#include "msprobe/analysis/config/config_generate.h"
#include "msprobe/analysis/config/json_doc.h"

namespace msprobe::analysis::config {
namespace {

bool contains(ByteRange r, std::size_t at) { return at >= r.start && at <= r.end; }

std::string version_line(unsigned versions, ConfigVersion target) {
  std::string s = "msProbe " + versions_text(versions);
  if (!in_version(versions, target)) s += " — **not read by " + std::string(to_string(target)) + "** (the target)";
  return s;
}

std::string placeholder(const FieldSpec& f) {
  if (!f.default_json.empty()) return std::string(f.default_json);
  switch (f.type) {
    case FieldType::String: return "\"\"";
    case FieldType::Bool: return "false";
    case FieldType::Int: return "1";
    default: return "[]";
  }
}

std::optional<ConfigHover> hover_in_object(std::string_view text, const JsonValue& obj, std::string_view block,
                                           std::size_t at, ConfigVersion v) {
  for (const JsonMember& m : obj.members) {
    if (contains(m.key_range, at)) {
      if (block.empty()) {
        if (const FieldSpec* f = find_field("", m.key)) return ConfigHover{m.key_range, field_markdown(*f, v)};
        if (const TaskSpec* t = find_task(m.key)) return ConfigHover{m.key_range, task_markdown(*t, v)};
        return std::nullopt;
      }
      if (const FieldSpec* f = find_field(block, m.key)) return ConfigHover{m.key_range, field_markdown(*f, v)};
      return std::nullopt;
    }
    if (!contains(m.value.range, at)) continue;
    if (block.empty() && !find_field("", m.key) && find_task(m.key) && m.value.is(JsonKind::Object))
      return hover_in_object(text, m.value, m.key, at, v);
    const FieldSpec* f = find_field(block, m.key);
    if (!f) return std::nullopt;
    if (m.value.is(JsonKind::String)) {
      if (f->name == "task" && block.empty()) {
        if (const TaskSpec* t = find_task(m.value.text)) return ConfigHover{m.value.range, task_markdown(*t, v)};
      }
      if (const EnumValue* e = f->value(m.value.text)) return ConfigHover{m.value.range, value_markdown(*f, *e, v)};
    }
    if (m.value.is(JsonKind::Array)) {
      for (const JsonValue& item : m.value.items) {
        if (item.is(JsonKind::String) && contains(item.range, at)) {
          if (const EnumValue* e = f->value(item.text)) return ConfigHover{item.range, value_markdown(*f, *e, v)};
        }
      }
    }
    return ConfigHover{m.value.range, field_markdown(*f, v)};
  }
  return std::nullopt;
}

std::string quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace

std::string field_markdown(const FieldSpec& f, ConfigVersion target) {
  std::string md = "**" + std::string(f.name) + "**";
  if (!f.block.empty()) md += " (in the `" + std::string(f.block) + "` block)";
  md += " — " + std::string(f.meaning) + "\n\n";
  md += "Type: " + std::string(to_string(f.type));
  if (!f.default_json.empty()) md += " · Default: `" + std::string(f.default_json) + "`";
  md += " · " + version_line(f.versions, target) + "\n";
  if (!f.removed.empty()) md += "\n**Removed:** " + std::string(f.removed) + "\n";
  if (!f.ignored.empty()) md += "\nIgnored by the PyTorch dump: " + std::string(f.ignored) + "\n";
  if (f.name == "task" && f.block.empty()) {
    md += "\n";
    for (const TaskSpec& t : all_tasks()) {
      md += "- `" + std::string(t.name) + "` — " + std::string(t.meaning) + " (" + versions_text(t.versions) + ")\n";
    }
  } else if (!f.values.empty()) {
    md += "\n";
    for (const EnumValue& e : f.values) {
      md += "- `" + std::string(e.name) + "` — " + std::string(e.meaning);
      if (e.versions != kAllVersions) md += " (" + versions_text(e.versions) + ")";
      md += "\n";
    }
  }
  if (!f.details.empty()) md += "\n" + std::string(f.details) + "\n";
  return md;
}

std::string value_markdown(const FieldSpec& f, const EnumValue& e, ConfigVersion target) {
  std::string md = "`" + std::string(e.name) + "` (" + std::string(f.name) + ") — " + std::string(e.meaning) + "\n\n" +
                   version_line(e.versions & f.versions, target) + "\n";
  if (f.default_json == "\"" + std::string(e.name) + "\"") md += "\nThis is msProbe's default.\n";
  return md;
}

std::string task_markdown(const TaskSpec& t, ConfigVersion target) {
  std::string md = "**task `" + std::string(t.name) + "`** — " + std::string(t.meaning) + "\n\n" +
                   version_line(t.versions, target) + "\n";
  if (t.mindspore_only) md += "\nMindSpore only: the PyTorch dump rejects it.\n";
  if (!t.other_version.empty()) md += "\nIn the other version: " + std::string(t.other_version) + ".\n";
  if (!t.has_block) md += "\nThis task has no block of its own.\n";
  else if (in_version(t.versions, target)) {
    md += "\nBlock fields: ";
    bool first = true;
    for (const FieldSpec* f : fields_of(t.name, target)) {
      md += (first ? "`" : ", `") + std::string(f->name) + "`";
      first = false;
    }
    md += "\n";
  }
  return md;
}

std::optional<ConfigHover> config_hover(std::string_view text, std::size_t offset, const AnalysisOptions& options) {
  JsonDoc doc = parse_json(text);
  if (!doc.has_root || !doc.root.is(JsonKind::Object)) return std::nullopt;
  return hover_in_object(text, doc.root, "", offset, version_of(options));
}

std::vector<ConfigCompletion> config_completions(std::string_view text, std::size_t offset,
                                                 const AnalysisOptions& options) {
  std::vector<ConfigCompletion> out;
  ConfigVersion v = version_of(options);
  JsonCursor cur = locate(text, offset);
  if (cur.kind == JsonCursor::Kind::None || cur.path.size() > 2) return out;
  // The selected task, read from whatever part of the file parses.
  std::string task = "statistics";
  JsonDoc doc = parse_json(text);
  if (doc.has_root && doc.root.is(JsonKind::Object)) {
    if (const JsonValue* t = doc.root.get("task"); t && t->is(JsonKind::String) && find_task(t->text)) task = t->text;
  }
  std::string block = cur.path.empty() ? "" : cur.path[0];
  if (!block.empty() && !find_task(block)) return out;
  auto present = [&](std::string_view k) {
    for (const auto& s : cur.sibling_keys) {
      if (s == k && s != cur.typed) return true;
    }
    return false;
  };
  int order = 0;
  auto add = [&](ConfigCompletion c) {
    c.replace = cur.replace;
    if (c.filter.empty()) c.filter = c.insert;
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04d", order++);
    c.sort = buf;
    out.push_back(std::move(c));
  };

  if (cur.kind == JsonCursor::Kind::Key) {
    if (cur.path.size() == 2) {
      if (cur.path[1] != "slice") return out;
      for (const char* k : {"dim", "size", "begin", "end"}) {
        if (present(k)) continue;
        ConfigCompletion c;
        c.label = k;
        c.insert = cur.colon_follows ? quoted(k) : quoted(k) + ": 0";
        c.filter = quoted(k);
        c.detail = "slice key (integer)";
        add(std::move(c));
      }
      return out;
    }
    for (const FieldSpec* f : fields_of(block, v)) {
      if (present(f->name)) continue;
      ConfigCompletion c;
      c.label = std::string(f->name);
      c.insert = cur.colon_follows ? quoted(f->name) : quoted(f->name) + ": " + placeholder(*f);
      c.filter = quoted(f->name);
      c.detail = std::string(f->meaning);
      c.documentation = field_markdown(*f, v);
      add(std::move(c));
    }
    if (block.empty() && !present(task)) {
      std::string body = default_block(task, v);
      if (!body.empty()) {
        ConfigCompletion c;
        c.kind = ConfigCompletion::Kind::Block;
        c.label = task;
        c.insert = cur.colon_follows ? quoted(task) : quoted(task) + ": " + body;
        c.filter = quoted(task);
        c.detail = "settings of the selected task";
        c.documentation = task_markdown(*find_task(task), v);
        c.preselect = true;
        add(std::move(c));
      }
    }
    return out;
  }

  // A value.
  const FieldSpec* f = find_field(block, cur.key);
  if (!f || !f->removed.empty()) return out;
  auto value = [&](std::string label, std::string insert, std::string detail, std::string docs, bool preselect) {
    ConfigCompletion c;
    c.kind = ConfigCompletion::Kind::Value;
    c.label = std::move(label);
    c.insert = std::move(insert);
    c.detail = std::move(detail);
    c.documentation = std::move(docs);
    c.preselect = preselect;
    add(std::move(c));
  };
  if (f->name == "task" && block.empty() && !cur.in_array) {
    for (const TaskSpec* t : tasks_of(v))
      value(std::string(t->name), quoted(t->name), std::string(t->meaning), task_markdown(*t, v),
            t->name == "statistics");
    return out;
  }
  bool list_items = cur.in_array && f->type == FieldType::StringList;
  if ((f->type == FieldType::String && !cur.in_array) || list_items) {
    for (const EnumValue& e : f->values) {
      if (!in_version(e.versions, v)) continue;
      bool def = f->default_json == quoted(e.name) || (list_items && f->default_json == "[" + quoted(e.name) + "]");
      value(std::string(e.name), quoted(e.name), std::string(e.meaning), value_markdown(*f, e, v), def);
    }
    if (f->name == "dump_path" && !cur.in_array)
      value("./dump_path", "\"./dump_path\"", "relative to the directory the run starts in", field_markdown(*f, v),
            false);
    return out;
  }
  if (cur.in_array) return out;
  if (f->type == FieldType::Bool) {
    for (const char* b : {"true", "false"})
      value(b, b, std::string(f->meaning), field_markdown(*f, v), f->default_json == b);
    return out;
  }
  if (f->type == FieldType::RankStepList) {
    bool step = f->name == "step";
    value("[]", "[]", step ? "every step (a full run)" : "every rank (a single-card run must use this)",
          field_markdown(*f, v), !step);
    value("[0, 1]", "[0, 1]", step ? "steps 0 and 1: a short run (recommended first)" : "ranks 0 and 1",
          field_markdown(*f, v), step);
    value("[\"0-7\"]", "[\"0-7\"]", step ? "steps 0 to 7" : "ranks 0 to 7", field_markdown(*f, v), false);
    return out;
  }
  if (!f->default_json.empty())
    value(std::string(f->default_json), std::string(f->default_json), "msProbe's default", field_markdown(*f, v), true);
  return out;
}

}  // namespace msprobe::analysis::config
