// Detection of TorchDynamo use from FileFacts, and the edits that undo it.
#include "msprobe/analysis/dynamo.h"

#include "bindings.h"

#include <algorithm>

#include "msprobe/analysis/text_match.h"
#include "python_edits.h"

namespace msprobe::analysis {
namespace {

bool is_dynamo_name(std::string_view q) { return q == "torch._dynamo" || starts_with(q, "torch._dynamo."); }

// `X.compile()` is nn.Module.compile when X holds a module (bound from an
// nn.Module class of this file, torch.nn.*, a model factory) or, when
// nothing is known about it, its name says so. An instance of any other
// class (`query.compile()`) is not a module.
bool looks_like_module(const Bindings& names, const std::string& receiver) {
  uint32_t holds = names.holds(receiver);
  if (holds != 0) return (holds & kModel) != 0;
  if (names.instance_class(receiver) >= 0) return false;
  std::string l = lowered(last_name(receiver));
  return l.find("model") != std::string::npos || l.find("net") != std::string::npos ||
         l.find("module") != std::string::npos || l == "m";
}

// The whole line(s) of a range, with its line break, for deletion.
ByteRange full_lines(const SourceText& src, ByteRange r) {
  uint32_t first = src.line_of(r.start), last = src.line_of(r.end);
  std::size_t end = last + 1 < src.line_count() ? src.line_start(last + 1) : src.size();
  return {static_cast<uint32_t>(src.line_start(first)), static_cast<uint32_t>(end)};
}

}  // namespace

const char* to_string(DynamoForm f) {
  switch (f) {
    case DynamoForm::Call: return "call";
    case DynamoForm::Decorator: return "decorator";
    case DynamoForm::Dynamo: return "dynamo";
    case DynamoForm::ModuleCompile: return "module-compile";
    case DynamoForm::Jit: return "jit";
  }
  return "call";
}

std::optional<Fix> disable_dynamo_env_fix(const SourceText& source, const FileFacts& facts) {
  for (const Import& imp : facts.imports) {
    bool torch = imp.target == "torch" || starts_with(imp.target, "torch.") || imp.module == "torch" ||
                 starts_with(imp.module, "torch.");
    if (!torch || !imp.top_level) continue;
    std::string indent = indent_of_line(source, imp.line), eol = line_break(source);
    Fix fix;
    fix.title = "Set TORCHDYNAMO_DISABLE=1 before torch is imported";
    fix.safety = FixSafety::Safe;
    fix.edits.push_back(
        insert_before_line(source, imp.line,
                           indent + "import os" + eol + indent +
                               "os.environ[\"TORCHDYNAMO_DISABLE\"] = \"1\"  # msProbe dump needs eager mode" + eol));
    return fix;
  }
  return std::nullopt;
}

std::vector<DynamoSite> find_dynamo_sites(const SourceText& source, const FileFacts& facts) {
  std::vector<DynamoSite> sites;
  std::optional<Fix> env_fix = disable_dynamo_env_fix(source, facts);
  std::optional<Bindings> names;  // built on the first `.compile()` call

  for (const Call& c : facts.calls) {
    // Every form below is a torch.* name or an unresolved `X.compile()`.
    if (c.qualified.empty() ? !ends_with(c.callee, ".compile") : !starts_with(c.qualified, "torch.")) continue;
    DynamoSite s;
    s.range = c.range;
    const std::string_view q = c.qualified;  // compared by length first, unlike std::string == const char*
    if (q == "torch.compile" || q == "torch.compiler.compile") {
      s.form = DynamoForm::Call;
      s.description = "torch.compile(...)";
      const Argument* first = nullptr;
      for (const Argument& a : c.args) {
        if (a.keyword.empty()) {
          first = &a;
          break;
        }
        if (a.keyword == "model") first = &a;
      }
      if (first && !first->text.empty() && first->text[0] != '*') {
        Fix unwrap;
        unwrap.title = "Unwrap torch.compile(" + first->text + ", ...) to " + first->text;
        unwrap.safety = FixSafety::Unsafe;
        unwrap.preferred = true;
        unwrap.edits.push_back({c.range, first->text});
        s.fixes.push_back(std::move(unwrap));
      }
    } else if (is_dynamo_name(c.qualified)) {
      s.form = DynamoForm::Dynamo;
      s.description = c.qualified + "(...)";
    } else if (q == "torch.jit.script" || q == "torch.jit.trace") {
      s.form = DynamoForm::Jit;
      s.description = c.qualified + "(...)";
    } else if (c.qualified.empty() && c.callee.size() > 8 && ends_with(c.callee, ".compile") &&
               looks_like_module(names ? *names : names.emplace(facts), c.callee.substr(0, c.callee.size() - 8))) {
      s.form = DynamoForm::ModuleCompile;
      s.description = c.callee + "()";
      if (c.statement >= 0) {
        const Statement& st = facts.statements[static_cast<std::size_t>(c.statement)];
        // remove_statement leaves `pass` when the call is alone in its block.
        std::optional<Edit> removal = remove_statement(source, facts, c.statement);
        if (st.type == "expression_statement" && st.range.start == c.range.start && st.range.end == c.range.end &&
            removal) {
          Fix drop;
          drop.title = "Remove " + c.callee + "()";
          drop.safety = FixSafety::Unsafe;
          drop.preferred = true;
          drop.edits.push_back(*removal);
          s.fixes.push_back(std::move(drop));
        }
      }
    } else {
      continue;
    }
    if (env_fix && s.form != DynamoForm::Jit) s.fixes.push_back(*env_fix);
    sites.push_back(std::move(s));
  }
  for (const Decorator& d : facts.decorators) {
    if (d.qualified != "torch.compile" && !is_dynamo_name(d.qualified)) continue;
    DynamoSite s;
    s.form = DynamoForm::Decorator;
    s.range = d.range;
    s.description = d.called ? "@" + d.callee + "(...)" : "@" + d.callee;
    Fix drop;
    drop.title = "Remove the @" + d.callee + " decorator";
    drop.safety = FixSafety::Unsafe;
    drop.preferred = true;
    drop.edits.push_back({full_lines(source, d.range), ""});
    s.fixes.push_back(std::move(drop));
    if (env_fix) s.fixes.push_back(*env_fix);
    sites.push_back(std::move(s));
  }
  // Decorator calls (`@torch.compile(mode=...)`) are also calls: keep the decorator form only.
  sites.erase(std::remove_if(sites.begin(), sites.end(),
                             [&](const DynamoSite& s) {
                               if (s.form == DynamoForm::Decorator) return false;
                               for (const Decorator& d : facts.decorators) {
                                 if (inside(s.range, d.range) &&
                                     (d.qualified == "torch.compile" || is_dynamo_name(d.qualified)))
                                   return true;
                               }
                               return false;
                             }),
              sites.end());
  for (const NameUse& u : facts.name_uses) {
    if (!is_dynamo_name(u.qualified)) continue;
    sites.push_back({DynamoForm::Dynamo, u.range, u.text, env_fix ? std::vector<Fix>{*env_fix} : std::vector<Fix>{}});
  }
  for (const Import& imp : facts.imports) {
    std::string full = imp.name.empty() ? imp.module : imp.module + "." + imp.name;
    if (!is_dynamo_name(full) && !is_dynamo_name(imp.module)) continue;
    sites.push_back({DynamoForm::Dynamo, imp.range, "import of " + full, {}, /*is_import=*/true});
  }
  std::sort(sites.begin(), sites.end(),
            [](const DynamoSite& a, const DynamoSite& b) { return a.range.start < b.range.start; });
  // One site per range (an import binding several names is one statement).
  sites.erase(std::unique(sites.begin(), sites.end(),
                          [](const DynamoSite& a, const DynamoSite& b) { return a.range == b.range; }),
              sites.end());
  return sites;
}

}  // namespace msprobe::analysis
