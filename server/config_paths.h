// File-system questions about config files, shared by the server and the CLI:
// where a config_path may point, whether a path is inside the workspace,
// settings globs, and writing a file atomically.
#pragma once

#include <string>
#include <vector>

namespace msprobe::server {

// Lexically normalised absolute path ("a/../b" -> "b"); relative paths are taken from `base`.
std::string absolute_path(const std::string& path, const std::string& base);

// The files a `config_path` written in a script may mean, in lookup order:
// itself when absolute, else relative to the script's directory, then to
// each workspace folder (duplicates removed).
std::vector<std::string> config_candidates(const std::string& config_path, const std::string& script_dir,
                                           const std::vector<std::string>& workspace_folders);

// True when `path` (after resolving symlinks of its existing part) lies inside one of `folders`.
bool inside_folders(const std::string& path, const std::vector<std::string>& folders);

// Glob match with `*` (no '/'), `**` (any depth), `?` and `{a,b}`. Relative
// patterns match the path relative to any of `folders`, and any suffix of it
// when they start with "**/".
bool glob_match(const std::string& pattern, const std::string& path, const std::vector<std::string>& folders);

// Reads at most `limit` bytes of a regular file; false if it is not one or is larger.
bool read_small_file(const std::string& path, std::string& out, std::size_t limit = 1 << 20);

}  // namespace msprobe::server
