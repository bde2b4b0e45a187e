// Golden files: the expected outputs checked in next to the data-driven
// tests' fixtures. MSPROBE_UPDATE_EXPECT=1 (that value only) is the update
// mode: a harness rewrites the expected files whose content differs from what
// the code produces now, then fails with "rewrote N files: review the diff",
// as insta and expect-test do, so an update never passes unreviewed.
// tests/golden.py is the same for the Python harnesses.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace golden {

inline bool update_mode() {
  const char* v = std::getenv("MSPROBE_UPDATE_EXPECT");
  return v != nullptr && std::string(v) == "1";
}

inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `content` to `path` unless it holds exactly that already; true when it wrote.
inline bool write_if_changed(const std::filesystem::path& path, const std::string& content) {
  if (std::filesystem::exists(path) && read(path) == content) return false;
  std::ofstream(path, std::ios::binary) << content;
  return true;
}

// Removes `path` if it exists; true when it did.
inline bool remove_if_present(const std::filesystem::path& path) { return std::filesystem::remove(path); }

// Fails the running test when the update mode rewrote files.
inline void report(std::size_t rewritten) {
  if (rewritten > 0) FAIL_CHECK("rewrote " << rewritten << " files: review the diff");
}

}  // namespace golden
