// Lenient settings reader.
#include "settings.h"

namespace msprobe::server {
namespace {

using nlohmann::json;

const json* section(const json& v) {
  if (!v.is_object()) return nullptr;
  if (auto it = v.find("settings"); it != v.end() && it->is_object()) return section(*it);
  if (auto it = v.find("msprobe"); it != v.end() && it->is_object()) return &*it;
  return &v;
}

// Flattens {"server": {"path": x}} style nesting into "server.path" lookups.
const json* lookup(const json& s, const std::string& dotted) {
  if (auto it = s.find(dotted); it != s.end()) return &*it;
  std::size_t dot = dotted.find('.');
  if (dot == std::string::npos) return nullptr;
  auto it = s.find(dotted.substr(0, dot));
  if (it == s.end() || !it->is_object()) return nullptr;
  return lookup(*it, dotted.substr(dot + 1));
}

std::optional<analysis::Severity> parse_severity(const std::string& s) {
  if (s == "error") return analysis::Severity::Error;
  if (s == "warning") return analysis::Severity::Warning;
  if (s == "info" || s == "information") return analysis::Severity::Info;
  if (s == "hint") return analysis::Severity::Hint;
  return std::nullopt;
}

}  // namespace

Settings parse_settings(const json& value, std::vector<std::string>& problems) {
  Settings out;
  const json* s = section(value);
  if (!s) {
    if (!value.is_null()) problems.push_back("msprobe settings must be an object; using defaults");
    return out;
  }
  auto bad = [&](const std::string& key, const std::string& expected) {
    problems.push_back("setting msprobe." + key + " should be " + expected + "; using the default");
  };
  auto version = [&](const char* key, std::optional<analysis::Version>& target) {
    const json* v = lookup(*s, key);
    if (!v || v->is_null() || (v->is_string() && v->get<std::string>().empty())) return;
    if (!v->is_string()) return bad(key, "a version string such as \"2.7.1\"");
    target = analysis::Version::parse(v->get<std::string>());
    if (!target) bad(key, "a version string such as \"2.7.1\"");
  };
  version("torchVersion", out.analysis.torch_version);
  version("msprobeVersion", out.analysis.msprobe_version);

  if (const json* v = lookup(*s, "debounceMs"); v && !v->is_null()) {
    if (v->is_number_integer() && v->get<long long>() >= 0 && v->get<long long>() <= 10000)
      out.debounce_ms = v->get<int>();
    else bad("debounceMs", "an integer from 0 to 10000");
  }
  if (const json* v = lookup(*s, "probeEnvironment"); v && !v->is_null()) {
    if (v->is_boolean()) out.probe_environment = v->get<bool>();
    else bad("probeEnvironment", "true or false");
  }
  if (const json* v = lookup(*s, "parseTimeoutMs"); v && !v->is_null()) {
    if (v->is_number_integer() && v->get<long long>() >= 10 && v->get<long long>() <= 60000)
      out.parse_timeout_ms = v->get<int>();
    else bad("parseTimeoutMs", "an integer from 10 to 60000");
  }
  if (const json* v = lookup(*s, "index.enabled"); v && !v->is_null()) {
    if (v->is_boolean()) out.index.enabled = v->get<bool>();
    else bad("index.enabled", "true or false");
  }
  if (const json* v = lookup(*s, "index.maxFiles"); v && !v->is_null()) {
    if (v->is_number_integer() && v->get<long long>() >= 1 && v->get<long long>() <= 1000000)
      out.index.max_files = static_cast<std::size_t>(v->get<long long>());
    else bad("index.maxFiles", "an integer from 1 to 1000000");
  }
  // Test-only, deliberately absent from the documented settings. Up to 10
  // minutes: longer than any test waits, so a test can hold an analysis
  // "forever" and release it with a settings change.
  if (const json* v = lookup(*s, "testAnalysisDelayMs");
      v && v->is_number_integer() && v->get<long long>() >= 0 && v->get<long long>() <= 600000)
    out.test_analysis_delay_ms = v->get<int>();
  if (const json* v = lookup(*s, "showSyntaxErrors"); v && !v->is_null()) {
    if (v->is_boolean()) out.show_syntax_errors = v->get<bool>();
    else bad("showSyntaxErrors", "true or false");
  }
  // An empty string is how editors send a string setting left unset: the default.
  auto string_setting = [&](const char* key, std::string& target) {
    const json* v = lookup(*s, key);
    if (!v || v->is_null()) return;
    if (!v->is_string()) bad(key, "a string");
    else if (!v->get<std::string>().empty()) target = v->get<std::string>();
  };
  string_setting("configPath", out.analysis.config_path);
  string_setting("pythonPath", out.python_path);
  string_setting("docsBaseUrl", out.docs_base_url);

  if (const json* v = lookup(*s, "disabledRules"); v && !v->is_null()) {
    if (!v->is_array()) {
      bad("disabledRules", "a list of rule codes");
    } else {
      for (const json& c : *v) {
        if (c.is_string() && analysis::find_rule(c.get<std::string>()))
          out.analysis.disabled_rules.insert(c.get<std::string>());
        else problems.push_back("setting msprobe.disabledRules: unknown rule " + c.dump() + " ignored");
      }
    }
  }
  if (const json* v = lookup(*s, "severityOverrides"); v && !v->is_null()) {
    if (!v->is_object()) {
      bad("severityOverrides", "an object mapping rule codes to error|warning|info|hint");
    } else {
      for (auto it = v->begin(); it != v->end(); ++it) {
        auto sev = it.value().is_string() ? parse_severity(it.value().get<std::string>()) : std::nullopt;
        if (!analysis::find_rule(it.key()) || !sev)
          problems.push_back("setting msprobe.severityOverrides." + it.key() + " ignored (unknown rule or severity)");
        else out.analysis.severity_overrides[it.key()] = *sev;
      }
    }
  }
  if (const json* v = lookup(*s, "configGlobs"); v && !v->is_null()) {
    if (!v->is_array()) {
      bad("configGlobs", "a list of glob patterns");
    } else {
      for (const json& g : *v) {
        if (g.is_string()) out.config_globs.push_back(g.get<std::string>());
      }
    }
  }
  return out;
}

}  // namespace msprobe::server
