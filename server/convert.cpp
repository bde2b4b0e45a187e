// analysis <-> LSP conversions.
#include "convert.h"

#include "msprobe/protocol/utf8_repair.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace msprobe::server {

using analysis::ByteRange;
using analysis::Encoding;
using analysis::SourceText;

json to_position(const SourceText& src, std::size_t offset, Encoding enc) {
  analysis::LineCol lc = src.position(offset, enc);
  return json{{"line", lc.line}, {"character", lc.column}};
}

json to_range(const SourceText& src, ByteRange r, Encoding enc) {
  return json{{"start", to_position(src, r.start, enc)}, {"end", to_position(src, r.end, enc)}};
}

std::size_t from_position(const SourceText& src, const json& p, Encoding enc) {
  if (!p.is_object()) throw std::invalid_argument("position must be an object");
  auto line = p.find("line"), ch = p.find("character");
  if (line == p.end() || ch == p.end() || !line->is_number_integer() || !ch->is_number_integer() ||
      line->get<long long>() < 0 || ch->get<long long>() < 0)
    throw std::invalid_argument("position needs non-negative integer 'line' and 'character'");
  auto clamp = [](long long v) { return static_cast<uint32_t>(std::min<long long>(v, UINT32_MAX)); };
  return src.offset({clamp(line->get<long long>()), clamp(ch->get<long long>())}, enc);
}

ByteRange from_range(const SourceText& src, const json& r, Encoding enc) {
  if (!r.is_object() || !r.contains("start") || !r.contains("end"))
    throw std::invalid_argument("range needs 'start' and 'end'");
  std::size_t a = from_position(src, r["start"], enc), b = from_position(src, r["end"], enc);
  if (b < a) std::swap(a, b);
  return {static_cast<uint32_t>(a), static_cast<uint32_t>(b)};
}

