// ModuleSummary: what the project layer keeps of one Python file. Small (no
// syntax tree, no FileFacts): a few thousand of them fit in tens of
// megabytes, and an edit replaces one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "effects.h"
#include "msprobe/analysis/dynamo.h"
#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

struct ImportRef {
  std::string module;  // as written: "mingpt.trainer", ".model", "..", "torch"
  std::string name;    // the member of a `from` import; "" for `import x`
  std::string bound;   // the local name it binds ("" for `import a.b`: the root "a" is bound)
  uint32_t line = 0;
  bool top_level = true;     // at module level (possibly inside try/if)
  bool conditional = false;  // inside try/if/with at module level
};

// A folder the file puts on sys.path (`sys.path.insert(0, os.path.dirname(__file__))`).
struct SysPathEntry {
  bool from_file = true;  // relative to the file's folder; else to the working directory (taken as the root)
  std::string path;       // "", "..", "../src", "src"
};

struct LaunchRef {
  std::string worker;  // the worker function as written
  std::string how;     // "mp.spawn(...)"
  uint32_t line = 0;
  int function = -1;   // the function that launches, -1 at module level
  uint32_t start = 0;  // first byte of the launching call
};

struct MsprobeRef {
  MsprobeKind kind = MsprobeKind::Other;
  uint32_t line = 0;
  int function = -1;
  int loop = -1;
  std::string receiver;  // "debugger", "PrecisionDebugger"
  std::string bound_to;  // Construct: "debugger", "self.debugger"
};

struct ModuleSummary {
  ModuleEffects effects;
  std::vector<ImportRef> imports;
  std::vector<SysPathEntry> sys_path;
  std::vector<LaunchRef> launches;
  std::vector<MsprobeRef> msprobe;
  std::vector<ByteRange> class_ranges;  // per class: the whole definition (module-level code excludes them)
  std::vector<uint32_t> dynamo_lines;   // 0-based lines of torch.compile / torch._dynamo / jit sites (MSP101's)
  int main_guard_line = -1;             // 0-based line of `if __name__ == "__main__":`, -1 without
  bool runs_code = false;               // module-level code that calls into functions or loops: a script
  bool syntax_errors = false;
  uint32_t bytes = 0;  // size of the source
  // A hash of what other files can see of this one (names, effects, imports,
  // entry facts; not positions): equal fingerprints give other files the same answers.
  uint64_t fingerprint = 0;
};

class Bindings;
struct ProjectView;
class ProjectSnapshot;

// summarize() and project_view() with the file's bindings built once for
// both (analyze() in a project); `names` must be built over `facts`.
// With `previous`, the call effects of statements an edit left alone are kept (build_effects).
// `dynamo_sites`: find_dynamo_sites over `facts`, when the caller has it.
std::shared_ptr<const ModuleSummary> summarize(const SourceText& source, const FileFacts& facts, const Bindings& names,
                                               const PreviousEffects* previous = nullptr,
                                               const std::vector<DynamoSite>* dynamo_sites = nullptr);
ProjectView project_view(const SourceText& source, FileFacts& facts, const ProjectSnapshot& project,
                         const std::string& rel, const ModuleSummary& summary, const Bindings& names);

}  // namespace msprobe::analysis
