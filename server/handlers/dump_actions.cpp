// Which dump operations apply at a selection, and their edits.
#include "handlers/dump_actions.h"

#include "msprobe/analysis/fix_all.h"

namespace msprobe::server {

using analysis::InstrumentResult;

const char* to_string(DumpOp op) {
  switch (op) {
    case DumpOp::Enable: return "enable";
    case DumpOp::Disable: return "disable";
    case DumpOp::Remove: return "remove";
    case DumpOp::Runner: return "runner";
    case DumpOp::FixAll: return "fixAll";
  }
  return "enable";
}

std::optional<DumpOp> dump_op_from(const std::string& s) {
  for (DumpOp op : {DumpOp::Enable, DumpOp::Disable, DumpOp::Remove, DumpOp::Runner, DumpOp::FixAll}) {
    if (s == to_string(op)) return op;
  }
  return std::nullopt;
}

std::string enable_title(const analysis::DumpTarget& t) {
  return "msProbe: enable dump in loop at line " + std::to_string(t.line + 1) + " (" + analysis::to_string(t.role) +
         ")";
}

namespace {

constexpr const char* kRunnerTitle = "msProbe: enable dump in GPUModelRunner (vLLM, needs --enforce-eager)";
constexpr const char* kAgainTitle = "msProbe: enable the commented-out dump again";
constexpr const char* kDisableTitle = "msProbe: disable dump (comment it out)";
constexpr const char* kRemoveTitle = "msProbe: remove dump code";

bool touches(uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) { return a0 <= b1 && b0 <= a1; }

}  // namespace

// A selection is on a loop from the start of its header's line (the
// indentation included) to its end.
bool on_loop(const analysis::SourceText& src, analysis::ByteRange loop, uint32_t sel_start, uint32_t sel_end) {
  return sel_start >= src.line_start(src.line_of(loop.start)) && sel_end <= loop.end;
}

namespace {}  // namespace

std::vector<DumpOffer> dump_offers(const analysis::SourceText& src, const analysis::Analysis& a, uint32_t sel_start,
                                   uint32_t sel_end, bool with_source, bool with_refactor) {
  std::vector<DumpOffer> out;
  if (!a.tree) return out;
  const bool disabled = analysis::has_disabled_dump(src, a);
  // Only the loops a title can name: those around the selection and the default one.
  const std::optional<uint32_t> default_line = with_source ? analysis::default_dump_loop(src, a) : std::nullopt;
  const auto targets = analysis::dump_targets(src, a, [&](const analysis::Loop& l) {
    return (with_refactor && on_loop(src, l.range, sel_start, sel_end)) || (default_line && l.line == *default_line);
  });
  const auto runner = analysis::vllm_runner_target(src, a);
  const auto dump_lines = analysis::dump_statement_lines(src, a);
  uint32_t line0 = src.line_of(sel_start), line1 = src.line_of(sel_end);

  if (with_refactor && !disabled) {
    for (const analysis::DumpTarget& t : targets) {
      if (!t.complete && on_loop(src, t.range, sel_start, sel_end))
        out.push_back({enable_title(t), kKindEnableRefactor, {DumpOp::Enable, t.line}});
    }
    if (runner && !runner->complete) {
      const auto& cls = a.facts.classes[static_cast<std::size_t>(runner->class_index)];
      if (sel_start >= cls.range.start && sel_end <= cls.range.end)
        out.push_back({kRunnerTitle, kKindEnableRefactor, {DumpOp::Runner, std::nullopt}});
    }
  }
  bool on_dump_line = false;
  for (auto [first, last] : dump_lines) on_dump_line = on_dump_line || touches(line0, line1, first, last);
  bool on_disabled_line = false;
  if (disabled) {
    for (uint32_t l = line0; l <= line1 && l < src.line_count(); ++l) {
      std::string_view t = src.line_text(l);
      std::size_t i = t.find_first_not_of(" \t");
      if (i != std::string_view::npos && (t.substr(i, analysis::kDisabledPrefix.size()) == analysis::kDisabledPrefix ||
                                          t.substr(i) == analysis::kDisabledPlaceholder))
        on_disabled_line = true;
    }
  }
  if (with_refactor && on_disabled_line)
    out.push_back({kAgainTitle, kKindEnableRefactor, {DumpOp::Enable, std::nullopt}});
  if (with_refactor && on_dump_line) {
    out.push_back({kDisableTitle, kKindDisableRefactor, {DumpOp::Disable, std::nullopt}});
    out.push_back({kRemoveTitle, kKindRemoveRefactor, {DumpOp::Remove, std::nullopt}});
  } else if (with_refactor && on_disabled_line) {
    out.push_back({kRemoveTitle, kKindRemoveRefactor, {DumpOp::Remove, std::nullopt}});
  }

  if (with_source) {
    if (disabled) {
      out.push_back({kAgainTitle, kKindEnableSource, {DumpOp::Enable, std::nullopt}});
    } else if (runner && !runner->complete) {
      out.push_back({kRunnerTitle, kKindEnableSource, {DumpOp::Runner, std::nullopt}});
    } else if (default_line) {
      for (const analysis::DumpTarget& t : targets) {
        if (t.line == *default_line && !t.complete)
          out.push_back({enable_title(t), kKindEnableSource, {DumpOp::Enable, t.line}});
      }
    }
    if (!dump_lines.empty()) out.push_back({kDisableTitle, kKindDisableSource, {DumpOp::Disable, std::nullopt}});
    if (!dump_lines.empty() || disabled)
      out.push_back({kRemoveTitle, kKindRemoveSource, {DumpOp::Remove, std::nullopt}});
  }
  return out;
}

InstrumentResult compute_dump_op(const analysis::SourceText& src, const analysis::Analysis& a, const DumpRequest& req,
                                 const std::string& config_path) {
  analysis::InstrumentOptions opts;
  opts.config_path = config_path;
  opts.loop_line = req.loop_line;
  switch (req.op) {
    case DumpOp::Enable:
      if (analysis::has_disabled_dump(src, a)) return analysis::reenable_dump(src, a);
      return req.loop_line ? analysis::enable_dump(src, a, opts) : analysis::enable(src, a, opts);
    case DumpOp::Runner: return analysis::instrument_vllm_runner(src, a, opts);
    case DumpOp::Disable: return analysis::disable_dump(src, a);
    case DumpOp::Remove: return analysis::remove_dump(src, a);
    case DumpOp::FixAll: {
      InstrumentResult r;
      analysis::FixAllResult fixes = analysis::fix_all(a.findings);
      if (!fixes.edits.empty())
        r.groups.push_back({"msProbe: fix all safe problems", fixes.replaces_code, fixes.edits});
      r.summary = fixes.titles.empty() ? "no safe fix to apply"
                                       : std::to_string(fixes.titles.size()) + " fix(es) applied";
      return r;
    }
  }
  return {};
}

}  // namespace msprobe::server
