// edit_guard: which files a WorkspaceEdit touches, and the refusal of edits
// outside the workspace folders.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "edit_guard.h"
#include "uri.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace msprobe::server;

namespace {

struct Workspace {
  fs::path root;
  Workspace() {
    std::string templ = (fs::temp_directory_path() / "msprobe-guard-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    root = fs::path(templ);
    fs::create_directories(root / "ws" / "pkg");
    fs::create_directories(root / "outside");
    fs::create_symlink(root / "outside", root / "ws" / "link-out");
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string uri(const std::string& rel) const { return path_to_uri((root / rel).string()); }
  std::vector<std::string> folders() const { return {(root / "ws").string()}; }
};

json text_edit() {
  return json::array(
      {{{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
        {"newText", "x"}}});
}

}  // namespace

TEST_CASE("edit_targets lists every uri of changes and documentChanges") {
  json edit{{"changes", {{"file:///a.py", text_edit()}, {"file:///b.py", text_edit()}}},
            {"documentChanges",
             json::array({{{"textDocument", {{"uri", "file:///c.py"}, {"version", 1}}}, {"edits", text_edit()}},
                          {{"kind", "create"}, {"uri", "file:///d.json"}},
                          {{"kind", "rename"}, {"oldUri", "file:///e.py"}, {"newUri", "file:///f.py"}},
                          {{"kind", "delete"}, {"uri", "file:///g.py"}},
                          {{"kind", "create"}, {"uri", 5}}})}};
  auto t = edit_targets(edit);
  CHECK(t == std::vector<std::string>{"file:///a.py", "file:///b.py", "file:///c.py", "file:///d.json", "file:///e.py",
                                      "file:///f.py", "file:///g.py", ""});
}

TEST_CASE("uri_inside: file uris inside the folders, other schemes allowed, malformed refused") {
  Workspace w;
  CHECK(uri_inside(w.uri("ws/train.py"), w.folders()));
  CHECK(uri_inside(w.uri("ws/pkg/new/config.json"), w.folders()));
  CHECK_FALSE(uri_inside(w.uri("outside/train.py"), w.folders()));
  CHECK_FALSE(uri_inside(w.uri("ws/link-out/train.py"), w.folders()));
  CHECK_FALSE(uri_inside(w.uri("ws") + "/%2E%2E/outside/x.py", w.folders()));
  CHECK_FALSE(uri_inside("file:relative.py", w.folders()));
  CHECK_FALSE(uri_inside("", w.folders()));
  CHECK(uri_inside("untitled:Untitled-1", w.folders()));
  CHECK_FALSE(uri_inside(w.uri("ws/train.py"), {}));
}

TEST_CASE("first_outside_target finds an edit outside anywhere in a result") {
  Workspace w;
  json inside{{"edit", {{"changes", {{w.uri("ws/a.py"), text_edit()}}}}}};
  json outside{
      {"title", "x"},
      {"edit", {{"documentChanges", json::array({{{"kind", "create"}, {"uri", w.uri("outside/config.json")}}})}}}};
  CHECK(first_outside_target(inside, w.folders()).empty());
  CHECK(first_outside_target(json::array({inside, outside}), w.folders()) == w.uri("outside/config.json"));
  CHECK(first_outside_target(json{{"result", {{"nested", outside}}}}, w.folders()) == w.uri("outside/config.json"));
  CHECK(first_outside_target(json{{"changes", "not an object"}}, w.folders()).empty());
}

TEST_CASE("drop_actions_outside keeps commands and actions inside, drops the rest") {
  Workspace w;
  json actions = json::array({
      {{"title", "fix"}, {"edit", {{"changes", {{w.uri("ws/a.py"), text_edit()}}}}}},
      {{"title", "escape"}, {"edit", {{"changes", {{w.uri("ws/link-out/a.py"), text_edit()}}}}}},
      {{"title", "cmd"}, {"command", "msprobe.showInfo"}},
      {{"title", "mixed"},
       {"edit", {{"changes", {{w.uri("ws/a.py"), text_edit()}, {"file:///etc/passwd", text_edit()}}}}}},
  });
  auto refused = drop_actions_outside(actions, w.folders());
  REQUIRE(actions.size() == 2);
  CHECK(actions[0]["title"] == "fix");
  CHECK(actions[1]["title"] == "cmd");
  CHECK(refused.size() == 2);
}
