// The dump-point edits of a multi-file project: the loop's file gets
// start/stop/step (through the singleton's classmethods), the entry of the
// target process gets the import, seed_all() and the construction; disable
// and remove act on every file the dump spans. One result per changed file,
// applied together or not at all.
#pragma once

#include <string>
#include <vector>

#include "msprobe/analysis/instrument.h"
#include "msprobe/analysis/project.h"

namespace msprobe::analysis {

struct FileEdits {
  std::string file;  // relative to the project root
  std::string text;  // the file as it was read
  InstrumentResult result;
};

struct ProjectEditResult {
  std::vector<FileEdits> files;  // files with edits (and their groups), loop file first
  std::vector<std::string> notes;
  std::string error;  // non-empty: refused (no file changes)
  std::string summary;
  bool ok() const { return error.empty(); }
  bool empty() const;
};

// Enables the dump for the file `rel` (the entry or the loop file), as
// plan_project places it. A project whose dump was commented out gets it back.
ProjectEditResult enable_in_project(const ProjectSnapshot& project, const std::string& rel, const FileReader& read,
                                    const ProjectPlanOptions& plan_options, const InstrumentOptions& options);

enum class DumpOffMode { Disable, Remove };
// Comments out (Disable) or deletes (Remove) the dump in `rel` and in the
// files its plan spans (the loop file and the entry).
ProjectEditResult dump_off_in_project(const ProjectSnapshot& project, const std::string& rel, const FileReader& read,
                                      const ProjectPlanOptions& plan_options, DumpOffMode mode);

}  // namespace msprobe::analysis
