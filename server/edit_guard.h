// The last check on every WorkspaceEdit the server sends: each file it
// touches must lie inside a workspace folder (resolved with realpath, see
// file_io.h). LanguageServer applies it to every request's result and to
// every workspace/applyEdit it sends, so no handler can edit a file outside
// the workspace, whatever it builds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace msprobe::server {

// Every uri a WorkspaceEdit touches: the keys of `changes`, and in
// `documentChanges` the text edits' documents and the create / rename (both
// uris) / delete operations.
std::vector<std::string> edit_targets(const nlohmann::json& workspace_edit);

// True when `uri` may be edited: a file: uri inside one of `roots`, or a
// uri of another scheme (an unsaved buffer is not a file on disk).
bool uri_inside(const std::string& uri, const std::vector<std::string>& roots);

// Finds the first WorkspaceEdit anywhere in `value` (an object with a
// `changes` object or a `documentChanges` array) that touches a uri outside
// `roots`; returns that uri, or "" when everything is inside.
std::string first_outside_target(const nlohmann::json& value, const std::vector<std::string>& roots);

// Removes the elements of `actions` (a code action list) that hold an edit
// outside `roots`; returns the uris refused.
std::vector<std::string> drop_actions_outside(nlohmann::json& actions, const std::vector<std::string>& roots);

}  // namespace msprobe::server
