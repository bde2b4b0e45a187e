// `msprobe-lsp enable|disable|remove FILE [--diff | --write]` and
// `msprobe-lsp vllm-ascend-flags CONFIG`: the same edits the server offers as
// code actions, printed (the new text, or a diff) or written atomically.
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "file_io.h"
#include "cli/unified_diff.h"
#include "config_lookup.h"
#include "msprobe/analysis/instrument.h"

namespace msprobe::cli {
namespace {

constexpr const char* kInstrumentUsage =
    "usage: msprobe-lsp enable FILE [--loop LINE] [--config PATH] [--diff | --write]\n"
    "       msprobe-lsp disable FILE [--diff | --write]\n"
    "       msprobe-lsp remove FILE [--diff | --write]\n"
    "Without --diff or --write the edited file goes to stdout; the file itself is only\n"
    "changed with --write (atomically: a temporary file renamed over it).\n";

}  // namespace

int run_instrument(const std::string& command, const Args& args) {
  auto usage = [&](const std::string& why) {
    if (!why.empty()) std::cerr << "msprobe-lsp " << command << ": " << why << "\n";
    std::cerr << kInstrumentUsage;
    return 2;
  };
  for (const auto& e : args.errors) return usage(e);
  if (args.positional.size() != 1) return usage(args.positional.empty() ? "a FILE is needed" : "only one FILE at a time");
  if (args.has("--diff") && args.has("--write")) return usage("--diff and --write exclude each other");
  if (command != "enable" && (args.has("--loop") || args.has("--config")))
    return usage("--loop and --config are options of enable");
  const std::string& path = args.positional.front();

  analysis::InstrumentOptions options;
  if (args.has("--loop")) {
    const std::string v = args.get("--loop");
    char* end = nullptr;
    long line = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || line < 1) return usage("--loop needs a line number (1-based)");
    options.loop_line = static_cast<uint32_t>(line - 1);
  }
  options.config_path = server::config_path_for(path, args.get("--config", server::kDefaultConfigPath));

  std::string text, error;
  if (!read_file(path, text, error)) {
    std::cerr << "msprobe-lsp " << command << ": " << error << "\n";
    return 2;
  }
  analysis::SourceText source(text);
  analysis::PythonParser parser;
  analysis::Analysis a = analysis::analyze(parser, source, analysis_options(args));
  analysis::InstrumentResult r = command == "enable"    ? analysis::enable(source, a, options)
                                 : command == "disable" ? analysis::disable_dump(source, a)
                                                        : analysis::remove_dump(source, a);
  if (!r.ok()) {
    std::cerr << "msprobe-lsp " << command << ": " << path << ": " << r.error << "\n";
    return 1;
  }
  for (const std::string& note : r.notes) std::cerr << path << ": note: " << note << "\n";
  std::string result = analysis::apply_edits(text, r.all_edits());
  if (args.has("--diff")) {
    std::cout << unified_diff(text, result, "a/" + path, "b/" + path);
  } else if (args.has("--write")) {
    if (result != text && !server::atomic_write(path, result, &error)) {
      std::cerr << "msprobe-lsp " << command << ": " << error << " (the file is unchanged)\n";
      return 2;
    }
    std::cerr << path << ": " << (result == text ? "unchanged: " : "") << r.summary << "\n";
  } else {
    std::cout << result;
  }
  return 0;
}

int run_vllm_ascend_flags(const Args& args) {
  if (!args.errors.empty() || args.positional.size() != 1) {
    std::cerr << "usage: msprobe-lsp vllm-ascend-flags CONFIG.json\n";
    return 2;
  }
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(args.positional.front(), ec);
  if (ec) {
    std::cerr << "msprobe-lsp vllm-ascend-flags: " << ec.message() << "\n";
    return 2;
  }
  std::cout << analysis::vllm_ascend_flags(p.lexically_normal().string()) << "\n";
  if (!std::filesystem::is_regular_file(p, ec)) {
    // The flag is still printed (the file may be written later), but vLLM
    // would fail at start-up today.
    std::cerr << "msprobe-lsp vllm-ascend-flags: warning: " << p.lexically_normal().string()
              << " does not exist yet (create it with `msprobe-lsp config --output`)\n";
    return 1;
  }
  return 0;
}

}  // namespace msprobe::cli
