// The LSP server: lifecycle, dispatch, documents, scheduling of analysis and
// the handlers (each group in handlers/*.cpp). Runs on one io_context thread;
// analysis runs on the AnalysisWorker's threads.
#pragma once

#include <asio.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "analysis_worker.h"
#include "config_state.h"
#include "convert.h"
#include "document.h"
#include "msprobe/protocol/framing.h"
#include "msprobe/protocol/jsonrpc.h"
#include "project_index.h"
#include "settings.h"
#include "transport.h"

namespace msprobe::server {

using nlohmann::json;
using protocol::ErrorCode;

// Thrown by handlers for a bad request; becomes an error response.
struct RequestError : std::runtime_error {
  RequestError(ErrorCode c, const std::string& m) : std::runtime_error(m), code(c) {}
  ErrorCode code;
};

struct DumpOffer;
struct DumpRequest;

// The client capabilities the server uses.
struct ClientCaps {
  bool utf8 = false;
  bool pull_diagnostics = false;
  bool diagnostic_refresh = false;
  bool related_information = false;
  bool version_support = false;
  bool code_lens = false;
  bool code_lens_refresh = false;
  bool code_action_literals = false;
  bool code_action_resolve_edit = false;
  bool code_action_data = false;
  bool apply_edit = false;
  bool document_changes = false;
  bool change_annotations = false;
  bool create_files = false;
  bool configuration = false;
  bool show_message_request = false;
  bool work_done_progress = false;
  bool markdown_hover = true;
  bool did_change_watched_files_dynamic = false;
};

class LanguageServer {
 public:
  enum class State { Uninitialized, Running, ShuttingDown, Exited };

  // `analysis_threads` == 0 runs analysis only in run_pending_analysis() (fuzzer, tests).
  LanguageServer(asio::io_context& io, Transport& transport, unsigned analysis_threads = 2);
  ~LanguageServer();

  // Entry point for each frame read from the client.
  void on_frame(protocol::Frame frame);
  void on_eof(const std::string& why);
  // Watches a process id: exits when it is gone.
  void watch_parent(int pid);

  State state() const { return state_; }
  std::size_t run_pending_analysis() { return worker_.run_pending(); }
  int exit_code() const { return exit_code_; }
  // Never start the environment probe (a child process), whatever the
  // settings say: for the in-process fuzzer, which must not spawn python3 per input.
  void forbid_child_processes() { child_processes_forbidden_ = true; }

  // ----- used by handlers -----
  using ReplyFn = std::function<void(json result)>;
  struct Call {
    json id;
    json params;
    ReplyFn reply;  // answers once; later calls are ignored
    std::function<void(ErrorCode, const std::string&)> fail;
  };

 private:
  friend struct Handlers;
  using RequestHandler = void (LanguageServer::*)(Call&);
  using NotificationHandler = void (LanguageServer::*)(const json&);

  void register_handlers();
  void dispatch(protocol::Request req);
  void dispatch(protocol::Notification note);
  void on_response(protocol::Response resp);
  void send(const json& msg) { transport_.send(msg); }
  void notify(const std::string& method, json params) { send(protocol::make_notification(method, std::move(params))); }
  void request(const std::string& method, json params, std::function<void(const protocol::Response&)> on_reply);
  void show_message(int type, const std::string& message);
  void log_message(int type, const std::string& message);
  void report_setting_problems(const std::vector<std::string>& problems);
  void terminate(int code);
  void forget_canceller(const std::string& key, uint64_t cookie);
  // Workspace-edit safety (edit_guard.h): the folders edits may touch, and the
  // check applied to every result (code actions outside are dropped; any other
  // result with such an edit becomes an error, whose target is returned).
  std::vector<std::string> edit_roots() const;
  std::string guard_edits(const std::string& method, json& result) const;

