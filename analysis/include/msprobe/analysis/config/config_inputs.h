// How a Python-side rule gets at the config file a script names, without
// doing any I/O itself: the caller (the server, the CLI, a test) supplies a
// resolver that knows the script's directory, the workspace folders and the
// open documents.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::analysis {

struct ConfigLookup {
  bool found = false;
  std::string path;                         // where it was found, or where it would be created
  std::vector<std::string> searched;        // every place looked at, in order
  std::shared_ptr<const std::string> text;  // the content, when found
};

// Called with the config_path string as written in the script.
using ConfigResolver = std::function<ConfigLookup(const std::string& config_path)>;

}  // namespace msprobe::analysis
