// Worker-process launches (see launches.h).
#include "launches.h"

#include <initializer_list>

#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

const Argument* arg(const Call& c, std::initializer_list<const char*> keywords, int positional) {
  for (const Argument& a : c.args) {
    for (const char* k : keywords) {
      if (a.keyword == k) return &a;
    }
  }
  int n = 0;
  for (const Argument& a : c.args) {
    if (a.keyword.empty() && n++ == positional) return &a;
  }
  return nullptr;
}

}  // namespace

std::vector<Launch> find_launches(const FileFacts& f) {
  // Runs over every call of the file, twice per analysis in a project (the
  // summary and MSP207): the cheap suffix tests come first, the prefix tests
  // only for a `.spawn`, the substring search only for a callee with a call in it.
  std::vector<Launch> out;
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    const std::string_view q = c.qualified, callee = c.callee;
    const Argument* a = nullptr;
    if ((ends_with(q, ".spawn") && (starts_with(q, "torch.multiprocessing") || starts_with(q, "multiprocessing"))) ||
        ends_with(q, "notebook_launcher"))
      a = arg(c, {"fn", "function"}, 0);
    else if (ends_with(callee, "Process") || ends_with(q, ".Process")) a = arg(c, {"target"}, -1);
    else if (ends_with(q, "start_processes"))
      a = arg(c, {"entrypoint", "fn"}, q.find("elastic") != std::string_view::npos ? 1 : 0);
    else if (callee.find('(') != std::string_view::npos && callee.find("elastic_launch(") != std::string_view::npos)
      a = arg(c, {}, 0);
    if (!a || a->text.empty()) continue;
    std::string how = callee.find('(') == std::string_view::npos ? c.callee + "(...)" : "elastic_launch(...)(...)";
    out.push_back({static_cast<int>(i), a->text, how});
  }
  return out;
}

}  // namespace msprobe::analysis
