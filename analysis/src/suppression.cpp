// Parses suppression comments and filters findings with them.
#include "msprobe/analysis/suppression.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <string_view>

#include "msprobe/analysis/text_match.h"

namespace msprobe::analysis {
namespace {

std::vector<std::string> split_codes(const std::string& list) {
  std::vector<std::string> codes;
  std::string cur;
  for (char c : list) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    } else if (!cur.empty()) {
      codes.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) codes.push_back(cur);
  return codes;
}

bool is_msprobe_code(const std::string& c) { return c.size() == 6 && c.rfind("MSP", 0) == 0; }

// ASCII case-insensitive substring test (`word` is lower case).
bool contains_icase(const std::string& text, std::string_view word) {
  auto it = std::search(text.begin(), text.end(), word.begin(), word.end(),
                        [](char a, char b) { return ascii_lower(a) == b; });
  return it != text.end();
}

}  // namespace

std::vector<Suppression> parse_suppressions(const FileFacts& facts) {
  std::vector<Suppression> out;
  for (const Comment& c : facts.comments) {
    // std::regex costs ~100k instructions per search and ~50M to compile
    // (on first use, so in the first file a server analyses): only comments
    // holding the literal each pattern requires reach it.
    bool may_ignore = contains_icase(c.text, "msprobe"), may_noqa = contains_icase(c.text, "noqa");
    if (!may_ignore && !may_noqa) continue;
    static const std::regex kIgnore(R"(msprobe\s*:\s*ignore(-file)?\s*\[([^\]]*)\])", std::regex::icase);
    static const std::regex kNoqa(R"(\bnoqa\b(\s*:\s*([A-Za-z]+[0-9]+(\s*,?\s*[A-Za-z]+[0-9]+)*))?)",
                                  std::regex::icase);
    std::smatch m;
    if (may_ignore && std::regex_search(c.text, m, kIgnore)) {
      Suppression s;
      s.scope = m[1].matched ? Suppression::Scope::File : Suppression::Scope::Line;
      s.line = c.line;
      s.codes = split_codes(m[2].str());
      s.comment = c.range;
      if (!s.codes.empty()) out.push_back(std::move(s));
    } else if (may_noqa && std::regex_search(c.text, m, kNoqa)) {
      Suppression s;
      s.line = c.line;
      s.from_noqa = true;
      s.comment = c.range;
      if (m[2].matched) {
        for (auto& code : split_codes(m[2].str())) {
          if (is_msprobe_code(code)) s.codes.push_back(code);
        }
        if (s.codes.empty()) continue;  // a noqa for other tools only
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

void apply_suppressions(const SourceText& source, const FileFacts& facts, const AnalysisOptions& options,
                        std::vector<Finding>& findings) {
  std::vector<Suppression> sups = parse_suppressions(facts);
  if (sups.empty()) return;
  std::vector<std::vector<bool>> used(sups.size());
  for (std::size_t i = 0; i < sups.size(); ++i) used[i].assign(std::max<std::size_t>(1, sups[i].codes.size()), false);

  auto suppressed = [&](const Finding& f) {
    if (f.code.empty()) return false;  // syntax errors cannot be suppressed
    uint32_t line = source.line_of(f.range.start);
    bool hit = false;
    for (std::size_t i = 0; i < sups.size(); ++i) {
      const Suppression& s = sups[i];
      if (s.scope == Suppression::Scope::Line && s.line != line) continue;
      if (s.codes.empty()) {
        used[i][0] = true;
        hit = true;
        continue;
      }
      for (std::size_t k = 0; k < s.codes.size(); ++k) {
        if (s.codes[k] == f.code) {
          used[i][k] = true;
          hit = true;
        }
      }
    }
    return hit;
  };
  findings.erase(std::remove_if(findings.begin(), findings.end(), suppressed), findings.end());

  if (options.disabled_rules.count("MSP001")) return;
  for (std::size_t i = 0; i < sups.size(); ++i) {
    const Suppression& s = sups[i];
    if (s.codes.empty()) continue;  // a bare noqa may serve other tools
    for (std::size_t k = 0; k < s.codes.size(); ++k) {
      if (used[i][k]) continue;
      const std::string& code = s.codes[k];
      if (options.disabled_rules.count(code)) continue;  // the rule is off: nothing to learn
      Finding f;
      f.code = "MSP001";
      f.severity = Severity::Hint;
      f.range = s.comment;
      f.tags.push_back(Tag::Unnecessary);
      f.message = find_rule(code) ? "Unused suppression: " + code + " is not reported here"
                                  : "Unknown rule code " + code + " in suppression";
      findings.push_back(std::move(f));
    }
  }
}

}  // namespace msprobe::analysis