  // lifecycle (handlers/lifecycle.cpp)
  void on_initialize(Call& c);
  void on_initialized(const json& params);
  void on_shutdown(Call& c);
  void on_exit(const json& params);
  void on_cancel_request(const json& params);
  void on_set_trace(const json& params);
  void on_did_change_configuration(const json& params);
  void pull_configuration();
  void apply_settings(const json& value);
  json server_capabilities() const;
  void parse_client_capabilities(const json& caps);

  // text sync (handlers/text_sync.cpp)
  void on_did_open(const json& params);
  void on_did_change(const json& params);
  void on_did_close(const json& params);
  void on_did_save(const json& params);
  Document* find_document(const json& params);  // by params.textDocument.uri
  Document& require_document(const json& params);
  void schedule_analysis(Document& doc, bool immediately, bool force = false);
  void start_job(Document& doc, bool force = false, bool quiet = false, bool project_refresh = false);
  void on_analysis_done(const SnapshotPtr& snap);
  // The preamble of every request answered from a document's analysis: calls
  // `answer` with the analysis of the document's current version once it
  // exists, or fails the request with ContentModified ("ask again") when the
  // document changes or closes first. A slim snapshot (no facts) is refreshed
  // first unless `need_facts` is false.
  void with_current_analysis(Document& doc, const Call& c, std::function<void(const AnalysisSnapshot&)> answer,
                             bool need_facts = true);
  // Drops the facts of the snapshots of the documents used least recently, so
  // memory grows with the documents being worked on, not with all open ones.
  void slim_idle_snapshots();
  void touch(Document& doc) { doc.last_used = ++use_clock_; }

  // diagnostics (handlers/diagnostics.cpp)
  json diagnostics_json(const AnalysisSnapshot& snap) const;
  // The findings shown as diagnostics (`scratch` holds the one a timed-out analysis shows).
  std::vector<const analysis::Finding*> shown_findings(const AnalysisSnapshot& snap, analysis::Finding& scratch) const;
  void publish(const AnalysisSnapshot& snap);
  void on_document_diagnostic(Call& c);
  ConvertOptions convert_options(const AnalysisSnapshot& snap) const;

  // hover, code actions, code lens, commands
  void on_hover(Call& c);
  void on_code_action(Call& c);
  void on_code_action_resolve(Call& c);
  void on_code_lens(Call& c);
  void on_execute_command(Call& c);
  json show_info() const;

  // config.json support (handlers/config_sync.cpp, config_env.cpp, config_generate.cpp,
  // config_dump.cpp, config_hover.cpp, completion.cpp)
  ConfigCheck config_check_mode(const Document& doc) const;
  void prepare_config_job(const Document& doc, AnalysisJob& job);
  void after_config_analysis(const SnapshotPtr& snap);
  void forget_config_document(const std::string& uri, DocumentKind kind, const std::string& path);
  void refresh_config_users(const std::string& config_path);
  void on_did_change_watched_files(const json& params);
  void start_config_services();
  void on_settings_replaced(const std::string& previous_python);
  void start_environment_probe(bool npu);
  void on_probe_result(const ProbeResult& r, bool npu);
  bool apply_environment();
  void generate_config(Call& c);
  void check_dump(Call& c);
  void on_completion(Call& c);
  void on_config_hover(Call& c);
  void add_config_actions(const Document& doc, const json& diagnostic, json& actions);
  json config_info() const;
  json settings_in_effect() const;
  // the project index (handlers/project.cpp)
  void start_project_index();
  void on_index_progress(const std::string& root, std::size_t done, std::size_t total);
  // Re-checks soon the open Python documents of `root` that a change of its
  // files may affect (`before`: the folder's snapshot before the change).
  // Changes that come in a burst are one refresh.
  void refresh_project_documents(const std::string& root, std::shared_ptr<const analysis::ProjectSnapshot> before);
  std::optional<analysis::ProjectInput> project_input(const Document& doc) const;
  // the dump actions of a file in an indexed project (handlers/project_actions.cpp)
  bool in_project(const std::string& path) const;
  analysis::FileReader project_reader(const std::string& root) const;
  // Plan options whose known files are the open documents' current analyses
  // (no file the editor holds is parsed again for a plan or an edit).
  analysis::ProjectPlanOptions project_plan_options(const std::string& root) const;
  std::vector<DumpOffer> project_dump_offers(const std::string& path, const analysis::SourceText& src,
                                             const analysis::Analysis& a, uint32_t sel_start, uint32_t sel_end,
                                             bool with_source, bool with_refactor) const;
  // The edit of `req` over the project's files: null when there is nothing to
  // change, nullopt with `error` when refused.
  json project_lenses(const std::string& uri, const std::string& path, const analysis::SourceText& src) const;
  bool spans_project(const DumpRequest& req, const std::string& path, const AnalysisSnapshot& snap) const;
  std::optional<json> project_dump_edit(const std::string& path, const DumpRequest& req, std::string& summary,
                                        std::vector<std::string>& notes, std::string& error) const;
  // dump-point actions and commands (handlers/code_action.cpp, handlers/commands_dump.cpp)
  EditOptions edit_options(const std::string& uri, std::optional<int> version) const;
  std::string dump_config_path(const std::string& script_path) const;
  json quick_fixes(const Document& doc, const json& diagnostics) const;
  json dump_action(const DumpOffer& offer, const std::string& uri, const std::string& path,
                   const AnalysisSnapshot& snap) const;
  void execute_dump_command(Call& c, const std::string& command, const json& arg);
  void vllm_ascend_flags_command(Call& c, const json& arg);

