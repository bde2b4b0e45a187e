// Entry point of the engine: parse, build facts, run the enabled rules, then
// apply suppressions (a separate last pass, as in ruff).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"
#include "msprobe/analysis/finding.h"
#include "msprobe/analysis/rule.h"
#include "msprobe/analysis/source.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::analysis {

struct ModuleSummary;
class ProjectSnapshot;
class SecondCore;
class WholeTreeParse;

// Where an analysis spent its time, in milliseconds of wall clock (the
// server's debug log, the benchmarks). `facts` includes a single file's loop
// roles; in a project they are part of `project`, the cross-file view.
struct StageTimes {
  double parse = 0, facts = 0, summary = 0, project = 0, rules = 0;
  std::size_t statements_walked = 0, statements_reused = 0;  // top-level statements of the facts build
  std::size_t calls_derived = 0, calls_reused = 0;           // call effects of the summary (in a project)
  // Parsed in two parts (Analysis::in_parts): `parse` is the first part's;
  // the second part's parse and facts on the other thread, and how long the
  // first part waited for them (within `facts`).
  double second_parse = 0, second_facts = 0, waited = 0;
  // An edit whose previous facts were copied on the other thread while this
  // one reparsed (PreviousFacts::donor): how long the copy took there, and
  // how long the build waited for it after the parse (within `facts`).
  bool donor = false;
  double donor_copy = 0, donor_waited = 0;
};

struct Analysis {
  TreePtr tree;  // null when parsing ran out of time, or when parsed in parts
  FileFacts facts;
  // Parsed in two parts on two threads (split_analysis.h): the facts and
  // findings are those of a parse of the whole text, but no tree of it exists.
  bool in_parts = false;
  // With in_parts: the tree of the text's first part. Parsing the whole text
  // with it as the old tree (no edit) reparses only the rest.
  TreePtr first_part;
  // With in_parts and analyze()'s `whole_tree`: that parse, already running
  // on the SecondCore (second_core.h), which it holds until taken.
  std::shared_ptr<WholeTreeParse> whole_tree;
  std::vector<Finding> findings;  // sorted by position
  bool timed_out = false;
  // With a project: the file's summary, for the project's index.
  std::shared_ptr<const ModuleSummary> summary;
  // With the summary: find_dynamo_sites over these facts, which the summary
  // was built from and the rules read again.
  std::vector<DynamoSite> dynamo_sites;
  StageTimes times;
};

// The project a file belongs to, and its path there.
struct ProjectInput {
  std::shared_ptr<const ProjectSnapshot> snapshot;
  std::string rel;
};

// `old_tree` must already carry the edits made since it was parsed. With a
// project, loops are derived across its files and the rules see the project.
// `previous` (the analysis `old_tree` came from, and its text) lends the facts
// of the top-level statements the edits did not touch. With `second` and no
// old tree, a large text may be parsed in two parts, one on `second`'s
// thread: then `tree` is null and `in_parts` set. With `whole_tree` too,
// `second` goes on to parse the whole text (Analysis::whole_tree), and
// `source` must outlive that parse. With `second`, an old tree and `previous`,
// a large text's previous facts are copied on `second`'s thread while this
// one reparses, and the reused entries moved out of that copy
// (PreviousFacts::donor); `second` is free again when this returns.
Analysis analyze(PythonParser& parser, const SourceText& source, const AnalysisOptions& options,
                 const TreePtr& old_tree = nullptr, const ProjectInput* project = nullptr,
                 const PreviousFacts* previous = nullptr, SecondCore* second = nullptr, bool whole_tree = false);

// The same analysis in two steps, for a batch of a project's files (`check`
// on a folder): `begin_analysis` parses and builds the facts and the module
// summary, without loop roles; `finish_analysis` derives the loops and runs
// the rules, alone or, once every file's summary is known, with the project.
// begin + finish equals analyze() with the same project (or none).
Analysis begin_analysis(PythonParser& parser, const SourceText& source);
void finish_analysis(Analysis& a, const SourceText& source, const AnalysisOptions& options,
                     const ProjectInput* project = nullptr);

// The rule and suppression passes alone, over facts already built.
// `dynamo_sites`: find_dynamo_sites over these facts, when already found.
std::vector<Finding> check_facts(const SourceText& source, const FileFacts& facts, const AnalysisOptions& options,
                                 const ProjectView* project = nullptr,
                                 const std::vector<DynamoSite>* dynamo_sites = nullptr);

// Maximum number of syntax-error findings reported per file.
inline constexpr std::size_t kMaxSyntaxFindings = 10;

}  // namespace msprobe::analysis
