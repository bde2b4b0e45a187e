// Editor help inside a config.json: the hover text of every key and enum
// value, and completion of keys and values, both from the field table.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/config/config_schema.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis::config {

struct ConfigHover {
  ByteRange range;
  std::string markdown;
};

std::optional<ConfigHover> config_hover(std::string_view text, std::size_t offset, const AnalysisOptions& options);

struct ConfigCompletion {
  enum class Kind { Key, Value, Block };
  Kind kind = Kind::Key;
  std::string label;
  std::string insert;  // replaces `replace`
  ByteRange replace;
  std::string filter;         // text the client matches against what was typed
  std::string detail;         // one line
  std::string documentation;  // Markdown
  bool preselect = false;     // msProbe's default / the recommended value
  std::string sort;
};

std::vector<ConfigCompletion> config_completions(std::string_view text, std::size_t offset,
                                                 const AnalysisOptions& options);

// Markdown descriptions, shared by hover, completion and the schema.
std::string field_markdown(const FieldSpec& f, ConfigVersion target);
std::string value_markdown(const FieldSpec& f, const EnumValue& v, ConfigVersion target);
std::string task_markdown(const TaskSpec& t, ConfigVersion target);

}  // namespace msprobe::analysis::config
