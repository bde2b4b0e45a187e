// Dispatch and the JSON-RPC rules of the session: what is allowed before
// initialize and after shutdown, error answers, guarded handlers, requests
// from server to client.
#include "language_server.h"

#include "edit_guard.h"
#include "heap.h"

#include <signal.h>

#include <spdlog/spdlog.h>
#include <cerrno>

namespace msprobe::server {

LanguageServer::LanguageServer(asio::io_context& io, Transport& transport, unsigned analysis_threads)
    : io_(io), transport_(transport), worker_(io, analysis_threads) {
  register_handlers();
  // The background index yields to the analyses of open documents (without
  // analysis threads, jobs wait for run_pending_analysis: nothing to yield to).
  // The environment probe (an interpreter importing torch) likewise starts
  // after the documents the editor opens with the workspace are analysed.
  if (analysis_threads > 0) {
    projects_.editor_busy = [this] { return !worker_.idle(); };
    config_.probe->editor_busy = projects_.editor_busy;
    config_.probe->start_delay = projects_.start_delay;
  }
}

LanguageServer::~LanguageServer() = default;

void LanguageServer::register_handlers() {
  request_handlers_ = {
      {"initialize", &LanguageServer::on_initialize},
      {"shutdown", &LanguageServer::on_shutdown},
      {"textDocument/diagnostic", &LanguageServer::on_document_diagnostic},
      {"textDocument/hover", &LanguageServer::on_hover},
      {"textDocument/codeAction", &LanguageServer::on_code_action},
      {"codeAction/resolve", &LanguageServer::on_code_action_resolve},
      {"textDocument/codeLens", &LanguageServer::on_code_lens},
      {"workspace/executeCommand", &LanguageServer::on_execute_command},
      {"textDocument/completion", &LanguageServer::on_completion},
  };
  notification_handlers_ = {
      {"initialized", &LanguageServer::on_initialized},
      {"exit", &LanguageServer::on_exit},
      {"$/cancelRequest", &LanguageServer::on_cancel_request},
      {"$/setTrace", &LanguageServer::on_set_trace},
      {"workspace/didChangeConfiguration", &LanguageServer::on_did_change_configuration},
      {"textDocument/didOpen", &LanguageServer::on_did_open},
      {"textDocument/didChange", &LanguageServer::on_did_change},
      {"textDocument/didClose", &LanguageServer::on_did_close},
      {"textDocument/didSave", &LanguageServer::on_did_save},
      {"workspace/didChangeWatchedFiles", &LanguageServer::on_did_change_watched_files},
  };
}

void LanguageServer::on_frame(protocol::Frame frame) {
  if (state_ == State::Exited) return;
  if (frame.kind == protocol::Frame::Kind::Error) {
    spdlog::warn("framing error: {}", frame.error);
    // The id is unknowable, so the answer carries null (JSON-RPC 2.0 §5).
    send(protocol::make_error(nullptr, ErrorCode::ParseError, "Parse error: " + frame.error));
    return;
  }
  protocol::Incoming msg = protocol::parse_message(frame.body);
  if (auto* inv = std::get_if<protocol::Invalid>(&msg)) {
    spdlog::warn("{} ({} bytes)", inv->message, frame.body.size());
    send(protocol::make_error(inv->id, inv->code, inv->message));
  } else if (auto* req = std::get_if<protocol::Request>(&msg)) {
    dispatch(std::move(*req));
  } else if (auto* note = std::get_if<protocol::Notification>(&msg)) {
    dispatch(std::move(*note));
  } else if (auto* resp = std::get_if<protocol::Response>(&msg)) {
    on_response(std::move(*resp));
  }
}

void LanguageServer::dispatch(protocol::Request req) {
  json id = req.id;
  if (state_ == State::Uninitialized && req.method != "initialize") {
    send(protocol::make_error(id, ErrorCode::ServerNotInitialized, "Server not initialized: send 'initialize' first"));
    return;
  }
  if (state_ == State::ShuttingDown) {
    send(protocol::make_error(id, ErrorCode::InvalidRequest, "Server is shutting down: only 'exit' is accepted"));
    return;
  }
  if (state_ == State::Running && req.method == "initialize") {
    send(protocol::make_error(id, ErrorCode::InvalidRequest, "Server is already initialized"));
    return;
  }
  auto it = request_handlers_.find(req.method);
  if (it == request_handlers_.end()) {
    send(protocol::make_error(id, ErrorCode::MethodNotFound, "Method not found: " + req.method));
    return;
  }
  auto answered = std::make_shared<bool>(false);
  std::string key = protocol::id_key(id);
  // The cookie tells apart requests that (wrongly) share an id: each answer
  // forgets only its own canceller, and $/cancelRequest cancels all of them.
  uint64_t cookie = next_cookie_++;
  Call call;
  call.id = id;
  call.params = std::move(req.params);
  call.reply = [this, id, answered, key, cookie, method = req.method](json result) {
    if (*answered) return;
    *answered = true;
    forget_canceller(key, cookie);
    std::string refused = guard_edits(method, result);
    if (!refused.empty()) {
      send(protocol::make_error(id, ErrorCode::RequestFailed,
                                "msprobe-lsp refuses to edit " + refused + ": it is outside the workspace folders"));
      return;
    }
    send(protocol::make_result(id, std::move(result)));
  };
  call.fail = [this, id, answered, key, cookie](ErrorCode code, const std::string& message) {
    if (*answered) return;
    *answered = true;
    forget_canceller(key, cookie);
    send(protocol::make_error(id, code, message));
  };
  // Until it is answered, any request can be cancelled: the answer is then
  // -32800 and whatever the handler replies later is dropped.
  cancellable_[key][cookie] = [fail = call.fail] { fail(ErrorCode::RequestCancelled, "Request cancelled"); };
  try {
    (this->*(it->second))(call);
  } catch (const RequestError& e) {
    call.fail(e.code, e.what());
  } catch (const json::exception& e) {
    call.fail(ErrorCode::InvalidParams, std::string("Invalid params: ") + e.what());
  } catch (const std::invalid_argument& e) {
    call.fail(ErrorCode::InvalidParams, std::string("Invalid params: ") + e.what());
  } catch (const std::exception& e) {
    spdlog::error("handler {} failed: {}", req.method, e.what());
    call.fail(ErrorCode::InternalError, std::string("Internal error in ") + req.method + ": " + e.what());
  }
}

void LanguageServer::dispatch(protocol::Notification note) {
  if (note.method == "exit") {
    on_exit(note.params);
    return;
  }
  if (state_ == State::Uninitialized || state_ == State::ShuttingDown) {
    spdlog::debug("dropping notification {} (state does not allow it)", note.method);
    return;
  }
  auto it = notification_handlers_.find(note.method);
  if (it == notification_handlers_.end()) {
    if (note.method.rfind("$/", 0) != 0) spdlog::info("ignoring unknown notification {}", note.method);
    return;
  }
  try {
    (this->*(it->second))(note.params);
  } catch (const std::exception& e) {
    // A notification has no answer; tell the user through the log.
    spdlog::error("notification {} failed: {}", note.method, e.what());
    log_message(1, "msprobe-lsp: " + note.method + " failed: " + e.what());
  }
}

void LanguageServer::forget_canceller(const std::string& key, uint64_t cookie) {
  auto it = cancellable_.find(key);
  if (it == cancellable_.end()) return;
  it->second.erase(cookie);
  if (it->second.empty()) cancellable_.erase(it);
}

void LanguageServer::on_response(protocol::Response resp) {
  auto it = outgoing_.find(protocol::id_key(resp.id));
  if (it == outgoing_.end()) {
    spdlog::warn("response to unknown request id {}", resp.id.dump());
    return;
  }
  auto cb = std::move(it->second);
  outgoing_.erase(it);
  try {
    cb(resp);
  } catch (const std::exception& e) {
    spdlog::error("handling the client's response failed: {}", e.what());
  }
}

std::vector<std::string> LanguageServer::edit_roots() const {
  if (!workspace_folders_.empty()) return workspace_folders_;
  // No workspace folder (a single file opened on its own): the folders of
  // the open documents stand in for it.
  std::vector<std::string> roots;
  for (const auto& [uri, doc] : documents_) {
    std::size_t slash = doc.path.rfind('/');
    if (!doc.path.empty() && slash != std::string::npos) roots.push_back(slash == 0 ? "/" : doc.path.substr(0, slash));
  }
  return roots;
}

std::string LanguageServer::guard_edits(const std::string& method, json& result) const {
  if (!result.is_object() && !result.is_array()) return {};
  std::vector<std::string> roots = edit_roots();
  if (method == "textDocument/codeAction") {
    for (const auto& uri : drop_actions_outside(result, roots))
      spdlog::warn("dropped a code action that would edit {} (outside the workspace)", uri);
    return {};
  }
  std::string bad = first_outside_target(result, roots);
  if (!bad.empty()) spdlog::error("{}: refusing a workspace edit of {} (outside the workspace)", method, bad);
  return bad;
}

void LanguageServer::request(const std::string& method, json params,
                             std::function<void(const protocol::Response&)> on_reply) {
  if (method == "workspace/applyEdit") {
    std::string bad = first_outside_target(params, edit_roots());
    if (!bad.empty()) {
      spdlog::error("refusing to send workspace/applyEdit for {} (outside the workspace)", bad);
      protocol::Response refused{
          nullptr,
          nullptr,
          {{"code", static_cast<int>(ErrorCode::RequestFailed)},
           {"message", "msprobe-lsp refuses to edit " + bad + ": it is outside the workspace folders"}},
          false};
      asio::post(io_, [on_reply = std::move(on_reply), refused] { on_reply(refused); });
      return;
    }
  }
  json id = "msprobe-" + std::to_string(next_outgoing_id_++);
  outgoing_[protocol::id_key(id)] = std::move(on_reply);
  send(protocol::make_request(id, method, std::move(params)));
}

void LanguageServer::show_message(int type, const std::string& message) {
  notify("window/showMessage", {{"type", type}, {"message", message}});
}

void LanguageServer::log_message(int type, const std::string& message) {
  notify("window/logMessage", {{"type", type}, {"message", message}});
}

void LanguageServer::report_setting_problems(const std::vector<std::string>& problems) {
  for (const auto& p : problems) {
    spdlog::warn("{}", p);
    if (shown_problems_.insert(p).second) show_message(2, "msprobe-lsp: " + p);
  }
}

void LanguageServer::terminate(int code) {
  if (state_ == State::Exited) return;
  state_ = State::Exited;
  exit_code_ = code;
  io_.stop();
}

void LanguageServer::on_eof(const std::string& why) {
  if (state_ == State::Exited) return;
  spdlog::info("client closed the connection: {}", why);
  terminate(shutdown_requested_ ? 0 : 1);
}

void LanguageServer::watch_parent(int pid) {
  if (pid <= 0) return;
  if (!parent_watch_) parent_watch_ = std::make_unique<asio::steady_timer>(io_);
  parent_watch_->expires_after(std::chrono::seconds(1));
  parent_watch_->async_wait([this, pid](std::error_code ec) {
    if (ec || state_ == State::Exited) return;
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      spdlog::warn("client process {} is gone; exiting", pid);
      terminate(1);
      return;
    }
    watch_parent(pid);
  });
}

void LanguageServer::schedule_heap_release() {
  if (!heap_release_) heap_release_ = std::make_unique<asio::steady_timer>(io_);
  heap_release_->expires_after(kHeapReleaseAfter);  // a newer call cancels the wait
  heap_release_->async_wait([this](std::error_code ec) {
    if (ec || state_ == State::Exited) return;
    if (!worker_.idle()) {  // still working: look again later
      schedule_heap_release();
      return;
    }
    std::size_t before = resident_bytes();
    release_free_memory();
    std::size_t after = resident_bytes();
    spdlog::debug("idle: returned free heap memory to the system, resident {:.1f} -> {:.1f} MB",
                  static_cast<double>(before) / (1 << 20), static_cast<double>(after) / (1 << 20));
  });
}

}  // namespace msprobe::server
