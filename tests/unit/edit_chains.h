// Shared by the unit tests: the corpus scripts, findings as text to
// compare, and random edits of a text (a cut of up to 3 bytes at a random
// place, an insertion from a list), kept on UTF-8 character boundaries.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/source.h"

namespace msprobe::test {

// Calls f(name, text) for each corpus script; returns how many.
template <class F>
std::size_t for_each_corpus_script(F&& f) {
  namespace fs = std::filesystem;
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(MSPROBE_TESTS_DIR) / "corpus" / "scripts")) {
    if (entry.path().extension() != ".py") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    ++files;
    f(entry.path().filename().string(), buf.str());
  }
  return files;
}

// One line per finding: code, byte range, message (equal texts, equal findings).
inline std::string findings_text(const std::vector<analysis::Finding>& fs) {
  std::ostringstream o;
  for (const analysis::Finding& f : fs)
    o << f.code << " " << f.range.start << "-" << f.range.end << " " << f.message << "\n";
  return o.str();
}

struct RandomEdit {
  std::size_t start = 0, end = 0;
  const char* insert = "";
};

template <std::size_t N>
RandomEdit random_edit(std::mt19937& rng, const analysis::SourceText& text, const char* const (&inserts)[N]) {
  std::size_t n = text.size();
  std::size_t start = std::uniform_int_distribution<std::size_t>(0, n)(rng);
  std::size_t len = std::uniform_int_distribution<std::size_t>(0, 3)(rng);
  const char* insert = inserts[std::uniform_int_distribution<std::size_t>(0, N - 1)(rng)];
  auto boundary = [&](std::size_t i) {
    while (i < n && (static_cast<unsigned char>(text.text()[i]) & 0xC0) == 0x80) ++i;
    return std::min(i, n);
  };
  start = boundary(start);
  return {start, boundary(std::min(n, start + len)), insert};
}

}  // namespace msprobe::test
