// Config path resolution, workspace containment, settings globs, atomic writes.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "config_paths.h"
#include "file_io.h"

namespace fs = std::filesystem;
using namespace msprobe::server;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("msprobe-paths-" + std::to_string(::getpid()) + "-" + std::to_string(rand()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("config_path candidates: absolute, script directory, then workspace folders") {
  CHECK(config_candidates("/etc/c.json", "/w/src", {"/w"}) == std::vector<std::string>{"/etc/c.json"});
  CHECK(config_candidates("./config.json", "/w/src", {"/w", "/v"}) ==
        std::vector<std::string>{"/w/src/config.json", "/w/config.json", "/v/config.json"});
  CHECK(config_candidates("../c.json", "/w/src", {"/w"}) == std::vector<std::string>{"/w/c.json", "/c.json"});
  CHECK(config_candidates("c.json", "/w", {"/w"}) == std::vector<std::string>{"/w/c.json"});
  CHECK(config_candidates("", "/w", {"/w"}).empty());
}

TEST_CASE("inside the workspace: .. and symlinks do not escape") {
  TempDir ws, outside;
  fs::create_directories(ws.path / "sub");
  CHECK(inside_folders((ws.path / "config.json").string(), {ws.path.string()}));
  CHECK(inside_folders((ws.path / "sub" / "new" / "c.json").string(), {ws.path.string()}));
  CHECK_FALSE(inside_folders((ws.path / ".." / ".." / "etc" / "x.json").string(), {ws.path.string()}));
  CHECK_FALSE(inside_folders(ws.path.string(), {ws.path.string()}));
  CHECK_FALSE(inside_folders("/etc/x.json", {ws.path.string()}));
  CHECK_FALSE(inside_folders((ws.path / "c.json").string(), {}));
  fs::create_directory_symlink(outside.path, ws.path / "link");
  CHECK_FALSE(inside_folders((ws.path / "link" / "c.json").string(), {ws.path.string()}));
}

TEST_CASE("settings globs") {
  std::vector<std::string> ws = {"/w"};
  CHECK(glob_match("**/dump_cfg_*.json", "/w/runs/dump_cfg_a.json", ws));
  CHECK(glob_match("**/dump_cfg_*.json", "/w/dump_cfg_a.json", ws));
  CHECK(glob_match("configs/*.json", "/w/configs/a.json", ws));
  CHECK_FALSE(glob_match("configs/*.json", "/w/configs/x/a.json", ws));
  CHECK(glob_match("configs/**/*.json", "/w/configs/x/y/a.json", ws));
  CHECK(glob_match("**/{msprobe,dump}.json", "/w/a/dump.json", ws));
  CHECK(glob_match("/abs/*.json", "/abs/c.json", ws));
  CHECK(glob_match("c?.json", "/w/c1.json", ws));
  CHECK_FALSE(glob_match("*.json", "/elsewhere/c.json", ws));
}

TEST_CASE("atomic writes keep the mode and leave no temporary file") {
  TempDir dir;
  std::string path = (dir.path / "config.json").string();
  std::string error;
  REQUIRE(msprobe::server::atomic_write(path, "{\"a\": 1}\n", &error));
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "{\"a\": 1}\n");
  ::chmod(path.c_str(), 0600);
  REQUIRE(msprobe::server::atomic_write(path, "{}\n", &error));
  struct stat st {};
  ::stat(path.c_str(), &st);
  CHECK((st.st_mode & 07777) == 0600);
  int files = 0;
  for (auto& e : fs::directory_iterator(dir.path)) {
    (void)e;
    ++files;
  }
  CHECK(files == 1);
  CHECK_FALSE(msprobe::server::atomic_write((dir.path / "missing" / "c.json").string(), "{}", &error));
  CHECK(error.find("temporary file") != std::string::npos);
  std::string small;
  CHECK(read_small_file(path, small));
  CHECK(small == "{}\n");
  CHECK_FALSE(read_small_file(path, small, 1));
  CHECK_FALSE(read_small_file(dir.path.string(), small));
}
