// The one table of msProbe config.json fields (msprobe-facts §1): name, type,
// allowed values, default, the msProbe versions that read it, the per-task
// blocks and a one-line meaning. It drives the validator, hover, completion,
// the generated config.json and `msprobe-lsp schema`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/rule.h"

namespace msprobe::analysis::config {

// The two msProbe lines whose config rules differ (msprobe-facts §0, §2.6).
enum class ConfigVersion { V8, V26 };
ConfigVersion version_of(const AnalysisOptions& options);  // 26.x unless an 8.x (or older) version is set
const char* to_string(ConfigVersion v);                    // "8.x" / "26.x"

// Bit masks of the versions that read a field, task or value.
enum : unsigned { kV8 = 1u, kV26 = 2u, kAllVersions = 3u };
inline unsigned mask_of(ConfigVersion v) { return v == ConfigVersion::V8 ? kV8 : kV26; }
inline bool in_version(unsigned mask, ConfigVersion v) { return (mask & mask_of(v)) != 0; }
std::string versions_text(unsigned mask);  // "8.x and 26.x", "26.x only", "8.x only"

enum class FieldType { String, Bool, Int, StringList, RankStepList, SliceList, NumberList };
const char* to_string(FieldType t);  // "a string", "true or false", ...

enum class IntRule { Any, Positive, PositiveOrMinusOne };

struct EnumValue {
  std::string_view name;
  std::string_view meaning;
  unsigned versions = kAllVersions;
};

struct FieldSpec {
  std::string_view block;  // "" for a top-level key, else the task whose block holds it
  std::string_view name;
  FieldType type = FieldType::String;
  unsigned versions = kAllVersions;
  std::string_view meaning;       // one line
  std::string_view details;       // more Markdown; may be empty
  std::string_view default_json;  // msProbe's default as JSON text; empty when there is none
  std::vector<EnumValue> values;  // allowed values of a String, or of each item of a StringList
  IntRule int_rule = IntRule::Any;
  std::string_view removed;  // non-empty: no longer read; when it went and what replaces it
  std::string_view ignored;  // non-empty: read by another framework only; PyTorch ignores it
  bool generated = false;    // written by the generator, with its default

  const EnumValue* value(std::string_view name) const;
};

struct TaskSpec {
  std::string_view name;
  unsigned versions = kAllVersions;
  std::string_view meaning;
  bool has_block = true;
  bool mindspore_only = false;
  std::string_view other_version;  // what the task is called / replaced by in the other line
};

const std::vector<FieldSpec>& all_fields();
const std::vector<TaskSpec>& all_tasks();
const TaskSpec* find_task(std::string_view name);
// A field of `block` ("" = top level) whatever its version; null if unknown.
const FieldSpec* find_field(std::string_view block, std::string_view name);
// The fields a version reads in `block` (removed ones excluded), in table order.
std::vector<const FieldSpec*> fields_of(std::string_view block, ConfigVersion v);
// Task names valid for PyTorch in a version, in table order.
std::vector<const TaskSpec*> tasks_of(ConfigVersion v);

// The characters msProbe accepts in dump_path (after realpath).
bool dump_path_char_ok(char c);

}  // namespace msprobe::analysis::config
