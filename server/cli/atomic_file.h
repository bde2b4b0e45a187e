// A minimal atomic file replacement for the CLI's --write, until the shared
// server/file_io (robust branch) lands; the lead will unify the two.
#pragma once

#include <string>
#include <string_view>

namespace msprobe::cli {

// Writes `bytes` to a temporary file beside `path` (following a symlink to its
// target), fsyncs it, gives it the original file's mode and renames it over
// the target. On failure the original is untouched, the temporary file is
// gone and `error` says why.
bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error);

}  // namespace msprobe::cli
