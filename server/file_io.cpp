// atomic_write: temp file + fsync + rename in the same directory (a rename
// within one file system is atomic, so readers see the old or the new file,
// never a half-written one). Paths are resolved with realpath(3) for the
// workspace check, so symlinks cannot smuggle a write out of the workspace.
#include "file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

namespace msprobe::server {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

bool set_error(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// realpath(3) into a std::string; "" with errno set on failure.
std::string real_path(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (!r) return {};
  std::string out(r);
  std::free(r);
  return out;
}

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) parts.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return parts;
}

// Writes all of `bytes`, retrying short writes and EINTR.
bool write_all(int fd, std::string_view bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    off += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string resolve_path(const std::string& path) {
  if (path.empty() || path[0] != '/') return {};
  std::vector<std::string> parts = split(path);
  // The longest prefix that resolves; the components after it must not exist.
  for (std::size_t keep = parts.size() + 1; keep-- > 0;) {
    std::string prefix = "/";
    for (std::size_t i = 0; i < keep; ++i) prefix += (i ? "/" : "") + parts[i];
    std::string real = real_path(prefix);
    if (real.empty()) {
      if (errno != ENOENT) return {};  // ENOTDIR, EACCES, ELOOP...: refuse
      struct stat st;
      if (::lstat(prefix.c_str(), &st) == 0) return {};  // exists but does not resolve: a dangling symlink
      continue;
    }
    for (std::size_t i = keep; i < parts.size(); ++i) {
      if (parts[i] == ".") continue;
      if (parts[i] == "..") return {};  // ".." under a missing directory: refuse rather than guess
      if (real.back() != '/') real += '/';
      real += parts[i];
    }
    return real;
  }
  return {};
}

bool is_inside_workspace(const std::string& path, const std::vector<std::string>& folders) {
  std::string target = resolve_path(path);
  if (target.empty()) return false;
  for (const std::string& folder : folders) {
    std::string root = resolve_path(folder);
    if (root.empty()) continue;
    if (target == root) return true;
    if (root.back() != '/') root += '/';
    if (target.compare(0, root.size(), root) == 0) return true;
  }
  return false;
}

namespace {

// A file written next to its target, not yet renamed over it.
struct Staged {
  std::string path;    // as given
  std::string target;  // the file the rename replaces (a symlink's target)
  std::string tmp;
  std::string dir;
};

bool stage(const std::string& path, std::string_view bytes, Staged& out, std::string* error) {
  if (path.empty()) return set_error(error, "cannot write a file with an empty path");
  std::string target = path;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    target = real_path(path);
    if (target.empty())
      return set_error(error,
                       "cannot write " + path + ": it is a symlink that does not resolve (" + errno_text(errno) + ")");
  }
  bool exists = ::stat(target.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) return set_error(error, "cannot write " + path + ": " + errno_text(errno));
  if (exists && !S_ISREG(st.st_mode)) return set_error(error, "cannot write " + path + ": not a regular file");

  std::size_t slash = target.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);

  // A hidden sibling with a random suffix; O_EXCL so an existing file is never reused.
  std::random_device rd;
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    tmp = dir + (dir == "/" ? "" : "/") + "." + base + ".msprobe-tmp-" + std::to_string(::getpid()) + "-" +
          std::to_string(rd());
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0)
    return set_error(error,
                     "cannot write " + path + ": cannot create a temporary file in " + dir + ": " + errno_text(errno));

  auto fail = [&](const std::string& what) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    return set_error(error, "cannot write " + path + ": " + what + ": " + errno_text(err));
  };
  if (exists) {
    if (::fchmod(fd, st.st_mode & 07777) != 0) return fail("cannot keep the file mode");
    // Keeping the owner needs privileges; without them the writer owns the new file.
    if (::fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM) return fail("cannot keep the file owner");
  }
  if (!write_all(fd, bytes)) return fail("write failed");
  if (::fsync(fd) != 0) return fail("fsync failed");
  int rc = ::close(fd);
  fd = -1;
  if (rc != 0) return fail("close failed");
  out = {path, target, tmp, dir};
  return true;
}

bool commit(const Staged& s, std::string* error) {
  if (::rename(s.tmp.c_str(), s.target.c_str()) != 0) {
    int err = errno;
    ::unlink(s.tmp.c_str());
    return set_error(error, "cannot write " + s.path + ": rename failed: " + errno_text(err));
  }
  // Make the rename itself durable; a failure here does not undo the write.
  int dfd = ::open(s.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

}  // namespace

bool atomic_write(const std::string& path, std::string_view bytes, std::string* error) {
  Staged s;
  return stage(path, bytes, s, error) && commit(s, error);
}

bool atomic_write_all(const std::vector<FileWrite>& files, std::string* error) {
  std::vector<Staged> staged;
  for (const FileWrite& f : files) {
    Staged s;
    if (!stage(f.path, f.bytes, s, error)) {
      for (const Staged& t : staged) ::unlink(t.tmp.c_str());
      return false;
    }
    staged.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (commit(staged[i], error)) continue;
    // Put back the files already replaced, drop the rest.
    for (std::size_t j = 0; j < i; ++j) atomic_write(files[j].path, files[j].original);
    for (std::size_t j = i + 1; j < staged.size(); ++j) ::unlink(staged[j].tmp.c_str());
    return false;
  }
  return true;
}

std::shared_ptr<const std::function<bool(const std::string&)>> directory_check() {
  static const auto check = std::make_shared<const std::function<bool(const std::string&)>>([](const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  });
  return check;
}

}  // namespace msprobe::server
