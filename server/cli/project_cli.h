// The project a command-line run works in: its root (--project, else the
// nearest folder holding .git, pyproject.toml, setup.py or setup.cfg, else the
// file's folder), its files read from disk, and their summaries.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "msprobe/analysis/project.h"

namespace msprobe::cli {

struct CliProject {
  std::string root;  // absolute, normalised
  std::string rel;   // the file asked about, relative to root
  std::shared_ptr<const analysis::ProjectSnapshot> snapshot;
  analysis::FileReader read;
  std::vector<std::string> skipped;  // files left out of the index, with why
  std::string error;                 // non-empty: the project cannot be used
};

CliProject load_project(const std::string& file, const std::string& root_option);

// The absolute path of a project file.
std::string project_path(const CliProject& p, const std::string& rel);

// `path` (relative to the working directory, or absolute) as a project file.
std::string project_file(const CliProject& p, const std::string& path);

}  // namespace msprobe::cli
