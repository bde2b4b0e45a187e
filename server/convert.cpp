// analysis <-> LSP conversions.
#include "convert.h"

#include <cctype>
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
      rel.push_back({{"location", {{"uri", o.uri}, {"range", to_range(src, r.range, o.encoding)}}}, {"message", r.message}});
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

std::string rule_markdown(const analysis::RuleMeta& meta) {
  std::string md = "### " + std::string(meta.code) + " " + std::string(meta.name) + "\n\n" +
                   std::string(meta.summary) + " (default severity: " + analysis::to_string(meta.severity) + ")\n";
  md += meta.docs;
  return md;
}

}  // namespace msprobe::server
