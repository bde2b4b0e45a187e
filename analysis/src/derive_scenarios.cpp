// Scenario markers: which kind of program this is (msprobe-facts §6). The
// PyTorch eager dump only covers plain PyTorch; the others need other tools.
#include <algorithm>
#include <string_view>

#include "derive.h"
#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

std::string root_of(const std::string& module) { return module.substr(0, module.find('.')); }

// verl's RL side: the Ray drivers (PPO/GRPO trainers, main_ppo, generation) and
// the Ray workers (actor, critic, rollout, reward). They run in processes verl
// starts itself, and verl's built-in profiler dumps them. The rest of verl
// (verl.utils, verl.models, the FSDP SFT trainer) is plain eager PyTorch that
// the dump covers like any other training loop.
bool is_verl_rl(const std::string& dotted) {
  static constexpr std::string_view kPrefixes[] = {
      "verl.trainer.ppo",
      "verl.trainer.main_ppo",
      "verl.trainer.main_generation",
      "verl.single_controller",
      "verl.workers.fsdp_workers",
      "verl.workers.megatron_workers",
      "verl.workers.actor",
      "verl.workers.critic",
      "verl.workers.rollout",
      "verl.workers.reward",
      "verl.protocol",
      "verl.DataProto",
  };
  if (dotted == "verl") return true;  // a bare `import verl` names nothing smaller
  for (std::string_view p : kPrefixes) {
    if (starts_with(dotted, p) && (dotted.size() == p.size() || dotted[p.size()] == '.' || dotted[p.size()] == '_'))
      return true;
  }
  return false;
}

}  // namespace

const char* to_string(Scenario s) {
  switch (s) {
    case Scenario::PytorchEager: return "pytorch-eager";
    case Scenario::MindSpore: return "mindspore";
    case Scenario::MSAdapter: return "msadapter";
    case Scenario::Torchair: return "torchair";
    case Scenario::Aclgraph: return "aclgraph";
    case Scenario::Verl: return "verl";
    case Scenario::VllmRunner: return "vllm-runner";
    case Scenario::VllmOffline: return "vllm-offline";
    case Scenario::Monitor: return "monitor";
  }
  return "pytorch-eager";
}

