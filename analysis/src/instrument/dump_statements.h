// The statements of a file that are msProbe dump code: the msprobe import,
// seed_all(), the PrecisionDebugger construction and calls on the debugger.
// These are what disable comments out and remove deletes.
#pragma once

#include <map>
#include <vector>

#include "layout.h"
#include "msprobe/analysis/facts.h"

namespace msprobe::analysis::instrument {

struct DumpStatement {
  int statement = -1;  // index into FileFacts::statements
  MsprobeKind kind = MsprobeKind::Other;
  ByteRange range;  // the statement
  uint32_t first_line = 0, last_line = 0;
  bool owns_lines = false;  // nothing else on its lines
  // An import that binds other names besides the dump API (TrainerMon, ...):
  // only those dump names may go.
  bool mixed_import = false;
  std::vector<int> imports;  // FileFacts::imports entries of an import statement
};

// In source order.
std::vector<DumpStatement> dump_statements(const Layout& layout, const FileFacts& facts);

// Kind of the dump statement starting at each byte offset.
std::map<uint32_t, MsprobeKind> dump_kinds_by_start(const std::vector<DumpStatement>& stmts);

// Names of msprobe.pytorch that are part of the dump (vs. TrainerMon etc.).
bool is_dump_api_name(const std::string& name);

}  // namespace msprobe::analysis::instrument
