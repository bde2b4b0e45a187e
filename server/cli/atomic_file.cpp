// Temp file + fsync + rename, keeping the mode.
#include "cli/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace msprobe::cli {

bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error) {
  std::string target = path;
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    target = real;
    std::free(real);
  }
  struct stat st {};
  bool existed = ::stat(target.c_str(), &st) == 0;
  std::size_t slash = target.rfind('/');
  std::string dir = slash == std::string::npos ? "." : target.substr(0, slash == 0 ? 1 : slash);
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string tmpl = dir + "/." + base + ".msprobe-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    error = "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
    return false;
  }
  auto fail = [&](const std::string& what) {
    error = what + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(name.data());
    return false;
  };
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write " + std::string(name.data()));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  mode_t mode = existed ? (st.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) return fail("cannot set the mode of " + std::string(name.data()));
  if (existed && ::geteuid() == 0) (void)::fchown(fd, st.st_uid, st.st_gid);
  if (::fsync(fd) != 0) return fail("cannot sync " + std::string(name.data()));
  if (::close(fd) != 0) {
    error = std::string("cannot close the temporary file: ") + std::strerror(errno);
    ::unlink(name.data());
    return false;
  }
  if (::rename(name.data(), target.c_str()) != 0) {
    error = "cannot replace " + target + ": " + std::strerror(errno);
    ::unlink(name.data());
    return false;
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

}  // namespace msprobe::cli
