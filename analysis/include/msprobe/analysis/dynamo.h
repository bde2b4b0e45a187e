// Where a file uses TorchDynamo (torch.compile and friends), with the fixes
// that remove each use. Shared by MSP101, MSP106 and `explain`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/source.h"

namespace msprobe::analysis {

enum class DynamoForm { Call, Decorator, Dynamo, ModuleCompile, Jit };
const char* to_string(DynamoForm f);

struct DynamoSite {
  DynamoForm form = DynamoForm::Call;
  ByteRange range;
  std::string description;  // "torch.compile(...)"
  std::vector<Fix> fixes;
  bool is_import = false;  // the import of torch._dynamo itself, not a use of it
};

std::vector<DynamoSite> find_dynamo_sites(const SourceText& source, const FileFacts& facts);

// The fix that sets TORCHDYNAMO_DISABLE=1 before torch is first imported.
std::optional<Fix> disable_dynamo_env_fix(const SourceText& source, const FileFacts& facts);

}  // namespace msprobe::analysis
