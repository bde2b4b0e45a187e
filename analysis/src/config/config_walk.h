// The shared walk over a config.json that the config rules (MSP300-MSP309)
// read: the file is parsed once, every member of the top level and of the
// selected task's block is classified against the field table for the target
// msProbe version, and the task and level msProbe will run with are worked
// out. Each rule then reports from this view in its own file, the way the
// Python rules read FileFacts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/config/config_schema.h"
#include "msprobe/analysis/config/json_doc.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis::config {

// What one object member is to msProbe.
enum class MemberRole {
  Repeated,       // a later member has the same key: Python's json keeps the last one
  Field,          // a field the target version reads
  Removed,        // a field msProbe no longer reads (FieldSpec::removed)
  OtherVersion,   // a field only the other msProbe line reads
  Ignored,        // a field another framework reads; the PyTorch dump ignores it
  Block,          // the selected task's block
  IgnoredBlock,   // a task's block that is not read (another task, another version)
  BlocklessTask,  // a task name whose task has no block at all
  Unknown,        // a key the table does not know (or a top-level field inside a block)
};

struct MemberRef {
  const JsonValue* object = nullptr;  // the object holding the member
  std::size_t index = 0;
  std::string_view block;  // "" at the top level, else the task whose block holds it
  MemberRole role = MemberRole::Unknown;
  const FieldSpec* field = nullptr;  // Field, Removed, OtherVersion, Ignored
  const TaskSpec* task = nullptr;    // Block, IgnoredBlock, BlocklessTask

  const JsonMember& member() const { return object->members[index]; }
  const std::string& key() const { return member().key; }
  const JsonValue& value() const { return member().value; }
  bool top_level() const { return block.empty(); }
};

// The task and level msProbe runs with: the file's values, or msProbe's
// defaults (statistics, L1) where they are absent, empty or (level) null --
// both 8.3.3 and 26.0 were seen to run such files as statistics / L1.
struct RunSettings {
  std::string task, level;
  const JsonMember* task_member = nullptr;
  const JsonMember* level_member = nullptr;
  ByteRange task_at, level_at;       // where findings about them go
  const JsonValue* block = nullptr;  // the task's block, when it is an object

  const JsonMember* block_member(std::string_view key) const { return block ? block->member(key) : nullptr; }
};

class ConfigContext {
 public:
  ConfigContext(std::string_view text, const AnalysisOptions& options);
  ConfigContext(const ConfigContext&) = delete;
  ConfigContext& operator=(const ConfigContext&) = delete;

  std::string_view text;
  const AnalysisOptions& options;
  ConfigVersion version;
  JsonDoc doc;
  // The root is an object, so the members below exist.
  bool object_root = false;
  // No syntax error: rules about the file as a whole (a missing dump_path,
  // cross-field rules) may run; a file cut short would give false alarms.
  bool complete = false;
  // Members of the root and, when it is an object, of the selected task's
  // block, in source order (the block's after the root's).
  std::vector<MemberRef> members;
  // The task whose block is read: the file's task, or statistics when it is absent or "".
  std::string selected_task = "statistics";
  // Set when the file is complete and its task and level are ones msProbe knows.
  std::optional<RunSettings> effective;

  // " (target msProbe 26.x; set msprobe.msprobeVersion otherwise)" when the
  // version was not given, so a version-dependent verdict says what it assumed.
  std::string version_hint() const;
  // The 1-based line of a byte offset.
  uint32_t line_of(uint32_t offset) const;
};

// True for a value msProbe replaces by its default: "" (task and level) and
// null (`null_too`: level).
bool falls_back_to_default(const JsonValue& v, bool null_too);

// ----- helpers the config rules share -----

std::string quoted(std::string_view s);  // "\"" + s + "\""
std::string join(const std::vector<std::string>& items, const char* sep = ", ");
// The closest candidate when it is close enough to be a likely typo, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);
Finding make_finding(const char* code, Severity severity, ByteRange range, std::string message,
                     std::vector<Fix> fixes = {}, std::vector<Tag> tags = {});
Fix replace_fix(std::string title, ByteRange range, std::string text, bool preferred = true);
// Deletes member `index` of `object` together with one neighbouring comma.
Fix delete_member_fix(const JsonValue& object, std::size_t index, std::string title);

}  // namespace msprobe::analysis::config
