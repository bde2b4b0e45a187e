// The dump commands: msprobe.enableDump (also the code lens), disableDump and
// removeDump apply their edit through workspace/applyEdit; vllmAscendFlags
// returns the vllm-ascend launch flags for a config file.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "config_lookup.h"
#include "handlers/dump_actions.h"
#include "language_server.h"
#include "uri.h"

namespace msprobe::server {

void LanguageServer::execute_dump_command(Call& c, const std::string& command, const json& arg) {
  if (!arg.is_object() || !arg.contains("uri") || !arg["uri"].is_string())
    throw std::invalid_argument(command + " needs arguments [{\"uri\": ...}]");
  std::string uri = arg["uri"].get<std::string>();
  DumpRequest req;
  req.op = command == "msprobe.disableDump"  ? DumpOp::Disable
           : command == "msprobe.removeDump" ? DumpOp::Remove
           : arg.value("runner", false)      ? DumpOp::Runner
                                             : DumpOp::Enable;
  if (arg.contains("loopLine") && !arg["loopLine"].is_null()) {
    if (!arg["loopLine"].is_number_unsigned()) throw std::invalid_argument("loopLine must be a 0-based line number");
    req.loop_line = arg["loopLine"].get<uint32_t>();
  }
  if (arg.contains("entry") && arg["entry"].is_string()) req.entry = arg["entry"].get<std::string>();
  auto reply = c.reply;
  auto fail = c.fail;
  // Asks the client to apply `edit` (or hands it back when it cannot).
  auto apply = [this, reply, fail](json edit, const std::string& summary) {
    if (!caps_.apply_edit)
      return reply({{"applied", false},
                    {"summary", summary},
                    {"edit", edit},
                    {"message", "the client cannot apply workspace edits (workspace.applyEdit)"}});
    request(
        "workspace/applyEdit", {{"label", "msProbe: " + summary}, {"edit", edit}},
        [reply, fail, summary](const protocol::Response& resp) {
          if (!resp.ok) return fail(ErrorCode::RequestFailed, "workspace/applyEdit failed: " + resp.error.dump());
          json out{{"applied", resp.result.is_object() && resp.result.value("applied", false)}, {"summary", summary}};
          if (resp.result.is_object() && resp.result.contains("failureReason"))
            out["failureReason"] = resp.result["failureReason"];
          reply(out);
        });
  };
  std::string doc_path = documents_.count(uri) ? documents_.at(uri).path : uri_to_path(uri);
  std::error_code exists_ec;
  bool readable = documents_.count(uri) || std::filesystem::is_regular_file(doc_path, exists_ec);
  if (req.op != DumpOp::Runner && readable && settings_.index.enabled && projects_.locate(doc_path)) {
    // The project's files: the loop's and the entry's.
    std::string summary, error;
    std::vector<std::string> notes;
    std::optional<json> edit = project_dump_edit(doc_path, req, summary, notes, error);
    if (!edit) return fail(ErrorCode::RequestFailed, "msProbe: " + error);
    for (const std::string& note : notes) show_message(3, "msProbe: " + note);
    if (edit->is_null()) {
      show_message(3, "msProbe: " + summary);
      return reply({{"applied", false}, {"summary", summary}});
    }
    return apply(std::move(*edit), summary);
  }
  // Computes the edit for one text and asks the client to apply it.
  auto run = [this, reply, fail, apply, uri, req](const analysis::SourceText& src, const analysis::Analysis& a,
                                                  std::optional<int> version, const std::string& path) {
    analysis::InstrumentResult r = compute_dump_op(src, a, req, dump_config_path(path));
    if (!r.ok()) return fail(ErrorCode::RequestFailed, "msProbe: " + r.error);
    for (const std::string& note : r.notes) show_message(req.op == DumpOp::Runner ? 2 : 3, "msProbe: " + note);
    if (r.empty()) {
      show_message(3, "msProbe: " + r.summary);
      return reply({{"applied", false}, {"summary", r.summary}});
    }
    apply(to_workspace_edit(src, r.groups, edit_options(uri, version)), r.summary);
  };
  auto it = documents_.find(uri);
  if (it != documents_.end()) {
    std::string path = it->second.path;
    with_current_analysis(it->second, c, [run, path](const AnalysisSnapshot& snap) {
      run(*snap.source, snap.result, snap.version, path);
    });
    return;
  }
  // Not open: the file on disk, analysed here.
  std::string path = uri_to_path(uri);
  if (path.empty()) throw RequestError(ErrorCode::InvalidParams, "not a file URI: " + uri);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RequestError(ErrorCode::InvalidParams, "cannot read " + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  analysis::SourceText src(std::move(text));
  analysis::PythonParser parser;
  analysis::Analysis a = analysis::analyze(parser, src, settings_.analysis);
  run(src, a, std::nullopt, path);
}

void LanguageServer::vllm_ascend_flags_command(Call& c, const json& arg) {
  namespace fs = std::filesystem;
  std::string script, config;
  if (arg.is_object()) {
    if (arg.contains("uri") && arg["uri"].is_string()) script = uri_to_path(arg["uri"].get<std::string>());
    if (arg.contains("configPath") && arg["configPath"].is_string()) config = arg["configPath"].get<std::string>();
  }
  if (config.empty()) config = config_path_for(script, settings_.analysis.config_path);
  fs::path p(config);
  if (p.is_relative()) {
    fs::path base = !script.empty()               ? fs::path(script).parent_path()
                    : !workspace_folders_.empty() ? fs::path(workspace_folders_.front())
                                                  : fs::current_path();
    p = base / p;
  }
  std::string abs = p.lexically_normal().string();
  std::error_code ec;
  bool exists = fs::is_regular_file(abs, ec);
  std::string flags = analysis::vllm_ascend_flags(abs);
  show_message(3, "msProbe for vllm-ascend: no code change; start the server with " + flags +
                      (exists ? std::string() : " (that config file does not exist yet: generate it first)"));
  c.reply({{"flags", flags}, {"configPath", abs}, {"exists", exists}});
}

}  // namespace msprobe::server