void derive_scenarios(FileFacts& f) {
  std::vector<ScenarioMarker> m;
  auto mark = [&](Scenario s, ByteRange r, uint32_t line, std::string evidence) {
    m.push_back({s, r, line, std::move(evidence)});
  };
  bool torch = false, mindspore = false, ray = false;
  const Import* verl_import = nullptr;  // the first verl import, RL or not
  for (const Import& imp : f.imports) {
    std::string full = imp.name.empty() ? imp.module : imp.module + "." + imp.name;
    std::string root = root_of(imp.module);
    if (root == "torch" || root == "torch_npu") torch = true;
    if (root == "ray") ray = true;
    if (root == "mindspore") {
      mindspore = true;
      mark(Scenario::MindSpore, imp.range, imp.line, "import " + imp.module);
    } else if (root == "msadapter" || root == "mindtorch") {
      mark(Scenario::MSAdapter, imp.range, imp.line, "import " + imp.module);
    } else if (root == "torchair") {
      mark(Scenario::Torchair, imp.range, imp.line, "import " + imp.module);
    } else if (root == "verl") {
      if (!verl_import) verl_import = &imp;
      if (is_verl_rl(full)) mark(Scenario::Verl, imp.range, imp.line, "import " + full);
    } else if (starts_with(full, "msprobe.mindspore")) {
      mindspore = true;
      mark(Scenario::MindSpore, imp.range, imp.line, "import from msprobe.mindspore");
    } else if (starts_with(full, "msprobe.pytorch.monitor") || starts_with(full, "msprobe.core.monitor") ||
               full == "msprobe.pytorch.TrainerMon" || full == "msprobe.mindspore.TrainerMon") {
      mark(Scenario::Monitor, imp.range, imp.line, "import of the TrainerMon monitor");
    } else if (full == "vllm.LLM") {
      // The offline marker is the LLM(...) call below; the import alone is weaker.
    }
  }
  for (const Call& c : f.calls) {
    // Every marker below is an imported name; most calls of a file are not.
    if (c.qualified.empty()) continue;
    // A view compares its size first: no strlen and memcmp per literal for each call.
    const std::string_view q = c.qualified;
    if (q == "torchair.get_npu_backend" ||
        (starts_with(q, "torchair.") && q.find("CompilerConfig") != std::string::npos))
      mark(Scenario::Torchair, c.range, c.line, c.qualified + "(...)");
    else if (q == "torch.npu.graph" || q == "torch.npu.NPUGraph" || q == "torch_npu.npu.graph" ||
             q == "torch.cuda.graph" || q == "torch.cuda.CUDAGraph" || q.find("AclGraphDumper") != std::string::npos)
      mark(Scenario::Aclgraph, c.range, c.line, c.qualified + "(...)");
    else if (q == "vllm.LLM") mark(Scenario::VllmOffline, c.range, c.line, "LLM(...)");
    else if (starts_with(q, "verl.") && is_verl_rl(c.qualified))
      mark(Scenario::Verl, c.range, c.line, c.qualified + "(...)");
    else if (q.find("TrainerMon") != std::string::npos || q.find("TrainerMonitorV2") != std::string::npos)
      mark(Scenario::Monitor, c.range, c.line, c.qualified + "(...)");
  }
  // A vLLM model runner: a class named like one (or deriving from one) with execute_model.
  for (std::size_t i = 0; i < f.functions.size(); ++i) {
    const Function& fn = f.functions[i];
    if (fn.name != "execute_model" || fn.class_index < 0) continue;
    const ClassDef& cls = f.classes[static_cast<std::size_t>(fn.class_index)];
    bool runner = cls.name.find("ModelRunner") != std::string::npos;
    for (const std::string& b : cls.bases) runner = runner || b.find("ModelRunner") != std::string::npos;
    if (runner) mark(Scenario::VllmRunner, fn.range, fn.line, "class " + cls.name + " with execute_model");
  }
  // verl together with Ray: a driver or a worker of verl's RL side.
  if (ray && verl_import) mark(Scenario::Verl, verl_import->range, verl_import->line, "verl used with Ray");
  // MSAdapter: PyTorch code run on MindSpore (both imported in one file).
  if (torch && mindspore) {
    for (const Import& imp : f.imports) {
      if (root_of(imp.module) == "torch") {
        mark(Scenario::MSAdapter, imp.range, imp.line, "torch imported together with mindspore");
        break;
      }
    }
  }
  std::sort(m.begin(), m.end(),
            [](const ScenarioMarker& a, const ScenarioMarker& b) { return a.range.start < b.range.start; });
  f.scenario_markers = std::move(m);

  std::vector<Scenario> s;
  for (const auto& mk : f.scenario_markers) {
    if (std::find(s.begin(), s.end(), mk.scenario) == s.end()) s.push_back(mk.scenario);
  }
  // MSAdapter runs on MindSpore: the more specific scenario is the one to name.
  if (std::find(s.begin(), s.end(), Scenario::MSAdapter) != s.end())
    s.erase(std::remove(s.begin(), s.end(), Scenario::MindSpore), s.end());
  // Scenarios the PyTorch eager dump does not cover replace pytorch-eager.
  bool exclusive = std::any_of(s.begin(), s.end(), [](Scenario x) {
    return x == Scenario::MindSpore || x == Scenario::MSAdapter || x == Scenario::Torchair || x == Scenario::Verl ||
           x == Scenario::Aclgraph || x == Scenario::VllmRunner;
  });
  if (torch && !exclusive) s.push_back(Scenario::PytorchEager);
  std::sort(s.begin(), s.end());
  f.scenarios = std::move(s);
}

}  // namespace msprobe::analysis
