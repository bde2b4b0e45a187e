// Citation lines to links, one line at a time.
#include "doc_links.h"

#include <cctype>
#include <sstream>

#include "docs_location.h"

namespace msprobe::server {
namespace {

constexpr std::string_view kCitation = "msprobe-facts";
constexpr std::string_view kSection = "\xC2\xA7";  // §

// "§1.3" at `at` -> its length and its anchor ("s1-3"); 0 when no number follows.
std::size_t section_number(std::string_view line, std::size_t at, std::string& anchor) {
  std::size_t i = at + kSection.size();
  std::size_t start = i;
  anchor = "s";
  while (i < line.size()) {
    if (std::isdigit(static_cast<unsigned char>(line[i]))) {
      anchor += line[i++];
    } else if (line[i] == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])) &&
               i > start) {
      anchor += '-';
      ++i;
    } else {
      break;
    }
  }
  return i == start ? 0 : i - at;
}

// Every "§N.M" of the line becomes a link; "msprobe-facts" before one names the reference.
std::string link_line(std::string line, const std::string& url) {
  for (std::size_t cite; (cite = line.find(kCitation)) != std::string::npos;)
    line.replace(cite, kCitation.size(), "msProbe reference");
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    std::size_t s = line.find(kSection, i);
    if (s == std::string::npos) break;
    out += line.substr(i, s - i);
    std::string anchor;
    std::size_t n = section_number(line, s, anchor);
    if (n == 0) {
      out += kSection;
      i = s + kSection.size();
      continue;
    }
    std::string text = line.substr(s, n);
    out += url.empty() ? text : "[" + text + "](" + url + "#" + anchor + ")";
    i = s + n;
  }
  return out + line.substr(std::min(i, line.size()));
}

}  // namespace

std::string link_reference_citations(std::string_view markdown, const std::string& reference_url) {
  std::istringstream in{std::string(markdown)};
  std::string line, out;
  bool fence = false, first = true;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) fence = !fence;
    if (!fence && (line.find(kCitation) != std::string::npos || line.find(kSection) != std::string::npos))
      line = link_line(line, reference_url);
    out += (first ? "" : "\n") + line;
    first = false;
  }
  if (!markdown.empty() && markdown.back() == '\n') out += "\n";
  return out;
}

std::string reference_doc_url(const std::string& docs_base_url) {
  if (docs_base_url.empty()) return reference_doc_uri();
  std::string base = docs_base_url.substr(0, docs_base_url.find('#'));
  std::size_t slash = base.rfind('/');
  return (slash == std::string::npos ? std::string() : base.substr(0, slash + 1)) + "msprobe-reference.md";
}

}  // namespace msprobe::server
