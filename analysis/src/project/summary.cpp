// Builds a ModuleSummary from a file's facts (see summary.h).
#include <algorithm>
#include <regex>

#include "bindings.h"
#include "facts_builder.h"
#include "launches.h"
#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/project.h"
#include "msprobe/analysis/text_match.h"
#include "project/summary.h"

namespace msprobe::analysis {
namespace {

// The string literals of an expression, in order ("..", "src" in
// `os.path.join(os.path.dirname(__file__), "..", "src")`).
std::vector<std::string> string_literals(const std::string& text) {
  static const std::regex kString(R"re((?:^|[^A-Za-z0-9_])[rRuU]?("([^"\\\n]*)"|'([^'\\\n]*)'))re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kString); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[2].matched ? (*it)[2].str() : (*it)[3].str());
  }
  return out;
}

std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + part.size())) ++n;
  return n;
}

// The folder an argument of sys.path.insert/append names, in the forms real
// scripts use: dirname(__file__) chains, Path(__file__).parent(s), joined
// with literal parts; or a literal path (relative to the working directory).
std::optional<SysPathEntry> sys_path_entry(const std::string& text) {
  SysPathEntry e;
  std::vector<std::string> parts = string_literals(text);
  if (contains(text, "__file__")) {
    std::size_t levels = count(text, "dirname(") + count(text, ".parent") - count(text, ".parents");
    static const std::regex kParents(R"(\.parents\[\s*(\d+)\s*\])");
    std::smatch m;
    if (std::regex_search(text, m, kParents)) levels += static_cast<std::size_t>(std::stoul(m[1].str())) + 1;
    std::string path;
    for (std::size_t i = 1; i < levels; ++i) path += path.empty() ? ".." : "/..";
    for (const std::string& p : parts) {
      if (p.empty() || p == ".") continue;
      path += path.empty() ? p : "/" + p;
    }
    e.path = path;
    return e;
  }
  static const std::regex kLiteral(R"re(^\s*[rRuU]?("[^"\\\n]*"|'[^'\\\n]*')\s*$)re");
  if (std::regex_match(text, kLiteral) && parts.size() == 1) {
    e.from_file = false;
    e.path = parts.front();
    while (starts_with(e.path, "./")) e.path = e.path.substr(2);
    if (e.path == ".") e.path.clear();
    if (!e.path.empty() && e.path.front() == '/') return std::nullopt;  // an absolute path: outside the project
    return e;
  }
  return std::nullopt;
}

// FNV-1a over the parts of a summary other files depend on.
class Fingerprint {
 public:
  Fingerprint& operator<<(std::string_view s) {
    for (char c : s) mix(static_cast<unsigned char>(c));
    mix(0xff);
    return *this;
  }
  Fingerprint& operator<<(long long v) {
    for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(static_cast<unsigned long long>(v) >> (8 * i)));
    return *this;
  }
  uint64_t value() const { return h_; }

 private:
  void mix(unsigned char c) {
    h_ ^= c;
    h_ *= 0x100000001b3ull;
  }
  uint64_t h_ = 0xcbf29ce484222325ull;
};

// `s` with every vector at its size.
ModuleSummary shrunk(ModuleSummary&& s) {
  auto fit = [](auto&... v) { (v.shrink_to_fit(), ...); };
  fit(s.effects.functions, s.effects.loops, s.effects.classes, s.effects.sites, s.effects.targets, s.imports,
      s.sys_path, s.launches, s.msprobe, s.class_ranges, s.dynamo_lines);
  // Their strings are built at their size (copies of the facts' text).
  for (FunctionShape& fn : s.effects.functions) fit(fn.params);
  for (ClassShape& c : s.effects.classes) fit(c.bases);
  for (CallSite& c : s.effects.sites) fit(c.args);
  return std::move(s);
}

uint64_t fingerprint(const ModuleSummary& s) {
  Fingerprint f;
  for (const FunctionShape& fn : s.effects.functions) {
    f << fn.name << fn.class_index << fn.parent;
    for (const std::string& p : fn.params) f << p;
  }
  for (const LoopShape& l : s.effects.loops) f << l.function << l.parent;
  for (const ClassShape& c : s.effects.classes) {
    f << c.name << static_cast<long long>(c.module);
    for (const std::string& b : c.bases) f << b;
  }
  for (const CallSite& c : s.effects.sites) {
    f << c.function << c.kinds << c.model << c.passed_model << c.helper << c.closure << c.target << c.receiver;
    for (const CallArg& a : c.args) f << a.keyword << a.text;
  }
  for (const CallTarget& t : s.effects.targets) f << static_cast<long long>(t.via) << t.name << t.ctor << t.self_class;
  for (const ImportRef& i : s.imports)
    f << i.module << i.name << i.bound << static_cast<long long>(i.top_level) << static_cast<long long>(i.conditional);
  for (const SysPathEntry& e : s.sys_path) f << static_cast<long long>(e.from_file) << e.path;
  for (const LaunchRef& l : s.launches) f << l.worker << l.function;
  for (const MsprobeRef& m : s.msprobe)
    f << static_cast<long long>(m.kind) << m.function << m.loop << m.receiver << m.bound_to;
  f << static_cast<long long>(s.dynamo_lines.size());
  f << static_cast<long long>(s.main_guard_line >= 0) << static_cast<long long>(s.runs_code)
    << static_cast<long long>(s.syntax_errors);
  return f.value();
}

}  // namespace