  asio::io_context& io_;
  Transport& transport_;
  AnalysisWorker worker_;
  State state_ = State::Uninitialized;
  bool shutdown_requested_ = false;
  int exit_code_ = 1;
  bool child_processes_forbidden_ = false;
  uint64_t use_clock_ = 0;
  // Documents in use whose latest analysis keeps its facts; the others are
  // slimmed (slim_idle_snapshots).
  static constexpr std::size_t kFullSnapshots = 4;

  ClientCaps caps_;
  analysis::Encoding encoding_ = analysis::Encoding::Utf16;
  Settings settings_;
  json init_options_;
  std::set<std::string> shown_problems_;
  std::vector<std::string> workspace_folders_;  // local paths
  std::string trace_ = "off";
  std::string client_name_;

  std::unordered_map<std::string, Document> documents_;
  std::map<std::string, RequestHandler> request_handlers_;
  std::map<std::string, NotificationHandler> notification_handlers_;
  // Requests not answered yet, by id_key and then cookie, for $/cancelRequest.
  std::map<std::string, std::map<uint64_t, std::function<void()>>> cancellable_;
  uint64_t next_cookie_ = 1;
  std::map<std::string, std::function<void(const protocol::Response&)>> outgoing_;
  long long next_outgoing_id_ = 1;
  std::unique_ptr<asio::steady_timer> parent_watch_;
  ConfigState config_{io_};
  // The workspace folders' projects (handlers/project.cpp).
  ProjectIndex projects_{io_};
  struct IndexProgress {
    std::string token;
    bool begun = false;  // the client created the token and got "begin"
    bool ended = false;  // indexing finished before it did
  };
  std::map<std::string, IndexProgress> index_progress_;  // by folder
  uint64_t progress_tokens_ = 0;
  // The changes waiting for the refresh timer, by folder. A document whose
  // last job started after a change saw it already (jobs take the index's
  // snapshot as it is when they start): job_seq_ tells.
  struct PendingRefresh {
    std::shared_ptr<const analysis::ProjectSnapshot> before;  // before the first change
    uint64_t changed_at = 0;                                  // job_seq_ at the last change
  };
  uint64_t job_seq_ = 0;  // jobs started so far
  std::map<std::string, PendingRefresh> pending_refresh_;
  std::unique_ptr<asio::steady_timer> project_refresh_;
  // Returns the heap's free memory to the system once the server has been
  // idle this long after an analysis or an index run (heap.h).
  void schedule_heap_release();
  std::unique_ptr<asio::steady_timer> heap_release_;
  static constexpr std::chrono::seconds kHeapReleaseAfter{5};
};

}  // namespace msprobe::server