std::string rule_anchor(std::string_view code) {
  std::string s(code);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

json to_text_edits(const SourceText& src, const std::vector<analysis::Edit>& edits, Encoding enc) {
  json out = json::array();
  for (const auto& e : edits) out.push_back({{"range", to_range(src, e.range, enc)}, {"newText", e.text}});
  return out;
}

json to_diagnostic(const SourceText& src, const analysis::Finding& f, const ConvertOptions& o) {
  json d{{"range", to_range(src, f.range, o.encoding)},
         {"severity", static_cast<int>(f.severity)},
         {"source", "msprobe"},
         {"message", f.message}};
  if (!f.code.empty()) {
    d["code"] = f.code;
    if (!o.docs_base_url.empty()) d["codeDescription"] = {{"href", o.docs_base_url + "#" + rule_anchor(f.code)}};
  }
  if (!f.tags.empty()) {
    json tags = json::array();
    for (auto t : f.tags) tags.push_back(t == analysis::Tag::Unnecessary ? 1 : 2);
    d["tags"] = tags;
  }
  if (o.related_information && !f.related.empty()) {
    json rel = json::array();
    for (const auto& r : f.related)
      rel.push_back(
          {{"location", {{"uri", o.uri}, {"range", to_range(src, r.range, o.encoding)}}}, {"message", r.message}});
    d["relatedInformation"] = rel;
  }
  // The fixes travel with the diagnostic (as ruff does), so a code action
  // never recomputes them against a newer text.
  json fixes = json::array();
  for (const auto& fix : f.fixes) {
    fixes.push_back({{"title", fix.title},
                     {"preferred", fix.preferred},
                     {"safe", fix.safety == analysis::FixSafety::Safe},
                     {"edits", to_text_edits(src, fix.edits, o.encoding)}});
  }
  d["data"] = {{"version", o.version}, {"fixes", fixes}};
  return d;
}

namespace {

void append_uint(std::string& out, uint64_t v) {
  char buf[24];
  char* p = buf + sizeof(buf);
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  out.append(p, static_cast<std::size_t>(buf + sizeof(buf) - p));
}

void append_int(std::string& out, int64_t v) {
  if (v < 0) {
    out += '-';
    append_uint(out, static_cast<uint64_t>(-(v + 1)) + 1);
  } else {
    append_uint(out, static_cast<uint64_t>(v));
  }
}

void append_position(std::string& out, const SourceText& src, std::size_t offset, Encoding enc) {
  analysis::LineCol lc = src.position(offset, enc);
  out += "{\"character\":";
  append_uint(out, lc.column);
  out += ",\"line\":";
  append_uint(out, lc.line);
  out += '}';
}

void append_range(std::string& out, const SourceText& src, ByteRange r, Encoding enc) {
  out += "{\"end\":";
  append_position(out, src, r.end, enc);
  out += ",\"start\":";
  append_position(out, src, r.start, enc);
  out += '}';
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  if (!protocol::is_valid_utf8(s)) {  // rare: let the library do its replacement
    out += json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  }
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t from = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + from, i - from);
    from = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(s.data() + from, s.size() - from);
  out += '"';
}

// Keys in the order nlohmann's (sorted) objects print them.
void append_diagnostic(std::string& out, const SourceText& src, const analysis::Finding& f, const ConvertOptions& o) {
  out += '{';
  if (!f.code.empty()) {
    out += "\"code\":";
    append_json_string(out, f.code);
    if (!o.docs_base_url.empty()) {
      out += ",\"codeDescription\":{\"href\":";
      append_json_string(out, o.docs_base_url + "#" + rule_anchor(f.code));
      out += '}';
    }
    out += ',';
  }
  out += "\"data\":{\"fixes\":[";
  for (std::size_t i = 0; i < f.fixes.size(); ++i) {
    const analysis::Fix& fix = f.fixes[i];
    if (i) out += ',';
    out += "{\"edits\":[";
    for (std::size_t k = 0; k < fix.edits.size(); ++k) {
      if (k) out += ',';
      out += "{\"newText\":";
      append_json_string(out, fix.edits[k].text);
      out += ",\"range\":";
      append_range(out, src, fix.edits[k].range, o.encoding);
      out += '}';
    }
    out += "],\"preferred\":";
    out += fix.preferred ? "true" : "false";
    out += ",\"safe\":";
    out += fix.safety == analysis::FixSafety::Safe ? "true" : "false";
    out += ",\"title\":";
    append_json_string(out, fix.title);
    out += '}';
  }
  out += "],\"version\":";
  append_int(out, o.version);
  out += "},\"message\":";
  append_json_string(out, f.message);
  out += ",\"range\":";
  append_range(out, src, f.range, o.encoding);
  if (o.related_information && !f.related.empty()) {
    out += ",\"relatedInformation\":[";
    for (std::size_t i = 0; i < f.related.size(); ++i) {
      if (i) out += ',';
      out += "{\"location\":{\"range\":";
      append_range(out, src, f.related[i].range, o.encoding);
      out += ",\"uri\":";
      append_json_string(out, o.uri);
      out += "},\"message\":";
      append_json_string(out, f.related[i].message);
      out += '}';
    }
    out += ']';
  }
  out += ",\"severity\":";
  append_int(out, static_cast<int>(f.severity));
  out += ",\"source\":\"msprobe\"";
  if (!f.tags.empty()) {
    out += ",\"tags\":[";
    for (std::size_t i = 0; i < f.tags.size(); ++i) {
      if (i) out += ',';
      out += f.tags[i] == analysis::Tag::Unnecessary ? '1' : '2';
    }
    out += ']';
  }
  out += '}';
}

std::string publish_diagnostics_message(const SourceText& src, const std::vector<const analysis::Finding*>& findings,
                                        const ConvertOptions& o) {
  std::string text = R"({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":[)";
  text.reserve(text.size() + 400 * findings.size() + o.uri.size() + 32);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (i) text += ',';
    append_diagnostic(text, src, *findings[i], o);
  }
  text += R"(],"uri":)";
  append_json_string(text, o.uri);
  text += R"(,"version":)";  // harmless for clients without versionSupport
  append_int(text, o.version);
  text += "}}";
  return text;
}

bool replaces_code(const json& text_edits) {
  if (!text_edits.is_array()) return false;
  for (const json& e : text_edits) {
    if (!e.is_object() || !e.contains("range")) continue;
    if (e["range"].value("start", json::object()) != e["range"].value("end", json::object())) return true;
  }
  return false;
}

json make_workspace_edit(const std::vector<LspEditGroup>& groups, const EditOptions& o) {
  return make_files_workspace_edit({FileEdit{o.uri, o.version, "", groups}}, o);
}

