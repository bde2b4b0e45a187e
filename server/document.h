// An open document as the server tracks it: text, version, the edits not yet
// seen by the analysis worker, and the latest analysis.
#pragma once

#include <asio/steady_timer.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/source.h"

namespace msprobe::server {

enum class DocumentKind { Python, Json, Other };

// An immutable analysis of one version of a document.
struct AnalysisSnapshot {
  std::string uri;
  int version = 0;
  DocumentKind kind = DocumentKind::Other;
  std::shared_ptr<const analysis::SourceText> source;
  analysis::Analysis result;
  // Slim: the facts were dropped to save memory (a document nobody has used
  // for a while); the findings stay. Requests that need the facts get a fresh
  // analysis first (LanguageServer::with_current_analysis).
  bool slim = false;
  // The analysis only refreshed the facts of a slim snapshot: nothing to publish.
  bool quiet = false;
  // Another file of the project changed: publish only if the diagnostics did.
  bool project_refresh = false;
  uint64_t generation = 0;  // the document's generation when the job started
};
using SnapshotPtr = std::shared_ptr<const AnalysisSnapshot>;

// The text of a document, shared with the analysis jobs that read it (and
// the snapshot they make): a job takes a reference, not a copy, and an edit
// copies the text first only while something else still holds it. With a
// hundred documents open that is one copy of each text instead of two.
class DocumentText {
 public:
  DocumentText() : text_(std::make_shared<analysis::SourceText>()) {}
  explicit DocumentText(std::string text) : text_(std::make_shared<analysis::SourceText>(std::move(text))) {}
  const analysis::SourceText& operator*() const { return *text_; }
  const analysis::SourceText* operator->() const { return text_.get(); }
  // For a job: this version of the text, unchanged by later edits.
  std::shared_ptr<const analysis::SourceText> share() const { return text_; }
  // For an edit: the text, copied first when a job or a snapshot shares it.
  analysis::SourceText& for_edit();

 private:
  std::shared_ptr<analysis::SourceText> text_;
};

struct Document {
  std::string uri;
  std::string path;  // local file path for file: URIs, else empty
  std::string language_id;
  DocumentKind kind = DocumentKind::Other;
  int version = 0;
  DocumentText text;

  // Edits made since the last job was handed to the worker.
  std::vector<analysis::ByteEdit> pending_edits;
  bool reset_tree = true;    // the worker must parse from scratch
  bool job_pending = false;  // a job for `version` has been (or is being) scheduled

  SnapshotPtr latest;  // may be older than `version`
  // Bumped when something the analysis reads besides the text changes (a
  // config file): results of jobs started before are stale even for this version.
  uint64_t generation = 0;
  uint64_t last_used = 0;  // LanguageServer's use clock at the last edit or request (0: none yet)
  uint64_t opened = 0;     // the use clock when it was opened
  bool edited = false;     // changed since it was opened
  // For msprobe.showInfo: analyses started because another file of the
  // project changed, and analyses whose result was taken (published or not).
  unsigned project_refreshes = 0;
  unsigned analyses = 0;
  uint64_t job_seq = 0;  // LanguageServer's job counter when the last job started (it saw the project as it was then)
  std::unique_ptr<asio::steady_timer> debounce;
  // Requests waiting for the analysis of a version; called with null when
  // the document changed (or closed) before that analysis arrived.
  struct Waiter {
    int version;
    std::function<void(const SnapshotPtr&)> fn;
  };
  std::vector<Waiter> waiters;
  std::string last_pull_result_id;
  // The last publishDiagnostics message sent (its size and hash: the message
  // itself is ~100 bytes per diagnostic), to skip repeating it.
  std::size_t last_published_size = 0;
  std::size_t last_published_hash = 0;
};

}  // namespace msprobe::server
