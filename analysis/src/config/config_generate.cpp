// config.json generation from the field table.
#include "msprobe/analysis/config/config_generate.h"

namespace msprobe::analysis::config {
namespace {

std::vector<const FieldSpec*> generated_fields(std::string_view task, ConfigVersion v) {
  std::vector<const FieldSpec*> out;
  const TaskSpec* t = find_task(task);
  if (!t || !t->has_block || !in_version(t->versions, v)) return out;
  for (const FieldSpec* f : fields_of(task, v)) {
    if (f->generated && !f->default_json.empty()) out.push_back(f);
  }
  return out;
}

}  // namespace

std::string default_block(std::string_view task, ConfigVersion v) {
  auto fields = generated_fields(task, v);
  if (fields.empty()) return "";
  std::string out = "{";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    out += i ? ", " : "";
    append_json_string(out, fields[i]->name);
    out += ": ";
    out += fields[i]->default_json;
  }
  return out + "}";
}

std::string render_config(const GenerateRequest& r, ConfigVersion v) {
  std::string out = "{\n";
  auto line = [&](std::string_view key, const std::string& value, bool last = false) {
    out += "    ";
    append_json_string(out, key);
    out += ": " + value + (last ? "\n" : ",\n");
  };
  auto str = [](std::string_view s) {
    std::string o;
    append_json_string(o, s);
    return o;
  };
  auto fields = generated_fields(r.task, v);
  line("task", str(r.task));
  line("dump_path", str(r.dump_path));
  line("rank", range_list_json(r.rank));
  line("step", range_list_json(r.step));
  line("level", str(r.level));
  bool extra = v == ConfigVersion::V26;
  line("async_dump", r.async_dump ? "true" : "false", !extra && fields.empty());
  if (extra) line("extra_info", r.extra_info ? "true" : "false", fields.empty());
  if (!fields.empty()) {
    out += "    ";
    append_json_string(out, r.task);
    out += ": {\n";
    for (std::size_t i = 0; i < fields.size(); ++i) {
      out += "        ";
      append_json_string(out, fields[i]->name);
      out += ": " + std::string(fields[i]->default_json) + (i + 1 < fields.size() ? ",\n" : "\n");
    }
    out += "    }\n";
  }
  out += "}\n";
  return out;
}

GeneratedConfig generate_config(const GenerateRequest& request, const AnalysisOptions& options) {
  GeneratedConfig g;
  ConfigVersion v = version_of(options);
  g.text = render_config(request, v);
  JsonDoc doc = parse_json(g.text);
  ByteRange block{0, 0};
  if (doc.ok()) {
    if (const JsonMember* m = doc.root.member(request.task); m && m->value.is(JsonKind::Object)) block = m->value.range;
  }
  AnalysisOptions strict = options;
  strict.disabled_rules.clear();
  strict.severity_overrides.clear();
  for (const Finding& f : check_config(g.text, strict)) {
    bool in_block = inside(f.range, block) && block.end > block.start;
    if (f.severity == Severity::Error && !in_block) g.errors.push_back(f.message);
    else if (f.severity != Severity::Hint || f.code == "MSP303") g.notes.push_back(f.message);
  }
  return g;
}

}  // namespace msprobe::analysis::config
