// An open document as the server tracks it: text, version, the edits not yet
// seen by the analysis worker, and the latest analysis.
#pragma once

#include <asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/source.h"

namespace msprobe::server {

enum class DocumentKind { Python, Json, Other };

// An immutable analysis of one version of a document. `result.tree` is
// always null: syntax trees are large (about 45 bytes per source byte) and
// stay in the analysis worker's small cache of recently edited documents.
// `result.timed_out` tells whether parsing ran out of time; a handler that
// needs a tree parses `source` itself.
struct AnalysisSnapshot {
  std::string uri;
  int version = 0;
  DocumentKind kind = DocumentKind::Other;
  std::shared_ptr<const analysis::SourceText> source;
  analysis::Analysis result;
};
using SnapshotPtr = std::shared_ptr<const AnalysisSnapshot>;

struct Document {
  std::string uri;
  std::string path;  // local file path for file: URIs, else empty
  std::string language_id;
  DocumentKind kind = DocumentKind::Other;
  int version = 0;
  analysis::SourceText text;

  // Edits made since the last job was handed to the worker.
  std::vector<analysis::ByteEdit> pending_edits;
  bool reset_tree = true;  // the worker must parse from scratch
  bool job_pending = false;  // a job for `version` has been (or is being) scheduled

  SnapshotPtr latest;  // may be older than `version`
  std::unique_ptr<asio::steady_timer> debounce;
  // Requests waiting for the analysis of a version; called with null when
  // the document changed (or closed) before that analysis arrived.
  struct Waiter {
    int version;
    std::function<void(const SnapshotPtr&)> fn;
  };
  std::vector<Waiter> waiters;
  std::string last_pull_result_id;
};

}  // namespace msprobe::server
