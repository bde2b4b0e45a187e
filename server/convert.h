// The only place that maps analysis types to LSP JSON and back: ranges in the
// negotiated position encoding, Finding -> Diagnostic, Fix -> WorkspaceEdit,
// rule docs -> hover.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/instrument.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"

namespace msprobe::server {

using nlohmann::json;

struct ConvertOptions {
  analysis::Encoding encoding = analysis::Encoding::Utf16;
  std::string docs_base_url;  // rule pages are docs_base_url + "#msp101"
  bool related_information = true;
  std::string uri;  // the document the ranges belong to
  int version = 0;
};

json to_position(const analysis::SourceText& src, std::size_t offset, analysis::Encoding enc);
json to_range(const analysis::SourceText& src, analysis::ByteRange r, analysis::Encoding enc);
// Throws std::invalid_argument when `position` is not {line: uint, character: uint}.
std::size_t from_position(const analysis::SourceText& src, const json& position, analysis::Encoding enc);
analysis::ByteRange from_range(const analysis::SourceText& src, const json& range, analysis::Encoding enc);

std::string rule_anchor(std::string_view code);  // "msp101"
json to_diagnostic(const analysis::SourceText& src, const analysis::Finding& f, const ConvertOptions& o);
// The text of to_diagnostic(src, f, o) exactly as protocol::serialize writes
// it (keys sorted, no spaces), appended to `out` without building the JSON
// tree: publishing is ~20 us per diagnostic through the tree (a 10k-line
// script has 121 of them, with their fixes).
void append_diagnostic(std::string& out, const analysis::SourceText& src, const analysis::Finding& f,
                       const ConvertOptions& o);
// The textDocument/publishDiagnostics notification of `findings` for o.uri at
// o.version, as protocol::serialize writes it, built with append_diagnostic.
std::string publish_diagnostics_message(const analysis::SourceText& src,
                                        const std::vector<const analysis::Finding*>& findings, const ConvertOptions& o);
// A JSON string as protocol::serialize writes it (invalid UTF-8 replaced by U+FFFD).
void append_json_string(std::string& out, std::string_view s);
json to_text_edits(const analysis::SourceText& src, const std::vector<analysis::Edit>& edits, analysis::Encoding enc);
// How a WorkspaceEdit is shaped for this client.
struct EditOptions {
  analysis::Encoding encoding = analysis::Encoding::Utf16;
  std::string uri;
  std::optional<int> version;       // null for a file that is not open
  bool document_changes = false;    // versioned TextDocumentEdit instead of `changes`
  bool change_annotations = false;  // labelled AnnotatedTextEdits (needs document_changes)
};

// Edits already in LSP form (TextEdit[]), under one label.
struct LspEditGroup {
  std::string label;
  bool needs_confirmation = false;
  json edits = json::array();
};

// A WorkspaceEdit for one document. Edits keep their order (insertions at the
// same position appear in array order, as the spec says); with annotations
// each group becomes one changeAnnotation.
json make_workspace_edit(const std::vector<LspEditGroup>& groups, const EditOptions& o);

// One file's share of a WorkspaceEdit over several files.
struct FileEdit {
  std::string uri;
  std::optional<int> version;  // null: the file is not open
  std::string name;            // added to each group's label ("mingpt/trainer.py"); "" for none
  std::vector<LspEditGroup> groups;
};
// A WorkspaceEdit over several files: one TextDocumentEdit per file when the
// client takes documentChanges, else `changes`. With annotations, every
// file's groups are annotations of their own, so a preview shows each file.
json make_files_workspace_edit(const std::vector<FileEdit>& files, const EditOptions& o);
// The dump-point groups of analysis/instrument, in position order.
json to_workspace_edit(const analysis::SourceText& src, const std::vector<analysis::EditGroup>& groups,
                       const EditOptions& o);
// The groups with their edits in LSP form, in position order across groups.
std::vector<LspEditGroup> to_lsp_groups(const analysis::SourceText& src, const std::vector<analysis::EditGroup>& groups,
                                        analysis::Encoding enc);
// A WorkspaceEdit that creates the file `uri` (failing if it exists, never
// inserting into an existing file) with `text` as its content.
json create_file_edit(const std::string& uri, const std::string& text);
// A WorkspaceEdit that replaces the whole of `current` (o.uri at o.version)
// with `text`. With o.document_changes and o.change_annotations it is one edit
// under an annotation that needs the user's confirmation (`label`,
// `description`); otherwise plain `changes`, which the caller must have the
// user confirm before sending.
json replace_document_edit(const analysis::SourceText& current, const std::string& text, const EditOptions& o,
                           const std::string& label, const std::string& description);
// A fix replaces or deletes code (needs confirmation) unless every edit is an
// insertion (an empty range).
bool replaces_code(const json& text_edits);

// Markdown for a rule: title, summary, docs.
std::string rule_markdown(const analysis::RuleMeta& meta);

}  // namespace msprobe::server
