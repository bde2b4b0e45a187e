// Safe file writes for everything that touches a user's files (CLI edits,
// generated config): atomic replacement that keeps the file's mode, and the
// workspace check every WorkspaceEdit target must pass.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::server {

// Replaces the contents of `path` with `bytes` atomically: the bytes go to a
// temporary file in the same directory, which is fsync'ed, given the original
// file's mode (and owner, when permitted), and renamed over `path`. A symlink
// is followed, so the link stays and its target is updated. A new file gets
// 0666 minus the umask. On any failure the original file is left exactly as it
// was, the temporary file is removed, and `error` (when given) says why.
bool atomic_write(const std::string& path, std::string_view bytes, std::string* error = nullptr);

struct FileWrite {
  std::string path;
  std::string bytes;
  std::string original;  // what the file held: put back if a later file of the set fails
};
// atomic_write for a set of files, all or none: every new content is written
// to its temporary file first (any failure there changes nothing); then the
// renames. Should a rename fail, the files already replaced get their
// original bytes back.
bool atomic_write_all(const std::vector<FileWrite>& files, std::string* error = nullptr);

// The canonical form of an absolute path, resolving symlinks, "." and "..".
// Components that do not exist yet are appended to the resolved nearest
// existing ancestor (so a file about to be created can be checked). Returns ""
// for a relative or empty path, a ".." after a missing component, or an entry
// that exists but cannot be resolved (a dangling symlink: writing through it
// would create its target, wherever that is).
std::string resolve_path(const std::string& path);

// True when `path` is one of `folders` or lies below one of them, comparing the
// resolved paths (resolve_path), so a symlink inside a folder that points out
// of it does not count as inside. False for empty or relative input.
bool is_inside_workspace(const std::string& path, const std::vector<std::string>& folders);

// The engine's directory check (AnalysisOptions::directory_exists), on the real file system.
std::shared_ptr<const std::function<bool(const std::string&)>> directory_check();

}  // namespace msprobe::server
