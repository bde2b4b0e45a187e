// The analysis thread. It owns the parser and the last tree of each document,
// so incremental reparses never race with the I/O thread. Results are posted
// back to the I/O thread's io_context.
#pragma once

#include <asio.hpp>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "document.h"

namespace msprobe::server {

// Whether a JSON document is checked as an msProbe config (handlers/config_sync.cpp).
enum class ConfigCheck { No, IfMsprobeKeys, Always };

struct AnalysisJob {
  std::string uri;
  int version = 0;
  DocumentKind kind = DocumentKind::Other;
  std::shared_ptr<const analysis::SourceText> source;
  std::vector<analysis::ByteEdit> edits;  // since the previous job for this uri
  bool reset_tree = false;
  analysis::AnalysisOptions options;
  ConfigCheck config_check = ConfigCheck::No;
};

class AnalysisWorker {
 public:
  explicit AnalysisWorker(asio::io_context& reply_to);
  ~AnalysisWorker();
  AnalysisWorker(const AnalysisWorker&) = delete;
  AnalysisWorker& operator=(const AnalysisWorker&) = delete;

  void submit(AnalysisJob job, std::function<void(SnapshotPtr)> done);
  void forget(const std::string& uri);
  // Runs `fn` on the worker thread (after every job already submitted).
  void run(std::function<void()> fn);

 private:
  asio::io_context& reply_to_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_;
  std::thread thread_;
};

}  // namespace msprobe::server
