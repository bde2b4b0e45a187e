// PrecisionDebugger construction sites and the calls around them, read from
// FileFacts (no tree walking here).
#include "msprobe/analysis/config/debugger_sites.h"

#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis::config {
namespace {

bool is_debugger_call(const Call& c) {
  if (!c.qualified.empty()) return ends_with(c.qualified, "PrecisionDebugger") && starts_with(c.qualified, "msprobe");
  // Unresolved: a star import (`from msprobe.pytorch import *`) or a name bound some other way.
  return std::string_view(c.callee) == "PrecisionDebugger";  // length first
}

}  // namespace

const Argument* keyword(const Call& call, std::string_view name) {
  for (const Argument& a : call.args) {
    if (a.keyword == name) return &a;
  }
  return nullptr;
}

bool call_has_model(const Call& call) {
  for (const Argument& a : call.args) {
    if (a.keyword.empty()) return true;  // positional (or *args / **kwargs: cannot tell, assume a model)
    if (a.keyword == "model") return a.text != "None";
  }
  return false;
}

std::optional<std::string> python_string_literal(std::string_view text) {
  std::size_t i = 0;
  bool raw = false;
  while (i < text.size() && i < 2 && std::string_view("rRuU").find(text[i]) != std::string_view::npos) {
    if (text[i] == 'r' || text[i] == 'R') raw = true;
    ++i;
  }
  std::string_view rest = text.substr(i);
  std::string_view quote;
  for (std::string_view qt : {"\"\"\"", "'''", "\"", "'"}) {
    if (rest.size() >= 2 * qt.size() && starts_with(rest, qt) && ends_with(rest, qt)) {
      quote = qt;
      break;
    }
  }
  if (quote.empty()) return std::nullopt;
  std::string_view body = rest.substr(quote.size(), rest.size() - 2 * quote.size());
  // A quote of the same kind inside means adjacent literals ("a" "b") or something stranger.
  std::string out;
  for (std::size_t k = 0; k < body.size(); ++k) {
    char c = body[k];
    if (c == '\\' && k + 1 < body.size()) {
      char e = body[k + 1];
      if (raw) {
        out += c;
        out += e;
      } else {
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case '\\': out += '\\'; break;
          case '\'': out += '\''; break;
          case '"': out += '"'; break;
          default: out += c; out += e;
        }
      }
      ++k;
      continue;
    }
    if (quote.size() == 1 && c == quote[0]) return std::nullopt;
    out += c;
  }
  return out;
}

std::vector<DebuggerSite> find_debugger_sites(const FileFacts& facts) {
  std::vector<DebuggerSite> out;
  for (std::size_t i = 0; i < facts.calls.size(); ++i) {
    const Call& c = facts.calls[i];
    if (!is_debugger_call(c)) continue;
    DebuggerSite s;
    s.call = static_cast<int>(i);
    const Argument* cfg = keyword(c, "config_path");
    if (!cfg && !c.args.empty() && c.args[0].keyword.empty() && c.args[0].text.rfind('*', 0) != 0) cfg = &c.args[0];
    if (cfg && cfg->text != "None") {
      s.has_config_arg = true;
      s.config_arg = cfg->range;
      s.config_path = python_string_literal(cfg->text);
    }
    if (const Argument* a = keyword(c, "level")) s.level = python_string_literal(a->text);
    if (const Argument* a = keyword(c, "task")) s.task = python_string_literal(a->text);
    s.dump_path_arg = keyword(c, "dump_path") != nullptr;
    for (const Assignment& a : facts.assignments) {
      if (a.value_call == s.call) s.variables.push_back(a.target);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<int> find_debugger_calls(const FileFacts& facts, const std::vector<DebuggerSite>& sites,
                                     std::string_view method) {
  std::vector<int> out;
  const std::string suffix = "." + std::string(method);
  for (std::size_t i = 0; i < facts.calls.size(); ++i) {
    const Call& c = facts.calls[i];
    if (!ends_with(c.callee, suffix)) continue;
    std::string_view receiver = std::string_view(c.callee).substr(0, c.callee.size() - suffix.size());
    bool match = ends_with(c.qualified, "PrecisionDebugger" + suffix) || receiver == "PrecisionDebugger";
    for (const DebuggerSite& s : sites) {
      for (const std::string& v : s.variables) match = match || receiver == v;
    }
    if (match) out.push_back(static_cast<int>(i));
  }
  return out;
}

EffectiveConfig effective_config(const AnalysisOptions& options, const DebuggerSite& site) {
  EffectiveConfig e;
  if (site.has_config_arg) {
    if (!site.config_path || !options.config_resolver) {
      e.known = false;
    } else {
      ConfigLookup found = (*options.config_resolver)(*site.config_path);
      if (!found.found || !found.text) {
        e.known = false;
      } else {
        ConfigSummary s = summarize_config(*found.text);
        e.level = s.level;
        e.task = s.task;
        e.source = "\"" + *site.config_path + "\"";
      }
    }
  }
  if (site.level) e.level = *site.level, e.known = true, e.source = "PrecisionDebugger(level=...)";
  if (site.task) e.task = *site.task;
  return e;
}

bool uses_distributed(const FileFacts& facts) {
  static const char* kLaunchers[] = {
      "deepspeed",    "accelerate", "megatron", "mindspeed", "colossalai", "lightning", "pytorch_lightning",
      "transformers", "horovod",    "torchrun", "verl",      "vllm",       "sglang",    "modellink",
      "torchtitan"};
  auto distributed = [](std::string_view q) {
    return starts_with(q, "torch.distributed") || starts_with(q, "torch.nn.parallel.DistributedDataParallel") ||
           starts_with(q, "torch.nn.parallel.distributed");
  };
  for (const Import& imp : facts.imports) {
    if (distributed(imp.module) || distributed(imp.target)) return true;
    std::string root = imp.module.substr(0, imp.module.find('.'));
    for (const char* l : kLaunchers) {
      if (root == l) return true;
    }
  }
  for (const Call& c : facts.calls) {
    if (distributed(c.qualified)) return true;
  }
  for (const NameUse& u : facts.name_uses) {
    if (distributed(u.qualified)) return true;
  }
  return false;
}

}  // namespace msprobe::analysis::config