std::shared_ptr<const ModuleSummary> summarize(const SourceText& source, const FileFacts& f) {
  Bindings names(f);
  return summarize(source, f, names);
}

std::shared_ptr<const ModuleSummary> summarize(const SourceText& source, const FileFacts& f, const Bindings& names,
                                               const PreviousEffects* previous,
                                               const std::vector<DynamoSite>* dynamo_sites) {
  ModuleSummary s;
  s.effects = build_effects(f, names, previous);
  s.bytes = static_cast<uint32_t>(source.size());
  s.syntax_errors = !f.syntax_errors.empty();
  for (const Import& imp : f.imports) {
    if (imp.is_future) continue;
    s.imports.push_back({imp.module, imp.name, imp.bound, imp.line, imp.top_level, imp.conditional});
  }
  for (const ClassDef& c : f.classes) s.class_ranges.push_back(c.range);
  std::vector<DynamoSite> found;
  if (!dynamo_sites) dynamo_sites = &(found = find_dynamo_sites(source, f));
  for (const DynamoSite& d : *dynamo_sites) {
    if (!d.is_import) s.dynamo_lines.push_back(source.line_of(d.range.start));
  }
  if (f.main_guard >= 0)
    s.main_guard_line = static_cast<int>(f.statements[static_cast<std::size_t>(f.main_guard)].line);

  for (const Call& c : f.calls) {
    const std::string_view q = c.qualified;  // compared by length first, unlike std::string == const char*
    bool insert = q == "sys.path.insert", append = q == "sys.path.append";
    if (!insert && !append) continue;
    std::size_t want = insert ? 1 : 0, positional = 0;
    for (const Argument& a : c.args) {
      if (!a.keyword.empty()) continue;
      if (positional++ != want) continue;
      if (std::optional<SysPathEntry> e = sys_path_entry(a.text)) s.sys_path.push_back(std::move(*e));
    }
  }
  const std::vector<Launch> launches = find_launches(f);
  for (const Launch& l : launches) {
    const Call& c = f.calls[static_cast<std::size_t>(l.call)];
    s.launches.push_back({l.worker, l.how, c.line, c.function, c.range.start});
  }
  for (const MsprobeUse& u : f.msprobe) {
    if (u.kind == MsprobeKind::Other) continue;
    s.msprobe.push_back({u.kind, u.line, u.function, u.loop, u.receiver, u.bound_to});
  }

  // A script: module-level code (outside classes and decorators) that calls
  // into functions or runs a loop.
  auto in_class_or_decorator = [&](ByteRange r) {
    for (const ClassDef& c : f.classes) {
      if (inside(r, c.range)) return true;
    }
    for (const Decorator& d : f.decorators) {
      if (inside(r, d.range)) return true;
    }
    return false;
  };
  for (const CallSite& site : s.effects.sites) {
    if (site.function != -1 || in_class_or_decorator(site.at)) continue;
    if (site.kinds != 0 || site.helper >= 0 || site.target >= 0) {
      s.runs_code = true;
      break;
    }
  }
  for (const Loop& l : f.loops) {
    if (!s.runs_code && l.function == -1 && !in_class_or_decorator(l.range)) s.runs_code = true;
  }
  for (const Launch& l : launches) {
    if (f.calls[static_cast<std::size_t>(l.call)].function == -1) s.runs_code = true;
  }
  s.fingerprint = fingerprint(s);
  // A summary outlives its analysis (the project keeps one per file): its
  // vectors keep no growth room (103 -> 84 KB for a 1,000-line script). Each
  // is moved and shrunk, so its entries are moved, not copied.
  return std::make_shared<const ModuleSummary>(shrunk(std::move(s)));
}

uint64_t summary_fingerprint(const ModuleSummary& s) { return s.fingerprint; }

std::size_t summary_source_bytes(const ModuleSummary& s) { return s.bytes; }

std::shared_ptr<const ModuleSummary> summarize_source(PythonParser& parser, const SourceText& source) {
  TreePtr tree = parser.parse(source.view());
  if (!tree) return nullptr;
  return summarize(source, build_facts(tree, source.view(), false));
}

std::size_t summary_bytes(const ModuleSummary& s) {
  auto str = [](const std::string& x) { return sizeof(std::string) + (x.size() > 15 ? x.capacity() : 0); };
  std::size_t n = sizeof(ModuleSummary);
  for (const FunctionShape& fn : s.effects.functions) {
    n += sizeof(fn) + str(fn.name);
    for (const std::string& p : fn.params) n += str(p);
  }
  n += s.effects.loops.size() * sizeof(LoopShape);
  for (const ClassShape& c : s.effects.classes) {
    n += sizeof(c) + str(c.name);
    for (const std::string& b : c.bases) n += str(b);
  }
  for (const CallSite& c : s.effects.sites) {
    n += sizeof(c) + str(c.model) + str(c.passed_model) + str(c.receiver);
    for (const CallArg& a : c.args) n += sizeof(a) + str(a.keyword) + str(a.text);
  }
  for (const CallTarget& t : s.effects.targets) n += sizeof(t) + str(t.name) + str(t.ctor);
  for (const ImportRef& i : s.imports) n += sizeof(i) + str(i.module) + str(i.name) + str(i.bound);
  n += s.sys_path.size() * sizeof(SysPathEntry) + s.launches.size() * sizeof(LaunchRef) +
       s.msprobe.size() * sizeof(MsprobeRef) + s.class_ranges.size() * sizeof(ByteRange) +
       s.dynamo_lines.size() * sizeof(uint32_t);
  return n;
}

}  // namespace msprobe::analysis
