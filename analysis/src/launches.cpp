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
  std::vector<Launch> out;
  for (std::size_t i = 0; i < f.calls.size(); ++i) {
    const Call& c = f.calls[i];
    const std::string& q = c.qualified;
    const Argument* a = nullptr;
    bool mp = q.rfind("torch.multiprocessing", 0) == 0 || q.rfind("multiprocessing", 0) == 0;
    if ((mp && ends_with(q, ".spawn")) || ends_with(q, "notebook_launcher")) a = arg(c, {"fn", "function"}, 0);
    else if (ends_with(c.callee, "Process") || ends_with(q, ".Process")) a = arg(c, {"target"}, -1);
    else if (ends_with(q, "start_processes"))
      a = arg(c, {"entrypoint", "fn"}, q.find("elastic") != std::string::npos ? 1 : 0);
    else if (c.callee.find("elastic_launch(") != std::string::npos) a = arg(c, {}, 0);
    if (!a || a->text.empty()) continue;
    std::string how = c.callee.find('(') == std::string::npos ? c.callee + "(...)" : "elastic_launch(...)(...)";
    out.push_back({static_cast<int>(i), a->text, how});
  }
  return out;
}

}  // namespace msprobe::analysis
