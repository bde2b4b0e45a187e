// The project index in the server: started after `initialized` (and again
// when its settings change), progress as `$/progress` when the client takes
// it, and the re-check of open documents when another file of their project
// changes what they depend on.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "language_server.h"

namespace msprobe::server {

std::optional<analysis::ProjectInput> LanguageServer::project_input(const Document& doc) const {
  std::optional<ProjectIndex::Located> where = projects_.locate(doc.path);
  if (!where) return std::nullopt;
  return analysis::ProjectInput{where->snapshot, where->rel};
}

void LanguageServer::start_project_index() {
  projects_.on_progress = [this](const std::string& root, std::size_t done, std::size_t total) {
    on_index_progress(root, done, total);
  };
  projects_.on_indexed = [this](const std::string& root, std::shared_ptr<const analysis::ProjectSnapshot> before) {
    on_index_progress(root, 0, 0);  // ends the progress
    refresh_project_documents(root, std::move(before));
    schedule_heap_release();
  };
  projects_.on_changed = [this](const std::string& root, std::shared_ptr<const analysis::ProjectSnapshot> before) {
    refresh_project_documents(root, std::move(before));
  };
  for (const auto& [root, p] : index_progress_) {
    if (p.begun) notify("$/progress", {{"token", p.token}, {"value", {{"kind", "end"}, {"message", "restarted"}}}});
  }
  index_progress_.clear();
  projects_.set_folders(workspace_folders_, settings_.index);
  if (!settings_.index.enabled || workspace_folders_.empty()) return;
  if (caps_.did_change_watched_files_dynamic) {
    request("client/registerCapability",
            {{"registrations",
              json::array({{{"id", "msprobe-python-files"},
                            {"method", "workspace/didChangeWatchedFiles"},
                            {"registerOptions", {{"watchers", json::array({{{"globPattern", "**/*.py"}}})}}}}})}},
            [](const protocol::Response& r) {
              if (!r.ok) spdlog::info("the client did not register the Python file watcher");
            });
  }
}

void LanguageServer::on_index_progress(const std::string& root, std::size_t done, std::size_t total) {
  if (!caps_.work_done_progress) return;
  const bool end = done == 0 && total == 0;
  auto it = index_progress_.find(root);
  if (it != index_progress_.end()) {
    IndexProgress& p = it->second;
    if (!p.begun) {
      p.ended = p.ended || end;  // the token is being created: the reply ends it
      return;
    }
    if (end) {
      notify("$/progress", {{"token", p.token}, {"value", {{"kind", "end"}, {"message", "indexed"}}}});
      index_progress_.erase(it);
    } else {
      notify("$/progress", {{"token", p.token},
                            {"value",
                             {{"kind", "report"},
                              {"message", std::to_string(done) + "/" + std::to_string(total) + " files"},
                              {"percentage", total ? static_cast<unsigned>(100 * done / total) : 0u}}}});
    }
    return;
  }
  if (end) return;
  std::string token = "msprobe-index-" + std::to_string(++progress_tokens_) + "-" + root;
  index_progress_[root] = IndexProgress{token, false, false};
  request("window/workDoneProgress/create", {{"token", token}}, [this, root, token](const protocol::Response& r) {
    auto slot = index_progress_.find(root);
    if (slot == index_progress_.end() || slot->second.token != token) return;
    if (!r.ok) {
      index_progress_.erase(slot);
      return;
    }
    slot->second.begun = true;
    notify("$/progress",
           {{"token", token},
            {"value",
             {{"kind", "begin"}, {"title", "msProbe: indexing " + root}, {"cancellable", false}, {"percentage", 0}}}});
    if (slot->second.ended) {
      notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}, {"message", "indexed"}}}});
      index_progress_.erase(slot);
    }
  });
}

// Only documents whose diagnostics can change with the rest of the project
// (msProbe calls, torch APIs bound by name) and that the changed files reach
// through imports are analysed again (analysis::files_affected_by), and a
// burst of changes (a folder of files opened at once) is one refresh.
void LanguageServer::refresh_project_documents(const std::string& root,
                                               std::shared_ptr<const analysis::ProjectSnapshot> before) {
  PendingRefresh& pending = pending_refresh_[root];
  if (!pending.before) pending.before = std::move(before);
  pending.changed_at = job_seq_;
  if (!project_refresh_) project_refresh_ = std::make_unique<asio::steady_timer>(io_);
  project_refresh_->expires_after(std::chrono::milliseconds(std::max(settings_.debounce_ms, 200)));
  project_refresh_->async_wait([this](const asio::error_code& ec) {
    if (ec || state_ != State::Running) return;
    for (auto& [folder, changes] : std::exchange(pending_refresh_, {})) {
      std::optional<analysis::AffectedFiles> affected;
      for (auto& [uri, doc] : documents_) {
        if (doc.kind != DocumentKind::Python) continue;
        std::optional<ProjectIndex::Located> where = projects_.locate(doc.path);
        if (!where || where->root != folder) continue;
        if (!changes.before || doc.job_seq > changes.changed_at) continue;  // its last job saw the changes
        if (!affected) {
          affected = analysis::files_affected_by(*changes.before, *where->snapshot,
                                                 analysis::changed_files(*changes.before, *where->snapshot));
        }
        if (!affected->all && !affected->files.count(where->rel)) continue;
        if (doc.latest && doc.latest->result.summary && !analysis::depends_on_project(*doc.latest->result.summary))
          continue;
        ++doc.project_refreshes;
        start_job(doc, /*force=*/true, /*quiet=*/false, /*project_refresh=*/true);
      }
    }
  });
}

}  // namespace msprobe::server
