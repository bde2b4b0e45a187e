// The dump-point operations the server offers (code actions, code lens,
// commands): which apply where, and their edits on one analysed text.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/instrument.h"

namespace msprobe::server {

using nlohmann::json;

enum class DumpOp { Enable, Disable, Remove, Runner, FixAll };
const char* to_string(DumpOp op);
std::optional<DumpOp> dump_op_from(const std::string& s);

// One operation, as it travels in a code action's data or a command's
// arguments: {"op", "uri", "version", "loopLine"?}.
struct DumpRequest {
  DumpRequest(DumpOp o = DumpOp::Enable, std::optional<uint32_t> line = std::nullopt, std::string e = "")
      : op(o), loop_line(line), entry(std::move(e)) {}
  DumpOp op;
  std::optional<uint32_t> loop_line;  // 0-based
  std::string entry;                  // in a project: the launched script whose process gets the debugger
};

// Code action kinds.
inline constexpr const char* kKindEnableRefactor = "refactor.rewrite.msprobe.enableDump";
inline constexpr const char* kKindDisableRefactor = "refactor.rewrite.msprobe.disableDump";
inline constexpr const char* kKindRemoveRefactor = "refactor.rewrite.msprobe.removeDump";
inline constexpr const char* kKindEnableSource = "source.msprobe.enableDump";
inline constexpr const char* kKindDisableSource = "source.msprobe.disableDump";
inline constexpr const char* kKindRemoveSource = "source.msprobe.removeDump";
inline constexpr const char* kKindFixAll = "source.fixAll.msprobe";

// An action to offer: title, kind, and what computes its edit.
struct DumpOffer {
  std::string title;
  std::string kind;
  DumpRequest request;
};

// The actions for a selection [sel_start, sel_end] (byte offsets). Source
// actions only when `with_source` (the client asked for source kinds).
std::vector<DumpOffer> dump_offers(const analysis::SourceText& src, const analysis::Analysis& a, uint32_t sel_start,
                                   uint32_t sel_end, bool with_source, bool with_refactor);

// True when the selection lies on the loop `loop` (from its header line's start).
bool on_loop(const analysis::SourceText& src, analysis::ByteRange loop, uint32_t sel_start, uint32_t sel_end);

// The edits of one operation; `config_path` goes into a new construction.
analysis::InstrumentResult compute_dump_op(const analysis::SourceText& src, const analysis::Analysis& a,
                                           const DumpRequest& req, const std::string& config_path);

// The title of an enable action for a loop ("msProbe: enable dump in loop at line 12 (train)").
std::string enable_title(const analysis::DumpTarget& t);

}  // namespace msprobe::server
