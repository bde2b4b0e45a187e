// Finding the config file next to a script.
#include "config_lookup.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace msprobe::server {
namespace fs = std::filesystem;
namespace {

bool looks_like_msprobe_config(const fs::path& p) {
  std::error_code ec;
  if (fs::file_size(p, ec) > (1u << 20) || ec) return false;
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  return j.is_object() && (j.contains("task") || j.contains("dump_path"));
}

}  // namespace

std::string config_path_for(const std::string& script_path, const std::string& configured) {
  if (!configured.empty() && configured != kDefaultConfigPath) return configured;
  if (script_path.empty()) return kDefaultConfigPath;
  std::error_code ec;
  fs::path dir = fs::path(script_path).parent_path();
  if (dir.empty()) dir = ".";
  if (fs::is_regular_file(dir / "config.json", ec)) return kDefaultConfigPath;
  std::vector<fs::path> candidates;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (std::size_t n = 0; !ec && it != end && n < 200; it.increment(ec), ++n) {
    if (it->path().extension() == ".json" && it->is_regular_file(ec)) candidates.push_back(it->path());
  }
  std::sort(candidates.begin(), candidates.end());
  for (const fs::path& p : candidates) {
    if (looks_like_msprobe_config(p)) return "./" + p.filename().string();
  }
  return kDefaultConfigPath;
}

}  // namespace msprobe::server
