// msprobe.generateConfig: builds config.json from the fields the user gave as
// arguments, or asks for them one by one with window/showMessageRequest
// (task, level, rank, step, dump_path, then the final JSON to confirm), and
// writes it with workspace/applyEdit. The request is base protocol, so every
// client is asked (eglot, for one, declares no window capabilities and
// answers); a client that answers the first question with an error, or with
// null without declaring window.showMessage, cannot ask, and gets msProbe's
// defaults, named in the notes. Never outside the workspace folders, never
// over an existing file unless `overwrite: true` was given, and then only
// through an edit the user confirms.
#include <filesystem>
#include <set>

#include "config_paths.h"
#include "language_server.h"
#include "msprobe/analysis/config/config_generate.h"
#include "previous_dump.h"
#include "uri.h"

namespace msprobe::server {
namespace fs = std::filesystem;
namespace cfg = analysis::config;

namespace {

const char* const kFieldKeys[] = {"task", "level", "rank", "step", "dump_path", "async_dump", "extra_info"};
const char* const kOtherKeys[] = {"uri", "overwrite", "interactive"};

struct Choice {
  std::string title, value, meaning;
};

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// The dialogue's state, shared by its steps.
struct Generation {
  cfg::GenerateRequest req;
  std::string path, uri;
  bool overwrite = false;
  LanguageServer::ReplyFn reply;
  bool done = false;
  bool answered = false;  // the client has answered a question: it can ask
};

std::vector<Choice> level_choices(const std::string& task, cfg::ConfigVersion v) {
  const cfg::FieldSpec* level = cfg::find_field("", "level");
  auto meaning = [&](const char* l) { return std::string(level->value(l)->meaning); };
  std::vector<std::string> order;
  std::string recommended = "L1";
  if (task == "nan_check") order = {"L1"};
  else if (task == "structure") order = {"mix", "L0"}, recommended = "mix";
  else if (task == "overflow_check") order = {"L1", "L0"};
  else if (task == "free_benchmark") order = {"L1"};
  else if (task == "tensor") order = {"L1", "L0", "mix", "debug", "L2"};
  else order = {"L1", "L0", "mix", "debug"};
  (void)v;
  std::vector<Choice> out;
  for (const auto& l : order) out.push_back({l == recommended ? l + " (recommended)" : l, l, meaning(l.c_str())});
  return out;
}

}  // namespace

void LanguageServer::generate_config(Call& c) {
  json args = json::object();
  if (c.params.contains("arguments") && c.params["arguments"].is_array() && !c.params["arguments"].empty()) {
    const json& a0 = c.params["arguments"][0];
    if (a0.is_object()) args = a0;
    else if (!a0.is_null())
      throw RequestError(ErrorCode::InvalidParams,
                         "msprobe.generateConfig takes one object argument {task, level, rank, step, dump_path, "
                         "async_dump, extra_info, uri, overwrite}");
  }
  std::vector<std::string> problems;
  for (auto it = args.begin(); it != args.end(); ++it) {
    bool field = std::find(std::begin(kFieldKeys), std::end(kFieldKeys), it.key()) != std::end(kFieldKeys);
    bool other = std::find(std::begin(kOtherKeys), std::end(kOtherKeys), it.key()) != std::end(kOtherKeys);
    if (!field && !other) problems.push_back("unknown argument \"" + it.key() + "\"");
  }

  // Where to write.
  auto state = std::make_shared<Generation>();
  if (args.contains("uri")) {
    if (!args["uri"].is_string()) throw RequestError(ErrorCode::InvalidParams, "uri must be a string");
    state->uri = args["uri"].get<std::string>();
    state->path = uri_to_path(state->uri);
    if (state->path.empty()) throw RequestError(ErrorCode::InvalidParams, "uri must be a file: URI, not " + state->uri);
    state->path = absolute_path(state->path, "/");
  } else if (!workspace_folders_.empty()) {
    state->path = absolute_path("config.json", workspace_folders_.front());
    state->uri = path_to_uri(state->path);
  } else {
    throw RequestError(ErrorCode::InvalidParams, "no workspace folder is open: pass the target file as {\"uri\": ...}");
  }
  if (!inside_folders(state->path, workspace_folders_)) {
    std::string msg = "msprobe-lsp does not create " + state->path + ": it is outside the workspace folders";
    show_message(1, msg);
    throw RequestError(ErrorCode::InvalidParams, msg);
  }
  if (fs::path(state->path).extension() != ".json")
    throw RequestError(ErrorCode::InvalidParams,
                       "the config file must end in .json (msProbe rejects other names): " + state->path);
  if (args.contains("overwrite")) {
    if (!args["overwrite"].is_boolean()) problems.push_back("overwrite must be true or false");
    else state->overwrite = args["overwrite"].get<bool>();
  }
  // The core fields are confirmed with the user, never silently defaulted:
  // those not given are asked for (the rest, async_dump and extra_info, have
  // fixed defaults shown in the final confirmation).
  std::set<std::string> given;
  for (const char* k : {"task", "level", "rank", "step", "dump_path"}) {
    if (args.contains(k) && !args[k].is_null()) given.insert(k);
  }
  // The fields not given are asked for; `interactive: false` takes msProbe's
  // defaults for them instead (listed in the result's notes).
  bool interactive = given.size() < 5;
  if (args.contains("interactive")) {
    if (!args["interactive"].is_boolean()) problems.push_back("interactive must be true or false");
    else interactive = args["interactive"].get<bool>();
  }
  state->reply = c.reply;
  auto exists = [this, state] {
    std::error_code ec;
    for (const auto& [u, d] : documents_) {
      if (u == state->uri || (!d.path.empty() && d.path == state->path)) return true;
    }
    return fs::exists(state->path, ec);
  };
  auto refuse_existing = [this, state] {
    std::string msg = state->path +
                      " already exists, so nothing was written. To replace it, run msprobe.generateConfig "
                      "with {\"overwrite\": true}; you will be asked to confirm the replacement.";
    show_message(2, msg);
    state->reply({{"written", false}, {"reason", "exists"}, {"path", state->path}, {"uri", state->uri}});
  };

  // Values given as arguments.
  cfg::GenerateRequest& req = state->req;
  auto string_arg = [&](const char* key, std::string& target) {
    if (!args.contains(key) || args[key].is_null()) return;
    if (!args[key].is_string()) problems.push_back(std::string(key) + " must be a string");
    else target = args[key].get<std::string>();
  };
  auto bool_arg = [&](const char* key, bool& target) {
    if (!args.contains(key) || args[key].is_null()) return;
    if (!args[key].is_boolean()) problems.push_back(std::string(key) + " must be true or false");
    else target = args[key].get<bool>();
  };
  auto range_arg = [&](const char* key, std::vector<cfg::RangeEntry>& target) {
    if (!args.contains(key) || args[key].is_null()) return;
    const json& v = args[key];
    if (v.is_string()) {
      std::string err;
      auto list = cfg::parse_range_list(v.get<std::string>(), err);
      if (!list) problems.push_back(std::string(key) + ": " + err);
      else target = *list;
      return;
    }
    if (!v.is_array()) return problems.push_back(std::string(key) + " must be a list such as [0, 1] or [\"4-6\"]");
    for (const json& item : v) {
      cfg::RangeEntry e;
      if (item.is_number_integer()) e.number = item.get<long long>();
      else if (item.is_string()) e.is_int = false, e.text = item.get<std::string>();
      else {
        problems.push_back(std::string(key) + " entries must be integers or strings such as \"4-6\"");
        return;
      }
      target.push_back(e);
    }
  };
  string_arg("task", req.task);
  if (req.task == "structure") req.level = "mix";
  string_arg("level", req.level);
  string_arg("dump_path", req.dump_path);
  range_arg("rank", req.rank);
  range_arg("step", req.step);
  bool_arg("async_dump", req.async_dump);
  bool_arg("extra_info", req.extra_info);
  if (!problems.empty())
    throw RequestError(ErrorCode::InvalidParams, "msprobe.generateConfig: " + join(problems, "; "));
  if (exists() && !state->overwrite) return refuse_existing();

  // The last step: write, once more refusing a file that appeared meanwhile.
  auto write = [this, state, exists, refuse_existing](const cfg::GeneratedConfig& g) {
    json result{{"path", state->path}, {"uri", state->uri}, {"json", g.text}, {"notes", g.notes}};
    bool existing = exists();
    if (existing && !state->overwrite) return refuse_existing();
    auto give_up = [&](const std::string& reason) {
      show_message(2, "msProbe config not written: " + reason + ". The JSON is in the command's result.");
      result["written"] = false;
      result["reason"] = reason;
      state->reply(result);
    };
    if (!caps_.apply_edit) return give_up("the client cannot apply workspace edits");
    auto apply = [this, state, result](json edit) mutable {
      request("workspace/applyEdit", {{"label", "Generate msProbe config"}, {"edit", std::move(edit)}},
              [this, state, result](const protocol::Response& r) mutable {
                bool applied = r.ok && r.result.is_object() && r.result.value("applied", false);
                result["written"] = applied;
                if (applied) {
                  std::string notes = result["notes"].empty()
                                          ? ""
                                          : " Next: " + join(result["notes"].get<std::vector<std::string>>(), " ");
                  show_message(3, "msProbe config written to " + state->path + "." + notes);
                  refresh_config_users(state->path);
                } else {
                  std::string why = !r.ok ? r.error.value("message", std::string("the client refused the edit"))
                                    : r.result.is_object() ? r.result.value("failureReason", std::string("declined"))
                                                           : "declined";
                  result["reason"] = why;
                  show_message(2, "msProbe config not written to " + state->path + ": " + why);
                }
                state->reply(result);
              });
    };
    if (!existing) {
      // Resource operations exist only inside documentChanges, so a client that
      // lists "create" applies documentChanges even when it does not say so
      // (Neovim 0.7 to 0.9 announce resourceOperations without documentChanges).
      if (!caps_.create_files) return give_up("the client cannot create files through workspace edits");
      // CreateFile fails if the file appeared in between; it never inserts into an existing file.
      return apply(create_file_edit(state->uri, g.text));
    }
    // Replacing: the whole current text, as the client sees it.
    analysis::SourceText current;
    std::optional<int> version;
    bool found_open = false;
    for (const auto& [u, d] : documents_) {
      if (u == state->uri || (!d.path.empty() && d.path == state->path)) {
        current = *d.text;
        version = d.version;
        found_open = true;
        break;
      }
    }
    if (!found_open) {
      std::string text;
      if (!read_small_file(state->path, text, 16u << 20)) return give_up("cannot read the existing " + state->path);
      current = analysis::SourceText(std::move(text));
    }
    EditOptions o = edit_options(state->uri, version);
    json edit = replace_document_edit(
        current, g.text, o, "Replace " + fs::path(state->path).filename().string(),
        "msprobe-lsp replaces the whole content of " + state->path + " with the generated msProbe config");
    if (o.document_changes && o.change_annotations) return apply(edit);
    // Without change annotations the replacement is confirmed with a question;
    // no answer (an error or null) means no.
    request("window/showMessageRequest",
            {{"type", 2},
             {"message", "Replace the whole content of " + state->path + " with the generated msProbe config?"},
             {"actions", json::array({{{"title", "Replace"}}, {{"title", "Cancel"}}})}},
            [this, state, apply, edit, result](const protocol::Response& r) mutable {
              if (r.ok && r.result.is_object() && r.result.value("title", "") == "Replace") return apply(edit);
              show_message(3, "msProbe config: nothing was written.");
              result["written"] = false;
              result["cancelled"] = true;
              state->reply(result);
            });
  };

  // msProbe's defaults for the core fields not given, named in the notes.
  auto write_defaults = [this, state, given, write](const std::string& why) {
    cfg::GeneratedConfig g = cfg::generate_config(state->req, settings_.analysis);
    if (!g.ok()) {
      if (why.empty()) throw RequestError(ErrorCode::InvalidParams, "msprobe.generateConfig: " + join(g.errors, "; "));
      show_message(1, "msProbe config: " + join(g.errors, "; "));
      state->reply({{"written", false}, {"errors", g.errors}, {"path", state->path}, {"uri", state->uri}});
      return;
    }
    std::vector<std::string> defaulted;
    for (const char* k : {"task", "level", "rank", "step", "dump_path"}) {
      if (!given.count(k) && (!why.empty() || std::string(k) != "dump_path")) defaulted.push_back(k);
    }
    if (!defaulted.empty())
      g.notes.insert(g.notes.begin(), (why.empty() ? "not given" : why) + ", so msProbe's defaults were written for " +
                                          join(defaulted, ", ") + " (see the JSON); pass them to choose");
    write(g);
  };
  if (!interactive) return write_defaults("");
  if (!given.empty()) {
    // The values given are checked before any question is asked (msProbe's
    // defaults stand in for the fields still to ask, a placeholder for dump_path).
    cfg::GenerateRequest probe = req;
    if (!given.count("dump_path")) probe.dump_path = "/placeholder/dump_path";
    cfg::GeneratedConfig g = cfg::generate_config(probe, settings_.analysis);
    if (!g.ok()) throw RequestError(ErrorCode::InvalidParams, "msprobe.generateConfig: " + join(g.errors, "; "));
  }

  // The guided dialogue.
  cfg::ConfigVersion v = cfg::version_of(settings_.analysis);
  auto cancel = [this, state] {
    if (state->done) return;
    state->done = true;
    show_message(3, "msProbe config: cancelled, nothing was written.");
    state->reply({{"written", false}, {"cancelled", true}, {"path", state->path}, {"uri", state->uri}});
  };
  // The first answer tells whether the client can ask at all: an error, or a
  // null from a client that did not declare window.showMessage, means it
  // cannot, and msProbe's defaults are written; after that (or from a client
  // that declared it) an error or null is the user dismissing the question.
  bool declared = caps_.show_message_request;
  auto ask = [this, state, cancel, write_defaults, declared](
                 int step, const std::string& field, const std::string& question, std::vector<Choice> choices,
                 std::function<void(const std::string&)> next, const std::string& preface = std::string()) {
    std::string message = "msProbe config.json (" + std::to_string(step) + "/5) " + field + ": " + question + preface;
    json actions = json::array();
    for (const Choice& ch : choices) {
      message += "\n  " + ch.title + " — " + ch.meaning;
      actions.push_back({{"title", ch.title}});
    }
    request("window/showMessageRequest", {{"type", 3}, {"message", message}, {"actions", actions}},
            [state, choices, next, cancel, write_defaults, declared](const protocol::Response& r) {
              bool first = !state->answered;
              state->answered = true;
              if (first && (!r.ok || (r.result.is_null() && !declared))) {
                state->done = true;
                return write_defaults("the client did not answer the questions (window/showMessageRequest)");
              }
              if (!r.ok || !r.result.is_object() || !r.result.contains("title") || !r.result["title"].is_string())
                return cancel();
              std::string title = r.result["title"].get<std::string>();
              for (const Choice& ch : choices) {
                if (ch.title == title) return next(ch.value);
              }
              cancel();
            });
  };

  // When the target config exists and left a dump, what a tensor dump of it would write.
  std::string estimate;
  if (exists()) {
    std::string current;
    bool open = false;
    for (const auto& [u, d] : documents_) {
      if (u == state->uri || (!d.path.empty() && d.path == state->path)) current = d.text->text(), open = true;
    }
    if (open || read_small_file(state->path, current)) {
      std::vector<std::string> bases = {fs::path(state->path).parent_path().string()};
      bases.insert(bases.end(), workspace_folders_.begin(), workspace_folders_.end());
      PreviousDump previous = previous_dump(state->path, current, bases, settings_.analysis);
      for (const auto& line : previous.lines) estimate += "\n  " + line;
      if (!estimate.empty())
        estimate = "\nThe previous dump of this config (" + previous.dump_path + ") says:" + estimate;
    }
  }
  std::vector<Choice> tasks;
  std::vector<std::string> task_order = v == cfg::ConfigVersion::V26
                                            ? std::vector<std::string>{"statistics", "tensor", "nan_check", "structure"}
                                            : std::vector<std::string>{"statistics", "tensor", "structure",
                                                                       "overflow_check"};
  for (const auto& t : task_order) {
    const cfg::TaskSpec* spec = cfg::find_task(t);
    std::string meaning(spec->meaning);
    if (t == "tensor" && !estimate.empty()) meaning += " (see the estimate above)";
    tasks.push_back({t == "statistics" ? t + " (recommended)" : t, t, meaning});
  }
  std::string dir = fs::path(state->path).parent_path().string();
  std::string absolute_dump = absolute_path("dump_path", dir);
  std::vector<Choice> dump_paths;
  if (cfg::dump_path_problem(absolute_dump).empty())
    dump_paths.push_back({absolute_dump + " (recommended)", absolute_dump, "absolute, next to the config"});
  dump_paths.push_back({"./dump_path", "./dump_path", "relative to the directory the training starts in"});

  auto confirm = [this, state, ask, write, cancel] {
    cfg::GeneratedConfig g = cfg::generate_config(state->req, settings_.analysis);
    if (!g.ok()) {
      state->done = true;
      show_message(1, "msProbe config: " + join(g.errors, "; "));
      state->reply({{"written", false}, {"errors", g.errors}, {"path", state->path}, {"uri", state->uri}});
      return;
    }
    std::string message = "msProbe config.json for " + state->path + " (async_dump false" +
                          std::string(cfg::version_of(settings_.analysis) == cfg::ConfigVersion::V26
                                          ? ", extra_info true"
                                          : "") +
                          " are fixed defaults):\n\n" + g.text;
    for (const auto& n : g.notes) message += "\nNote: " + n;
    message += "\nWrite it?";
    request("window/showMessageRequest",
            {{"type", 3},
             {"message", message},
             {"actions", json::array({{{"title", "Write config.json"}}, {{"title", "Cancel"}}})}},
            [state, write, cancel, g](const protocol::Response& r) {
              if (r.ok && r.result.is_object() && r.result.value("title", "") == "Write config.json") {
                state->done = true;
                return write(g);
              }
              cancel();
            });
  };
  auto ask_dump_path = [state, ask, dump_paths, confirm, given] {
    if (given.count("dump_path")) return confirm();
    ask(5, "dump_path", "where the dump is written (required; an absolute path is recommended)", dump_paths,
        [state, confirm](const std::string& value) {
          state->req.dump_path = value;
          confirm();
        });
  };
  auto ask_step = [state, ask, ask_dump_path, given] {
    if (given.count("step")) return ask_dump_path();
    ask(4, "step", "which steps (counted by debugger.step()) to dump",
        {{"[0, 1] (recommended)", "[0,1]", "steps 0 and 1: a short first run"},
         {"[]", "[]", "every step (a full run)"},
         {"[0]", "[0]", "step 0 only"},
         {"[\"0-9\"]", "[\"0-9\"]", "steps 0 to 9"}},
        [state, ask_dump_path](const std::string& value) {
          std::string err;
          state->req.step = *cfg::parse_range_list(value, err);
          ask_dump_path();
        });
  };
  auto ask_rank = [state, ask, ask_step, given] {
    if (given.count("rank")) return ask_step();
    ask(3, "rank", "which ranks to dump",
        {{"[] (recommended)", "[]", "every rank; a single-card run must use []"},
         {"[0]", "[0]", "rank 0 only (needs torch.distributed)"},
         {"[0, 1]", "[0,1]", "ranks 0 and 1"},
         {"[\"0-7\"]", "[\"0-7\"]", "ranks 0 to 7"}},
        [state, ask_step](const std::string& value) {
          std::string err;
          state->req.rank = *cfg::parse_range_list(value, err);
          ask_step();
        });
  };
  auto ask_level = [state, ask, ask_rank, v, given] {
    if (given.count("level")) return ask_rank();
    ask(2, "level", "how fine-grained the dump is", level_choices(state->req.task, v),
        [state, ask_rank](const std::string& value) {
          state->req.level = value;
          ask_rank();
        });
  };
  if (given.count("task")) return ask_level();
  ask(
      1, "task", "what to collect", tasks,
      [state, ask_level](const std::string& value) {
        state->req.task = value;
        ask_level();
      },
      estimate);
}

}  // namespace msprobe::server
