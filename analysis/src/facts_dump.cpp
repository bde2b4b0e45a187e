// A canonical text of every fact, raw and derived: two builds are equal when
// their dumps are (the incremental-facts test and fuzzer, `parse_bench
// --dump-facts`). FileFacts::chunks is bookkeeping, not a fact, and is left out.
#include <sstream>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {
namespace {

std::string r(ByteRange x) { return std::to_string(x.start) + "-" + std::to_string(x.end); }

template <typename T>
std::string list(const std::vector<T>& v) {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < v.size(); ++i) o << (i ? "," : "") << v[i];
  o << "]";
  return o.str();
}

std::string ranges(const std::vector<ByteRange>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + r(v[i]);
  return s + "]";
}

}  // namespace

std::string dump_facts(const FileFacts& f) {
  std::ostringstream o;
  for (const auto& i : f.imports)
    o << "import " << i.module << "|" << i.name << "|" << i.bound << "|" << i.target << " " << r(i.range) << " "
      << i.line << i.top_level << i.conditional << i.is_future << "\n";
  for (const auto& c : f.calls) {
    o << "call " << c.callee << "|" << c.qualified << " " << r(c.range) << " " << c.line << " " << r(c.callee_range)
      << " " << r(c.args_range) << " fn" << c.function << " loop" << c.loop << " st" << c.statement;
    for (const auto& a : c.args) o << " [" << a.keyword << "=" << a.text << " " << r(a.range) << "]";
    o << "\n";
  }
  for (const auto& u : f.name_uses) o << "name " << u.text << "|" << u.qualified << " " << r(u.range) << "\n";
  for (const auto& d : f.decorators)
    o << "decorator " << d.callee << "|" << d.qualified << " " << r(d.range) << " " << d.called << " " << d.function
      << "\n";
  for (const auto& c : f.comments) o << "comment " << r(c.range) << " " << c.line << " " << c.text << "\n";
  for (const auto& fn : f.functions)
    o << "function " << fn.name << "|" << fn.class_name << " " << r(fn.range) << " " << r(fn.body) << " " << fn.line
      << " " << fn.parent << " " << list(fn.params) << " st" << fn.statement << " class" << fn.class_index << "\n";
  for (const auto& c : f.classes)
    o << "class " << c.name << " " << r(c.range) << " " << r(c.body) << " " << c.line << " " << list(c.bases) << "\n";
  for (const auto& l : f.loops)
    o << "loop " << static_cast<int>(l.kind) << " " << r(l.range) << " " << r(l.header) << " " << r(l.body) << " "
      << l.target << "|" << l.iterable << " " << l.line << " " << l.parent << " " << l.function << " "
      << l.body_first_stmt << " " << l.body_last_stmt << " " << l.has_else << " st" << l.statement << " with"
      << l.with_block << "\n";
  for (const auto& st : f.statements)
    o << "stmt " << r(st.range) << " " << st.line << "-" << st.end_line << " " << st.type << " "
      << st.parent_block_owner << " " << st.function << " " << st.loop << " " << st.indent << " " << st.is_exit << " "
      << r(st.block) << " " << st.block_clause << "\n";
  for (const auto& a : f.assignments)
    o << "assign " << a.target << "=" << a.value << " " << a.value_call << " " << r(a.range) << " " << a.function << " "
      << a.loop << " " << list(a.targets) << " " << list(a.values) << " " << list(a.value_calls) << " st" << a.statement
      << "\n";
  for (const auto& x : f.returns)
    o << "return st" << x.statement << " fn" << x.function << " " << x.value << " " << x.value_call << "\n";
  for (const auto& w : f.with_blocks)
    o << "with " << r(w.range) << " " << r(w.body) << " " << w.function << " " << w.parent << " " << list(w.items)
      << "\n";
  for (const auto& e : f.syntax_errors) o << "syntax " << r(e.range) << " " << e.missing << " " << e.expected << "\n";
  for (const auto& [k, v] : f.aliases) o << "alias " << k << "=" << v << "\n";
  for (const auto& m : f.msprobe)
    o << "msprobe " << to_string(m.kind) << " " << r(m.range) << " " << m.line << " " << m.call << " " << m.import
      << " " << m.receiver << "|" << m.bound_to << "|" << m.framework << "|" << m.method << "|" << m.config_path << " "
      << r(m.config_path_range) << " " << m.model_arg << " " << m.function << " " << m.loop << "\n";
  for (const auto& m : f.scenario_markers)
    o << "marker " << to_string(m.scenario) << " " << r(m.range) << " " << m.line << " " << m.evidence << "\n";
  for (auto sc : f.scenarios) o << "scenario " << to_string(sc) << "\n";
  for (const auto& li : f.loop_info)
    o << "loopinfo " << li.loop << " " << to_string(li.role) << " " << li.model << " " << li.epoch_loop << " "
      << ranges(li.forward) << " " << ranges(li.backward) << " " << ranges(li.step) << " " << list(li.models) << " "
      << list(li.trained) << " fn" << li.function << " " << li.generation << li.no_grad << li.model_is_module
      << li.forward_through_call << " " << li.reason << "\n";
  o << "docstring " << r(f.module_docstring) << " " << f.has_docstring << " main " << f.main_guard << "\n";
  return o.str();
}

}  // namespace msprobe::analysis
