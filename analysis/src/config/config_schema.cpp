// The config.json field table. Facts: msprobe-facts §1.1 (top level), §1.2
// (per-task blocks), §2.6 (what changed between 8.x and 26.x).
#include "msprobe/analysis/config/config_schema.h"

namespace msprobe::analysis::config {
namespace {

using T = FieldType;

const std::vector<EnumValue> kDataModes = {
    {"all", "forward and backward, inputs and outputs (must be the only entry)"},
    {"forward", "forward passes only"},
    {"backward", "backward passes only"},
    {"input", "inputs only"},
    {"output", "outputs only"},
};

const std::vector<EnumValue> kSummaryModes = {
    {"statistics", "max, min, mean and norm of every tensor"},
    {"md5", "a CRC-32 checksum per tensor (stored in a field named md5), for bitwise comparison"},
    {"xor", "an XOR checksum only, no statistics; fastest when msProbe is built with --include-mod=xor_checksum", kV26},
};

FieldSpec list_field(std::string_view block, std::string_view name, unsigned versions, std::string_view meaning,
                     std::string_view details, bool generated = true) {
  FieldSpec f;
  f.block = block;
  f.name = name;
  f.type = T::StringList;
  f.versions = versions;
  f.meaning = meaning;
  f.details = details;
  f.default_json = "[]";
  f.generated = generated;
  return f;
}

constexpr std::string_view kScopeDetails =
    "Exactly two full names that open and close the dump interval. They follow the level's naming: L0 uses "
    "module names (`Module.conv1.Conv2d.forward.0`), L1 API names (`Tensor.add.0.forward`), mix either. "
    "Must stay empty at level L2.";
constexpr std::string_view kListDetails =
    "Full API names (`Tensor.permute.1.forward`) or substrings (`relu`) to dump; with mix also module names. "
    "At level L2 exactly one API name is required.";
constexpr std::string_view kTensorListDetails =
    "APIs or modules whose real tensors are saved as well. Works with L0, L1 and mix; ignored at level debug.";
constexpr std::string_view kSliceDetails =
    "Objects with integer keys `dim` (>= 0, default 0), `size` (>= 0: applies only when that dimension has "
    "this length), `begin` (inclusive, default 0) and `end` (exclusive, may be negative). Only with tasks "
    "statistics/tensor at levels L0, L1 and mix.";

void add_dump_block(std::vector<FieldSpec>& v, std::string_view block, unsigned versions) {
  v.push_back(
      list_field(block, "scope", versions, "two names that bound the dumped interval; [] = everything", kScopeDetails));
  v.push_back(list_field(block, "list", versions, "the APIs or modules to dump; [] = all", kListDetails));
  FieldSpec dm = list_field(block, "data_mode", versions, "which directions and sides of each call to dump",
                            "At most 4 entries; `all` must appear alone.");
  dm.values = kDataModes;
  dm.default_json = "[\"all\"]";
  v.push_back(dm);
}

void add_slice_fields(std::vector<FieldSpec>& v, std::string_view block) {
  FieldSpec s;
  s.block = block;
  s.name = "slice";
  s.type = T::SliceList;
  s.versions = kV26;
  s.meaning = "keep only a slice of each tensor";
  s.details = kSliceDetails;
  s.default_json = "[]";
  v.push_back(s);
  FieldSpec r;
  r.block = block;
  r.name = "request_id";
  r.type = T::String;
  r.versions = kV26;
  r.meaning = "slice dimension 0 down to one inference request (takes priority over slice)";
  r.details = "Needs `start(scheduled_tokens={...})` in the runner. For vLLM the value is `chatcmpl-<X-Request-ID>`.";
  v.push_back(r);
}

FieldSpec summary_mode(std::string_view block, bool generated) {
  FieldSpec f;
  f.block = block;
  f.name = "summary_mode";
  f.meaning = "what is recorded for each tensor";
  f.default_json = "\"statistics\"";
  f.values = kSummaryModes;
  f.generated = generated;
  return f;
}

std::vector<FieldSpec> build_fields() {
  std::vector<FieldSpec> v;
  auto top = [&](std::string_view name, T type, unsigned versions, std::string_view meaning,
                 std::string_view default_json, std::vector<EnumValue> values = {}, bool generated = false) {
    FieldSpec f;
    f.name = name;
    f.type = type;
    f.versions = versions;
    f.meaning = meaning;
    f.default_json = default_json;
    f.values = std::move(values);
    f.generated = generated;
    v.push_back(std::move(f));
    return &v.back();
  };

  std::vector<EnumValue> tasks;
  for (const TaskSpec& t : all_tasks()) tasks.push_back({t.name, t.meaning, t.versions});
  top("task", T::String, kAllVersions, "what to collect", "\"statistics\"", tasks, true)->details =
      "Only the block named after the task is read; blocks of other tasks are ignored.";
  top("dump_path", T::String, kAllVersions, "directory the dump is written to (required here or in the constructor)",
      "\"./dump_path\"", {}, true)
      ->details =
      "Letters, digits, `_`, `.`, `:`, `/` and `-` only (checked after the path is made absolute, so the working "
      "directory counts too). An absolute path is recommended. Reusing a directory overwrites the earlier results.";
  top("rank", T::RankStepList, kAllVersions, "ranks to dump; [] = all ranks (a single-card run must use [])", "[]", {},
      true)
      ->details =
      "Integers 0..1000000, `\"N\"` or `\"A-B\"` (inclusive). A rank that is not in the job gives an empty dump; "
      "without torch.distributed any non-empty rank matches nothing.";
  top("step", T::RankStepList, kAllVersions, "steps to dump; [] = all steps", "[]", {}, true)->details =
      "Same syntax as `rank`. Steps are counted by `debugger.step()` from 0; once the current step passes the "
      "largest one listed, dumping stops for good.";
  top("level", T::String, kAllVersions, "granularity of the dump", "\"L1\"",
      {{"L0", "module level: inputs and outputs of nn.Module calls (needs start(model))"},
       {"L1", "API level: torch / Tensor / functional calls"},
       {"L2", "kernel level (NPU only, task tensor, exactly one API in list)"},
       {"mix", "L0 and L1 together (needs start(model)); what compare and visualisation want"},
       {"debug", "single-point save(): only what debugger.save() is given"}},
      true);
  top("async_dump", T::Bool, kAllVersions, "write the dump asynchronously", "false", {}, true)->details =
      "May cause OOM. Only for tasks statistics/tensor at levels L0, L1, mix and debug; a tensor task then needs a "
      "non-empty list, and summary_mode md5 is not allowed.";
  top("extra_info", T::Bool, kV26, "also write stack.json and construct.json", "true", {}, true);
  top("precision", T::String, kAllVersions, "precision of the statistics", "\"low\"",
      {{"low", "statistics in the tensor's own dtype"},
       {"high", "statistics in float32 (more device memory, possible OOM)"}});
  top("dump_enable", T::Bool, kV26, "switch dumping on and off at run time by editing the file", "")->details =
      "When present, start/stop/step re-read the file (every 0.5 s while enabled, 3 s while disabled). "
      "Start with `false`.";
  top("risk_level", T::String, kV26, "which APIs level L1/mix hooks", "\"FOCUS\"",
      {{"ALL", "every API"},
       {"CORE", "the core APIs"},
       {"FOCUS", "skips low-risk shape ops (reshape, transpose, permute, view, to ...)"}});
  top("custom_op_namespaces", T::StringList, kV26, "torch.ops namespaces whose ops are wrapped too", "[\"_C_ascend\"]");
  top("enable_dataloader", T::Bool, kV8, "start/stop automatically around a DataLoader (deprecated)", "false")
      ->details = "Single card only; the run ends by raising `msprobe: exit after iteration N`. 26.x ignores it.";
  FieldSpec* seed = top("seed", T::Int, kAllVersions, "random seed (removed)", "");
  seed->removed = "removed in September 2024 (msProbe 1.0.x was the last to read it); call seed_all() instead";
  FieldSpec* det = top("is_deterministic", T::Bool, kAllVersions, "deterministic mode (removed)", "");
  det->removed = "removed in September 2024 (msProbe 1.0.x was the last to read it); call seed_all(mode=True) instead";

  // statistics
  add_dump_block(v, "statistics", kAllVersions);
  v.push_back(list_field("statistics", "tensor_list", kV26, "APIs or modules whose real tensors are saved too",
                         kTensorListDetails, false));
  v.push_back(summary_mode("statistics", true));
  add_slice_fields(v, "statistics");
  FieldSpec device;
  device.block = "statistics";
  device.name = "device";
  device.meaning = "where statistics are computed (MindSpore static graph)";
  device.values = {{"host", "on the host"}, {"device", "on the device"}};
  device.ignored = "MindSpore static graph only";
  v.push_back(device);

  // tensor
  add_dump_block(v, "tensor", kAllVersions);
  v.push_back(summary_mode("tensor", false));
  FieldSpec bench;
  bench.block = "tensor";
  bench.name = "bench_path";
  bench.versions = kV26;
  bench.meaning = "an earlier md5 dump to compare against while dumping";
  bench.details = "Needs `summary_mode: \"md5\"` in both runs.";
  v.push_back(bench);
  FieldSpec diff;
  diff.block = "tensor";
  diff.name = "diff_nums";
  diff.type = T::Int;
  diff.versions = kV26;
  diff.meaning = "how many differences to report against bench_path; -1 = all";
  diff.default_json = "1";
  diff.int_rule = IntRule::PositiveOrMinusOne;
  v.push_back(diff);
  add_slice_fields(v, "tensor");
  FieldSpec ff;
  ff.block = "tensor";
  ff.name = "file_format";
  ff.meaning = "file format of kernel dumps";
  ff.values = {{"npy", "NumPy files"}, {"bin", "raw binary"}};
  ff.ignored = "MindSpore static-graph L2 only";
  v.push_back(ff);
  FieldSpec bi = list_field("tensor", "backward_input", kAllVersions, "old L2 backward option (removed)", "", false);
  bi.removed = "removed in December 2024; it is ignored now";
  v.push_back(bi);

  // acc_check (26.x) and run_ut (8.x)
  for (std::string_view block : {std::string_view("acc_check"), std::string_view("run_ut")}) {
    unsigned ver = block == "acc_check" ? kV26 : kV8;
    v.push_back(
        list_field(block, "white_list", ver, "APIs to check; [] = all", "Every item must be a wrapped API name."));
    v.push_back(list_field(block, "black_list", ver, "APIs to skip", "Every item must be a wrapped API name."));
    FieldSpec edp;
    edp.block = block;
    edp.name = "error_data_path";
    edp.versions = ver;
    edp.meaning = "directory for the data of failing APIs (must exist)";
    edp.default_json = "\"./\"";
    edp.generated = true;
    v.push_back(edp);
  }

  // nan_check (26.x)
  add_dump_block(v, "nan_check", kV26);
  v.push_back(list_field("nan_check", "tensor_list", kV26,
                         "APIs (case-insensitive substrings) whose NaN triggers a detailed dump into extra-info/", ""));

  // diff_check (26.x, undocumented)
  FieldSpec dn = diff;
  dn.block = "diff_check";
  dn.meaning = "how many differences to report; -1 = all";
  dn.generated = true;
  v.push_back(dn);

  // overflow_check (8.x)
  FieldSpec on;
  on.block = "overflow_check";
  on.name = "overflow_nums";
  on.type = T::Int;
  on.versions = kV8;
  on.meaning = "how many overflows to dump before stopping; -1 = all";
  on.default_json = "1";
  on.int_rule = IntRule::PositiveOrMinusOne;
  on.generated = true;
  v.push_back(on);
  FieldSpec cm;
  cm.block = "overflow_check";
  cm.name = "check_mode";
  cm.versions = kV8;
  cm.meaning = "which overflows to detect";
  cm.default_json = "\"all\"";
  cm.values = {{"all", "every kind"}, {"aicore", "AI Core overflows"}, {"atomic", "atomic overflows"}};
  cm.ignored = "MindSpore < 2.3 static graph only";
  cm.generated = true;
  v.push_back(cm);

  // free_benchmark (8.x)
  v.push_back(list_field("free_benchmark", "scope", kV8, "two names bounding the checked interval (not with list)",
                         kScopeDetails));
  v.push_back(list_field("free_benchmark", "list", kV8, "APIs to check (not with scope)",
                         "A backward fuzz_stage needs a non-empty list."));
  auto fb = [&](std::string_view name, T type, std::string_view meaning, std::string_view def,
                std::vector<EnumValue> values = {}, IntRule rule = IntRule::Any) {
    FieldSpec f;
    f.block = "free_benchmark";
    f.name = name;
    f.type = type;
    f.versions = kV8;
    f.meaning = meaning;
    f.default_json = def;
    f.values = std::move(values);
    f.int_rule = rule;
    f.generated = true;
    v.push_back(std::move(f));
  };
  fb("fuzz_device", T::String, "where the perturbed call runs", "\"npu\"",
     {{"npu", "on the NPU"}, {"cpu", "on the CPU (needs pert_mode to_cpu)"}});
  fb("pert_mode", T::String, "how inputs are perturbed", "\"improve_precision\"",
     {{"improve_precision", "compute in higher precision"},
      {"add_noise", "add small noise"},
      {"no_change", "no perturbation"},
      {"bit_noise", "flip low bits"},
      {"change_value", "swap values"},
      {"to_cpu", "recompute on the CPU (needs fuzz_device cpu)"}});
  fb("handler_type", T::String, "what to do with a difference", "\"check\"",
     {{"check", "report it"}, {"fix", "replace the output (forward stage, no preheat, improve_precision or to_cpu)"}});
  fb("fuzz_level", T::String, "level of the check", "\"L1\"", {{"L1", "API level (the only one)"}});
  fb("fuzz_stage", T::String, "which pass is perturbed", "\"forward\"",
     {{"forward", "the forward pass"}, {"backward", "the backward pass (needs a list and handler_type check)"}});
  fb("if_preheat", T::Bool, "warm up before sampling", "false");
  fb("preheat_step", T::Int, "warm-up steps", "15", {}, IntRule::Positive);
  fb("max_sample", T::Int, "samples per API during warm-up", "20", {}, IntRule::Positive);

  // grad_probe (8.x)
  FieldSpec gl;
  gl.block = "grad_probe";
  gl.name = "grad_level";
  gl.versions = kV8;
  gl.meaning = "detail of the gradient statistics";
  gl.default_json = "\"L1\"";
  gl.values = {{"L0", "per-parameter norms"}, {"L1", "plus distribution in bounds"}, {"L2", "plus direction data"}};
  gl.generated = true;
  v.push_back(gl);
  v.push_back(list_field("grad_probe", "param_list", kV8, "parameters to watch; [] = all", ""));
  FieldSpec bounds;
  bounds.block = "grad_probe";
  bounds.name = "bounds";
  bounds.type = T::NumberList;
  bounds.versions = kV8;
  bounds.meaning = "ascending bucket bounds of the gradient distribution";
  bounds.default_json = "[-1, 0, 1]";
  bounds.generated = true;
  v.push_back(bounds);
  return v;
}

}  // namespace

ConfigVersion version_of(const AnalysisOptions& options) {
  return options.msprobe_is_8x() ? ConfigVersion::V8 : ConfigVersion::V26;
}

const char* to_string(ConfigVersion v) { return v == ConfigVersion::V8 ? "8.x" : "26.x"; }

std::string versions_text(unsigned mask) {
  if ((mask & kAllVersions) == kAllVersions) return "8.x and 26.x";
  if (mask & kV26) return "26.x only";
  if (mask & kV8) return "8.x only";
  return "no current version";
}

const char* to_string(FieldType t) {
  switch (t) {
    case FieldType::String: return "a string";
    case FieldType::Bool: return "true or false";
    case FieldType::Int: return "an integer";
    case FieldType::StringList: return "a list of strings";
    case FieldType::RankStepList: return "a list of integers, \"N\" or \"A-B\" strings";
    case FieldType::SliceList: return "a list of {dim, size, begin, end} objects";
    case FieldType::NumberList: return "a list of numbers";
  }
  return "a value";
}

const EnumValue* FieldSpec::value(std::string_view n) const {
  for (const EnumValue& e : values) {
    if (e.name == n) return &e;
  }
  return nullptr;
}

const std::vector<TaskSpec>& all_tasks() {
  static const std::vector<TaskSpec> tasks = {
      {"statistics", kAllVersions, "statistics (max/min/mean/norm) of every API or module: light, the usual start",
       true, false, ""},
      {"tensor", kAllVersions, "the real tensors, saved as .pt files: heavy, narrow it with list/scope/step", true,
       false, ""},
      {"structure", kAllVersions, "only the model structure and call stacks (level L0 or mix)", false, false, ""},
      {"nan_check", kV26, "NaN/Inf detection on Ascend NPU (level L1; needs a source build of msProbe)", true, false,
       "8.x used overflow_check"},
      {"acc_check", kV26, "accuracy pre-check of single APIs (not for collecting dumps)", true, false,
       "called run_ut in 8.x"},
      {"diff_check", kV26, "live difference check (undocumented)", true, false, ""},
      {"overflow_check", kV8, "overflow detection (level L0 or L1)", true, false,
       "26.x has no such task: use nan_check, or the `msprobe overflow_check` command on a dump"},
      {"free_benchmark", kV8, "perturbation-based accuracy check without a benchmark (level L1)", true, false,
       "26.x has no such task"},
      {"run_ut", kV8, "accuracy pre-check of single APIs", true, false, "26.x calls it acc_check"},
      {"grad_probe", kV8, "gradient monitoring", true, false, "26.x has no such task"},
      {"exception_dump", kAllVersions, "dump around an exception (MindSpore only)", false, true, ""},
  };
  return tasks;
}

const std::vector<FieldSpec>& all_fields() {
  static const std::vector<FieldSpec> fields = build_fields();
  return fields;
}

const TaskSpec* find_task(std::string_view name) {
  for (const TaskSpec& t : all_tasks()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const FieldSpec* find_field(std::string_view block, std::string_view name) {
  for (const FieldSpec& f : all_fields()) {
    if (f.block == block && f.name == name) return &f;
  }
  return nullptr;
}

std::vector<const FieldSpec*> fields_of(std::string_view block, ConfigVersion v) {
  std::vector<const FieldSpec*> out;
  for (const FieldSpec& f : all_fields()) {
    if (f.block == block && f.removed.empty() && in_version(f.versions, v)) out.push_back(&f);
  }
  return out;
}

std::vector<const TaskSpec*> tasks_of(ConfigVersion v) {
  std::vector<const TaskSpec*> out;
  for (const TaskSpec& t : all_tasks()) {
    if (!t.mindspore_only && in_version(t.versions, v)) out.push_back(&t);
  }
  return out;
}

bool dump_path_char_ok(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == ':' || c == '/' || c == '-';
}

}  // namespace msprobe::analysis::config
