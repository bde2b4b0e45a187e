// verify's short-run plan: target, config copy, dump directory, runner command.
#include "short_run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "config_paths.h"
#include "msprobe/analysis/config/config_check.h"

namespace msprobe::server {
namespace fs = std::filesystem;

namespace {

bool is_option(const std::string& w) { return w.size() > 1 && w[0] == '-'; }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The launcher words before the script, and the script (with its arguments) after them.
bool split_launcher(const std::vector<std::string>& words, std::size_t first, RunTarget& t, std::string& error) {
  bool module = false;
  std::size_t module_flag = words.size();
  for (std::size_t i = first; i < words.size(); ++i) {
    if (words[i] == "-m" || words[i] == "--module") {
      module = true;
      module_flag = i;
      break;
    }
    if (!is_option(words[i]) && ends_with(words[i], ".py")) {
      t.launcher.assign(words.begin(), words.begin() + static_cast<long>(i));
      t.target = words[i];
      t.args.assign(words.begin() + static_cast<long>(i) + 1, words.end());
      return true;
    }
  }
  if (module) {
    // The module is the first word after the flag that is neither an option
    // nor the value of an option written as "--name value".
    for (std::size_t i = module_flag + 1; i < words.size(); ++i) {
      const std::string& prev = words[i - 1];
      bool value_of_prev = i - 1 != module_flag && is_option(prev) && prev.find('=') == std::string::npos;
      if (is_option(words[i]) || value_of_prev) continue;
      for (std::size_t j = 0; j < i; ++j) {
        if (j != module_flag) t.launcher.push_back(words[j]);
      }
      t.module = true;
      t.target = words[i];
      t.args.assign(words.begin() + static_cast<long>(i) + 1, words.end());
      return true;
    }
  }
  error = "cannot tell which word of the launcher command is the training script (a .py file, or the module after -m)";
  return false;
}

}  // namespace

std::optional<RunTarget> parse_run_target(const std::vector<std::string>& positional, std::string& error) {
  RunTarget t;
  if (positional.empty()) {
    error = "no script: give SCRIPT [-- ARGS...] or -m MODULE [-- ARGS...]";
    return std::nullopt;
  }
  std::string head = fs::path(positional[0]).filename().string();
  if (head == "torchrun" || head == "deepspeed") {
    if (!split_launcher(positional, 1, t, error)) return std::nullopt;
    return t;
  }
  if (head == "accelerate" && positional.size() > 1 && positional[1] == "launch") {
    if (!split_launcher(positional, 2, t, error)) return std::nullopt;
    return t;
  }
  if (positional[0] == "-m") {
    if (positional.size() < 2 || positional[1].empty()) {
      error = "-m needs a module name";
      return std::nullopt;
    }
    if (positional[1] == "torch.distributed.run" || positional[1] == "torch.distributed.launch") {
      if (!split_launcher(positional, 2, t, error)) return std::nullopt;
      return t;
    }
    t.module = true;
    t.target = positional[1];
    t.args.assign(positional.begin() + 2, positional.end());
    return t;
  }
  t.target = positional[0];
  t.args.assign(positional.begin() + 1, positional.end());
  return t;
}

std::string module_file(const std::string& module, const std::string& cwd) {
  std::string rel = module;
  std::replace(rel.begin(), rel.end(), '.', '/');
  std::error_code ec;
  for (const fs::path& p : {fs::path(cwd) / (rel + ".py"), fs::path(cwd) / rel / "__main__.py"}) {
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return std::string();
}

std::optional<std::string> short_run_config(const std::string& config_text, int steps, const std::string& dump_dir,
                                            std::string& error) {
  nlohmann::ordered_json config = nlohmann::ordered_json::parse(config_text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded() || !config.is_object()) {
    error = "the config is not a JSON object that msProbe can read (see `msprobe-lsp check` on it)";
    return std::nullopt;
  }
  nlohmann::ordered_json step = nlohmann::ordered_json::array();
  for (int i = 0; i < steps; ++i) step.push_back(i);
  config["step"] = step;
  config["dump_path"] = dump_dir;
  return config.dump(4, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string short_run_dump_dir(const std::string& config_text, const std::string& cwd) {
  analysis::config::ConfigSummary s = analysis::config::summarize_config(config_text);
  if (!s.dump_path_set || s.dump_path.empty()) return absolute_path("msprobe_verify_dump", cwd);
  std::string p = absolute_path(s.dump_path, cwd);
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p + "_verify";
}

bool prepare_dump_dir(const std::string& dir, std::string& error) {
  std::error_code ec;
  fs::path d(dir);
  fs::path marker = d / kDumpDirMarker;
  if (fs::exists(d, ec)) {
    if (!fs::is_directory(d, ec)) {
      error = dir + " exists and is not a directory; pass --dump-path DIR";
      return false;
    }
    bool ours = fs::is_regular_file(marker, ec);
    bool empty = fs::is_empty(d, ec);
    if (!ours && !empty) {
      error = dir +
              " already holds files that an earlier `msprobe-lsp verify` did not write; pass --dump-path DIR "
              "(or remove it)";
      return false;
    }
    // A previous short run's dump: its step folders would mix with this run's.
    for (auto it = fs::directory_iterator(d, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (it->path().filename() != kDumpDirMarker) fs::remove_all(it->path(), ec);
    }
  } else if (!fs::create_directories(d, ec)) {
    error = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  std::ofstream(marker) << "made by msprobe-lsp verify; its contents are replaced by the next short run\n";
  if (!fs::is_regular_file(marker, ec)) {
    error = "cannot write in " + dir;
    return false;
  }
  return true;
}

std::vector<std::string> runner_arguments(const std::string& runner, const std::string& config_copy, int steps,
                                          const std::string& dump_dir, const std::string& status_file,
                                          const RunTarget& target) {
  std::vector<std::string> out = {runner,        "--config", config_copy, "--steps", std::to_string(steps),
                                  "--dump-path", dump_dir};
  if (!status_file.empty()) out.insert(out.end(), {"--status", status_file});
  if (target.module) out.insert(out.end(), {"-m", target.target, "--"});
  else out.insert(out.end(), {"--", target.target});
  out.insert(out.end(), target.args.begin(), target.args.end());
  return out;
}

std::string shell_command(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || std::string("_./=:,+-@%").find(c) != std::string::npos;
    });
    if (!out.empty()) out += ' ';
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace msprobe::server