json make_files_workspace_edit(const std::vector<FileEdit>& files, const EditOptions& o) {
  bool annotate = o.document_changes && o.change_annotations;
  json annotations = json::object();
  json document_changes = json::array();
  json changes = json::object();
  std::map<std::string, std::string> ids;  // one annotation per label, even when its edits are not adjacent
  // Labels name their file when the edit spans several.
  std::size_t spanned = 0;
  for (const FileEdit& file : files) {
    bool any = std::any_of(file.groups.begin(), file.groups.end(),
                           [](const LspEditGroup& g) { return g.edits.is_array() && !g.edits.empty(); });
    spanned += any ? 1 : 0;
  }
  for (const FileEdit& file : files) {
    json edits = json::array();
    for (const LspEditGroup& group : file.groups) {
      if (!group.edits.is_array() || group.edits.empty()) continue;
      std::string label = file.name.empty() || spanned < 2 ? group.label : group.label + " (" + file.name + ")";
      auto [it, added] = ids.emplace(label, "msprobe." + std::to_string(ids.size()));
      const std::string& id = it->second;
      if (annotate && added) annotations[id] = {{"label", label}, {"needsConfirmation", group.needs_confirmation}};
      for (json e : group.edits) {
        if (annotate) e["annotationId"] = id;
        edits.push_back(std::move(e));
      }
    }
    if (edits.empty() && files.size() > 1) continue;
    if (o.document_changes) {
      document_changes.push_back(
          {{"textDocument", {{"uri", file.uri}, {"version", file.version ? json(*file.version) : json(nullptr)}}},
           {"edits", std::move(edits)}});
    } else {
      changes[file.uri] = std::move(edits);
    }
  }
  if (!o.document_changes) return {{"changes", changes}};
  json out{{"documentChanges", document_changes}};
  if (annotate && !annotations.empty()) out["changeAnnotations"] = annotations;
  return out;
}

std::vector<LspEditGroup> to_lsp_groups(const SourceText& src, const std::vector<analysis::EditGroup>& groups,
                                        Encoding enc) {
  // Position order across groups: an insertion sorts before a replacement at
  // the same byte, and equal positions keep their group order.
  struct Item {
    const analysis::Edit* edit;
    std::size_t group;
  };
  std::vector<Item> items;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const auto& e : groups[g].edits) items.push_back({&e, g});
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.edit->range.start != b.edit->range.start) return a.edit->range.start < b.edit->range.start;
    return a.edit->range.end == a.edit->range.start && b.edit->range.end != b.edit->range.start;
  });
  // LSP applies same-position insertions in array order, so the groups are
  // emitted as consecutive runs that keep the global order.
  std::vector<LspEditGroup> out;
  for (const Item& it : items) {
    const analysis::EditGroup& g = groups[it.group];
    if (out.empty() || out.back().label != g.label) out.push_back({g.label, g.needs_confirmation, json::array()});
    out.back().edits.push_back({{"range", to_range(src, it.edit->range, enc)}, {"newText", it.edit->text}});
  }
  return out;
}

json to_workspace_edit(const SourceText& src, const std::vector<analysis::EditGroup>& groups, const EditOptions& o) {
  return make_workspace_edit(to_lsp_groups(src, groups, o.encoding), o);
}

json create_file_edit(const std::string& uri, const std::string& text) {
  json start{{"line", 0}, {"character", 0}};
  json create{{"kind", "create"}, {"uri", uri}, {"options", {{"overwrite", false}, {"ignoreIfExists", false}}}};
  json insert{{"textDocument", {{"uri", uri}, {"version", nullptr}}},
              {"edits", json::array({{{"range", {{"start", start}, {"end", start}}}, {"newText", text}}})}};
  return {{"documentChanges", json::array({create, insert})}};
}

json replace_document_edit(const SourceText& current, const std::string& text, const EditOptions& o,
                           const std::string& label, const std::string& description) {
  json range{{"start", {{"line", 0}, {"character", 0}}}, {"end", to_position(current, current.size(), o.encoding)}};
  if (!(o.document_changes && o.change_annotations))
    return {{"changes", {{o.uri, json::array({{{"range", range}, {"newText", text}}})}}}};
  const char* id = "msprobe-overwrite";
  json edit{{"range", range}, {"newText", text}, {"annotationId", id}};
  return {{"documentChanges",
           json::array({{{"textDocument", {{"uri", o.uri}, {"version", o.version ? json(*o.version) : json(nullptr)}}},
                         {"edits", json::array({edit})}}})},
          {"changeAnnotations", {{id, {{"label", label}, {"needsConfirmation", true}, {"description", description}}}}}};
}

std::string rule_markdown(const analysis::RuleMeta& meta) {
  std::string md = "### " + std::string(meta.code) + " " + std::string(meta.name) + "\n\n" + std::string(meta.summary) +
                   " (default severity: " + analysis::to_string(meta.severity) + ")\n";
  md += meta.docs;
  return md;
}

}  // namespace msprobe::server
