// The environment: settings versus what the interpreter (msprobe.pythonPath)
// reports versus pins in requirements files. Explicit settings win, then the
// probe, then the pins. The probe runs in the background; its result updates
// the analysis options and re-checks the open documents.
#include <spdlog/spdlog.h>

#include "language_server.h"
#include "msprobe/analysis/config/config_schema.h"

namespace msprobe::server {

void LanguageServer::start_config_services() {
  if (config_.started) return;
  config_.started = true;
  if (caps_.did_change_watched_files_dynamic) {
    json watchers = json::array({{{"globPattern", "**/*.json"}}});
    request("client/registerCapability",
            {{"registrations", json::array({{{"id", "msprobe-config-files"},
                                             {"method", "workspace/didChangeWatchedFiles"},
                                             {"registerOptions", {{"watchers", watchers}}}}})}},
            [](const protocol::Response& r) {
              if (!r.ok) spdlog::info("the client did not register the config file watcher");
            });
  }
  config_.pins = read_pins(workspace_folders_);
  if (apply_environment()) {
    for (auto& [uri, doc] : documents_) schedule_analysis(doc, /*immediately=*/true, /*force=*/true);
  }
  start_environment_probe(/*npu=*/false);
}

void LanguageServer::on_settings_replaced(const std::string& previous_python) {
  config_.explicit_torch = settings_.analysis.torch_version;
  config_.explicit_msprobe = settings_.analysis.msprobe_version;
  bool python_changed = previous_python != settings_.python_path;
  if (python_changed) {
    config_.env.reset();
    config_.npu_env.reset();
    config_.npu_probe_started = false;
  }
  apply_environment();
  if (config_.started && python_changed) start_environment_probe(/*npu=*/false);
}

void LanguageServer::start_environment_probe(bool npu) {
  if (!settings_.probe_environment || child_processes_forbidden_) return;
  if (npu) config_.npu_probe_started = true;
  spdlog::info("asking {} for {}", settings_.python_path,
               npu ? "torch_npu and the NPU" : "the torch and msProbe versions");
  config_.probe->start(settings_.python_path, npu, [this, npu](ProbeResult r) { on_probe_result(r, npu); });
}

void LanguageServer::on_probe_result(const ProbeResult& r, bool npu) {
  if (state_ == State::Exited || r.python != settings_.python_path) return;  // a stale answer
  spdlog::info("probe of {} ({} ms): ran={} torch={} msprobe={} {}", r.python, r.elapsed_ms, r.ran,
               r.torch.value_or("-"), r.msprobe.value_or("-"), r.error);
  auto tell_once = [&](int type, const std::string& key, const std::string& message) {
    if (config_.told.insert(key).second) show_message(type, message);
    else log_message(type, message);
  };
  if (npu) {
    config_.npu_env = r;
  } else {
    config_.env = r;
    if (!r.ran) {
      std::string fallback = config_.pins.source.empty() ? "" : "; using the versions pinned in " + config_.pins.source;
      tell_once(2, "noprobe:" + r.python,
                "msprobe-lsp: could not ask " + r.python +
                    " (msprobe.pythonPath) for its torch and msProbe versions: " + r.error + fallback);
    } else if (!r.msprobe) {
      tell_once(2, "nomsprobe:" + r.python,
                "msProbe (mindstudio-probe) is not installed for " + r.python +
                    ". Install it with: pip3 install -U mindstudio-probe");
    }
  }
  if (apply_environment()) {
    for (auto& [uri, doc] : documents_) {
      if (npu && doc.kind != DocumentKind::Json) continue;
      schedule_analysis(doc, /*immediately=*/true, /*force=*/true);
    }
  }
}

bool LanguageServer::apply_environment() {
  auto& a = settings_.analysis;
  auto before = std::make_tuple(a.torch_version ? a.torch_version->text : "",
                                a.msprobe_version ? a.msprobe_version->text : "", a.torch_npu_importable,
                                a.npu_available);
  auto pick = [&](const std::optional<analysis::Version>& explicit_value, const std::optional<std::string>& probed,
                  const std::optional<std::string>& pinned, std::optional<analysis::Version>& target,
                  std::string& source) {
    target.reset();
    source = "unknown";
    if (explicit_value) {
      target = explicit_value;
      source = "settings";
    } else if (probed && (target = analysis::Version::parse(*probed))) {
      source = "interpreter";
    } else if (pinned && (target = analysis::Version::parse(*pinned))) {
      source = config_.pins.source;
    }
  };
  std::optional<std::string> torch, msprobe;
  if (config_.env && config_.env->ran) torch = config_.env->torch, msprobe = config_.env->msprobe;
  pick(config_.explicit_torch, torch, config_.pins.torch, a.torch_version, config_.torch_source);
  pick(config_.explicit_msprobe, msprobe, config_.pins.msprobe, a.msprobe_version, config_.msprobe_source);
  a.torch_npu_importable.reset();
  a.npu_available.reset();
  if (config_.npu_env && config_.npu_env->ran && config_.npu_env->npu_checked) {
    a.torch_npu_importable = config_.npu_env->torch_npu;
    a.npu_available = config_.npu_env->npu_available;
  }
  auto after = std::make_tuple(a.torch_version ? a.torch_version->text : "",
                               a.msprobe_version ? a.msprobe_version->text : "", a.torch_npu_importable,
                               a.npu_available);
  return before != after;
}

json LanguageServer::config_info() const {
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  auto optb = [](const std::optional<bool>& b) { return b ? json(*b) : json(nullptr); };
  json env = nullptr;
  if (config_.env) {
    const ProbeResult& r = *config_.env;
    env = {{"python", r.python},
           {"ran", r.ran},
           {"error", r.error},
           {"timedOut", r.timed_out},
           {"pythonVersion", r.python_version},
           {"torch", opt(r.torch)},
           {"msprobe", opt(r.msprobe)},
           {"elapsedMs", r.elapsed_ms}};
  }
  json npu = nullptr;
  if (config_.npu_env) {
    const ProbeResult& r = *config_.npu_env;
    npu = {{"ran", r.ran},
           {"torchNpu", optb(r.torch_npu)},
           {"npuAvailable", optb(r.npu_available)},
           {"error", r.error.empty() ? r.npu_error : r.error}};
  }
  json users = json::object();
  for (const auto& [path, uris] : config_.users) users[path] = uris;
  const auto& a = settings_.analysis;
  return {{"environment", env},
          {"npu", npu},
          {"pins",
           {{"torch", opt(config_.pins.torch)}, {"msprobe", opt(config_.pins.msprobe)}, {"file", config_.pins.source}}},
          {"torchVersionSource", config_.torch_source},
          {"msprobeVersionSource", config_.msprobe_source},
          {"configRules", analysis::config::to_string(analysis::config::version_of(a))},
          {"probeEnvironment", settings_.probe_environment},
          {"configGlobs", settings_.config_globs},
          {"configUsers", users}};
}

}  // namespace msprobe::server
