// The code action of MSP306: "Generate msProbe config" at the path the
// script names, through the guided msprobe.generateConfig dialogue.
#include <filesystem>

#include "config_paths.h"
#include "language_server.h"
#include "msprobe/analysis/config/debugger_sites.h"
#include "uri.h"

namespace msprobe::server {
namespace fs = std::filesystem;

void LanguageServer::add_config_actions(const Document& doc, const json& d, json& actions) {
  if (doc.kind != DocumentKind::Python || !d.is_object() || d.value("code", json()) != "MSP306" || !d.contains("range"))
    return;
  analysis::ByteRange r = from_range(*doc.text, d["range"], encoding_);
  auto literal = analysis::config::python_string_literal(doc.text->view().substr(r.start, r.end - r.start));
  if (!literal || fs::path(*literal).extension() != ".json") return;
  std::string dir = doc.path.empty() ? "" : fs::path(doc.path).parent_path().string();
  auto candidates = config_candidates(*literal, dir, workspace_folders_);
  if (candidates.empty() || !inside_folders(candidates.front(), workspace_folders_)) return;
  std::string target = candidates.front();
  std::string shown = target;
  for (const auto& f : workspace_folders_) {
    auto rel = fs::path(target).lexically_relative(f).string();
    if (!rel.empty() && rel.rfind("..", 0) != 0) shown = rel;
  }
  json command{{"title", "Generate msProbe config"},
               {"command", "msprobe.generateConfig"},
               {"arguments", json::array({{{"uri", path_to_uri(target)}}})}};
  actions.push_back({{"title", "msProbe (MSP306): generate " + shown + " (asks task, level, rank, step, dump_path)"},
                     {"kind", "quickfix"},
                     {"diagnostics", json::array({d})},
                     {"isPreferred", true},
                     {"command", command}});
}

}  // namespace msprobe::server
