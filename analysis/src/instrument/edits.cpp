// Applying edit lists, and the vllm-ascend launch flags.
#include <algorithm>
#include <stdexcept>

#include "msprobe/analysis/config/json_doc.h"
#include "msprobe/analysis/instrument.h"

namespace msprobe::analysis {
namespace {

void sort_edits(std::vector<Edit>& edits) {
  // An insertion sorts before a replacement that starts at the same byte.
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return (a.range.end == a.range.start) && (b.range.end != b.range.start);
  });
}

}  // namespace

bool InstrumentResult::empty() const {
  return std::all_of(groups.begin(), groups.end(), [](const EditGroup& g) { return g.edits.empty(); });
}

std::vector<Edit> InstrumentResult::all_edits() const {
  std::vector<Edit> out;
  for (const EditGroup& g : groups) out.insert(out.end(), g.edits.begin(), g.edits.end());
  sort_edits(out);
  return out;
}

std::string apply_edits(std::string_view text, std::vector<Edit> edits) {
  sort_edits(edits);
  std::string out;
  out.reserve(text.size() + 256);
  std::size_t pos = 0;
  for (const Edit& e : edits) {
    if (e.range.start < pos || e.range.end < e.range.start || e.range.end > text.size())
      throw std::invalid_argument("overlapping or out-of-range edit at byte " + std::to_string(e.range.start));
    out.append(text.substr(pos, e.range.start - pos));
    out.append(e.text);
    pos = e.range.end;
  }
  out.append(text.substr(pos));
  return out;
}

std::string vllm_ascend_flags(const std::string& abs_config_path) {
  std::string json = "{\"dump_config_path\": ";
  config::append_json_string(json, abs_config_path);
  json += "}";
  std::string quoted = "'";
  for (char c : json) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return "--additional-config " + quoted + "'";
}

}  // namespace msprobe::analysis
