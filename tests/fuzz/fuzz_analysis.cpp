// Fuzzes the engine on arbitrary bytes: the analysis of the input as Python
// (findings, fixes and every dump action must stay inside the text and keep
// their edits ordered and disjoint), and the config.json checks on the same
// bytes; and the same text parsed in two halves (split_analysis.h) at its cut,
// whatever its size, must give the same facts or be refused. The analysis
// knows nothing of LSP, so this needs no server.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/config/config_check.h"
#include "msprobe/analysis/instrument.h"
#include "msprobe/analysis/second_core.h"
#include "split_analysis.h"

using namespace msprobe::analysis;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check_range(const SourceText& src, ByteRange r) { require(r.start <= r.end && r.end <= src.size()); }

// Edits of one action: inside the text, sorted, not overlapping.
void check_edits(const SourceText& src, const std::vector<Edit>& edits) {
  uint32_t last_end = 0;
  for (const Edit& e : edits) {
    check_range(src, e.range);
    require(e.range.start >= last_end);
    last_end = e.range.end;
  }
  (void)apply_edits(src.view(), edits);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size > 256 * 1024) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  SourceText src(text);
  static PythonParser parser;
  parser.set_timeout_micros(2'000'000);
  AnalysisOptions options;
  Analysis a = analyze(parser, src, options);
  for (const Finding& f : a.findings) {
    check_range(src, f.range);
    for (const Fix& fix : f.fixes) {
      for (const Edit& e : fix.edits) check_range(src, e.range);
    }
  }
  if (a.tree) {
    InstrumentOptions io;
    for (const InstrumentResult& r : {enable(src, a, io), disable_dump(src, a), remove_dump(src, a)}) {
      if (r.ok()) check_edits(src, r.all_edits());
    }
  }
  if (std::optional<uint32_t> at = split_point(src.view()); at && a.tree) {
    static SecondCore second;
    second.wait_ready();
    std::optional<PartsBuild> parts = build_in_parts(parser, second, src.view(), *at, /*loop_roles=*/true);
    if (parts) require(dump_facts(parts->facts) == dump_facts(a.facts));
  }
  for (const Finding& f : msprobe::analysis::config::check_config(text, options)) check_range(src, f.range);
  return 0;
}
