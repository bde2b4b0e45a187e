// atomic_write and is_inside_workspace: mode kept, original intact on every
// failure, no temporary files left behind, symlinks cannot escape the workspace.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "docs_location.h"
#include "file_io.h"

namespace fs = std::filesystem;
using msprobe::server::atomic_write;
using msprobe::server::is_inside_workspace;
using msprobe::server::resolve_path;

namespace {

// A fresh directory under the temp dir, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "msprobe-file-io-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = fs::path(templ);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string read(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_plain(const std::string& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

mode_t mode_of(const std::string& p) {
  struct stat st;
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Names in `dir` (to check no temporary file is left).
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("atomic_write creates a new file with the umask applied") {
  TempDir d;
  mode_t old = ::umask(022);
  std::string err;
  CHECK(atomic_write(d / "new.json", "{}\n", &err));
  ::umask(old);
  CHECK(err.empty());
  CHECK(read(d / "new.json") == "{}\n");
  CHECK(mode_of(d / "new.json") == 0644);
  CHECK(entries(d.path) == std::vector<std::string>{"new.json"});
}

TEST_CASE("atomic_write replaces the contents and keeps the mode") {
  TempDir d;
  write_plain(d / "train.py", "old text\n");
  REQUIRE(::chmod((d / "train.py").c_str(), 0751) == 0);
  CHECK(atomic_write(d / "train.py", "new text\n"));
  CHECK(read(d / "train.py") == "new text\n");
  CHECK(mode_of(d / "train.py") == 0751);
  CHECK(entries(d.path) == std::vector<std::string>{"train.py"});

  REQUIRE(::chmod((d / "train.py").c_str(), 0600) == 0);
  CHECK(atomic_write(d / "train.py", std::string("\0binary\xff", 8)));
  CHECK(read(d / "train.py") == std::string("\0binary\xff", 8));
  CHECK(mode_of(d / "train.py") == 0600);
}

TEST_CASE("atomic_write writes an empty file") {
  TempDir d;
  write_plain(d / "a.py", "x");
  CHECK(atomic_write(d / "a.py", ""));
  CHECK(read(d / "a.py").empty());
}

TEST_CASE("atomic_write through a symlink updates the target and keeps the link") {
  TempDir d;
  write_plain(d / "real.py", "old");
  REQUIRE(::chmod((d / "real.py").c_str(), 0640) == 0);
  fs::create_symlink(d / "real.py", d / "link.py");
  CHECK(atomic_write(d / "link.py", "new"));
  CHECK(fs::is_symlink(d / "link.py"));
  CHECK(read(d / "real.py") == "new");
  CHECK(mode_of(d / "real.py") == 0640);
}

TEST_CASE("atomic_write fails cleanly when the directory is missing") {
  TempDir d;
  std::string err;
  CHECK_FALSE(atomic_write(d / "no/such/dir/config.json", "{}", &err));
  CHECK(err.find("no/such/dir/config.json") != std::string::npos);
  CHECK(entries(d.path).empty());
}

TEST_CASE("atomic_write refuses a directory or a dangling symlink and changes nothing") {
  TempDir d;
  fs::create_directory(d / "sub");
  std::string err;
  CHECK_FALSE(atomic_write(d / "sub", "x", &err));
  CHECK(err.find("not a regular file") != std::string::npos);
  CHECK(fs::is_directory(d / "sub"));

  fs::create_symlink(d / "missing-target", d / "dangling");
  CHECK_FALSE(atomic_write(d / "dangling", "x", &err));
  CHECK(fs::is_symlink(d / "dangling"));
  CHECK_FALSE(fs::exists(d / "missing-target"));
  CHECK(entries(d.path) == std::vector<std::string>{"dangling", "sub"});
}

TEST_CASE("a write that fails half-way leaves the original intact and no temporary file") {
  // RLIMIT_FSIZE makes write(2) fail with EFBIG after 4 KiB, which works even
  // as root (a read-only directory does not stop root).
  TempDir d;
  const std::string original = "import torch\nprint('original')\n";
  write_plain(d / "train.py", original);
  REQUIRE(::chmod((d / "train.py").c_str(), 0644) == 0);

  struct rlimit old_limit;
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string err;
  bool ok = atomic_write(d / "train.py", std::string(64 * 1024, 'x'), &err);
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  ::signal(SIGXFSZ, old_handler);

  CHECK_FALSE(ok);
  CHECK(err.find("write failed") != std::string::npos);
  CHECK(read(d / "train.py") == original);
  CHECK(mode_of(d / "train.py") == 0644);
  CHECK(entries(d.path) == std::vector<std::string>{"train.py"});
}

TEST_CASE("a read-only directory makes the write fail and keeps the original") {
  if (::geteuid() == 0) return;  // root ignores directory permissions; covered by the RLIMIT case
  TempDir d;
  write_plain(d / "a.py", "keep");
  REQUIRE(::chmod(d.path.c_str(), 0555) == 0);
  std::string err;
  CHECK_FALSE(atomic_write(d / "a.py", "lost", &err));
  ::chmod(d.path.c_str(), 0755);
  CHECK(read(d / "a.py") == "keep");
  CHECK(entries(d.path) == std::vector<std::string>{"a.py"});
}

TEST_CASE("resolve_path resolves existing prefixes and appends the missing tail") {
  TempDir d;
  std::string root = resolve_path(d.path.string());
  REQUIRE(!root.empty());
  fs::create_directory(d / "ws");
  CHECK(resolve_path(d / "ws") == root + "/ws");
  CHECK(resolve_path(d / "ws/./new/file.json") == root + "/ws/new/file.json");
  CHECK(resolve_path(d / "ws/../ws/x.py") == root + "/ws/x.py");
  CHECK(resolve_path(d / "ws/missing/../../etc") == "");  // ".." under a missing directory
  CHECK(resolve_path("relative/path") == "");
  CHECK(resolve_path("") == "");
  CHECK(resolve_path("/") == "/");
}

TEST_CASE("is_inside_workspace") {
  TempDir d;
  fs::create_directory(d / "ws");
  fs::create_directory(d / "ws/sub");
  fs::create_directory(d / "ws-other");
  fs::create_directory(d / "outside");
  write_plain(d / "ws/train.py", "x");
  write_plain(d / "outside/secret.py", "x");
  std::vector<std::string> folders{d / "ws"};

  SECTION("files and folders inside, existing or not") {
    CHECK(is_inside_workspace(d / "ws/train.py", folders));
    CHECK(is_inside_workspace(d / "ws", folders));
    CHECK(is_inside_workspace(d / "ws/sub/new_config.json", folders));
    CHECK(is_inside_workspace(d / "ws/not/yet/created.json", folders));
  }
  SECTION("outside, including a sibling whose name shares the prefix") {
    CHECK_FALSE(is_inside_workspace(d / "outside/secret.py", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws-other/x.py", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws/../outside/secret.py", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws/sub/../../outside/new.py", folders));
    CHECK_FALSE(is_inside_workspace("/etc/passwd", folders));
    CHECK_FALSE(is_inside_workspace("train.py", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws/train.py", {}));
  }
  SECTION("symlinks are resolved: a link out of the workspace is outside") {
    fs::create_symlink(d / "outside", d / "ws/escape");
    fs::create_symlink(d / "outside/secret.py", d / "ws/secret_link.py");
    fs::create_symlink(d / "outside/not-there.py", d / "ws/dangling.py");
    CHECK_FALSE(is_inside_workspace(d / "ws/escape/secret.py", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws/escape/new.json", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws/secret_link.py", folders));
    CHECK_FALSE(is_inside_workspace(d / "ws/dangling.py", folders));
  }
  SECTION("a workspace folder reached through a symlink") {
    fs::create_symlink(d / "ws", d / "ws-link");
    CHECK(is_inside_workspace(d / "ws/train.py", {d / "ws-link"}));
    CHECK(is_inside_workspace(d / "ws-link/train.py", folders));
    CHECK(is_inside_workspace(d / "ws-link/new.py", {d / "ws-link"}));
  }
  SECTION("a trailing slash on the folder and several folders") {
    CHECK(is_inside_workspace(d / "ws/train.py", {d / "outside", d.path.string() + "/ws/"}));
    CHECK(is_inside_workspace(d / "outside/secret.py", {d / "ws", d / "outside"}));
  }
}

TEST_CASE("the rule reference is looked for beside the binary, under the install prefix, then in the source tree") {
  auto c = msprobe::server::rules_doc_candidates("/opt/msprobe/bin/msprobe-lsp");
  REQUIRE(c.size() == 3);
  CHECK(c[0] == "/opt/msprobe/bin/rules.md");
  CHECK(c[1] == "/opt/msprobe/share/doc/msprobe-lsp/rules.md");
  CHECK(c[2] == std::string(MSPROBE_LSP_DOCS_DIR) + "/rules.md");
  CHECK(msprobe::server::rules_doc_candidates("").size() == 1);
  // The test binary's own lookup finds the source tree's copy.
  CHECK(msprobe::server::rules_doc_uri().rfind("file://", 0) == 0);
  CHECK(msprobe::server::rules_doc_uri().find("docs/rules.md") != std::string::npos);
}

TEST_CASE(
    "verify's runner is looked for beside the binary, under <prefix>/share/msprobe-lsp, then in the source tree") {
  auto c = msprobe::server::shipped_file_candidates("/opt/msprobe/bin/msprobe-lsp", "msprobe_verify_runner.py",
                                                    "share/msprobe-lsp", MSPROBE_LSP_RUNNER_DIR);
  REQUIRE(c.size() == 3);
  CHECK(c[0] == "/opt/msprobe/bin/msprobe_verify_runner.py");
  CHECK(c[1] == "/opt/msprobe/share/msprobe-lsp/msprobe_verify_runner.py");
  CHECK(c[2] == std::string(MSPROBE_LSP_RUNNER_DIR) + "/msprobe_verify_runner.py");
  // The test binary has no copy beside it: it finds the source tree's.
  CHECK(msprobe::server::verify_runner_path() == c[2]);
}
