// Subcommand dispatch and shared option parsing.
#include "cli.h"
#include "file_io.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace msprobe::cli {

Args parse_args(int argc, char** argv, int first, const std::vector<std::string>& flags) {
  Args a;
  for (int i = first; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--") {
      for (++i; i < argc; ++i) a.positional.push_back(argv[i]);
      break;
    }
    if (s.rfind("--", 0) != 0 || s.size() == 2) {
      a.positional.push_back(s);
      continue;
    }
    std::size_t eq = s.find('=');
    if (eq != std::string::npos) {
      a.options[s.substr(0, eq)] = s.substr(eq + 1);
    } else if (std::find(flags.begin(), flags.end(), s) != flags.end()) {
      a.options[s] = "1";
    } else if (i + 1 < argc) {
      a.options[s] = argv[++i];
    } else {
      a.errors.push_back("option " + s + " needs a value");
    }
  }
  return a;
}

analysis::AnalysisOptions analysis_options(const Args& args) {
  analysis::AnalysisOptions o;
  o.directory_exists = server::directory_check();
  if (args.has("--torch-version")) o.torch_version = analysis::Version::parse(args.get("--torch-version"));
  if (args.has("--msprobe-version")) o.msprobe_version = analysis::Version::parse(args.get("--msprobe-version"));
  if (args.has("--config")) o.config_path = args.get("--config");
  std::stringstream codes(args.get("--disable"));
  std::string code;
  while (std::getline(codes, code, ',')) {
    if (!code.empty()) o.disabled_rules.insert(code);
  }
  return o;
}

bool read_file(const std::string& path, std::string& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open " + path;
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read " + path;
    return false;
  }
  out = ss.str();
  return true;
}

bool is_command(const std::string& name) {
  static const char* kCommands[] = {"check",   "config", "check-dump",        "schema",  "rules", "enable",
                                    "disable", "remove", "vllm-ascend-flags", "explain", "verify"};
  for (const char* c : kCommands) {
    if (name == c) return true;
  }
  return false;
}

std::optional<int> run(int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  std::string cmd = argv[1];
  if (cmd == "check") return run_check(parse_args(argc, argv, 2, {"--quiet", "--no-syntax-errors", "--no-project"}));
  if (cmd == "config") return run_config(parse_args(argc, argv, 2, {"--force"}));
  if (cmd == "check-dump") return run_check_dump(parse_args(argc, argv, 2, {}));
  if (cmd == "schema") return run_schema(parse_args(argc, argv, 2, {}));
  if (cmd == "rules") return run_rules(parse_args(argc, argv, 2, {}));
  if (cmd == "enable" || cmd == "disable" || cmd == "remove")
    return run_instrument(cmd, parse_args(argc, argv, 2, {"--diff", "--write"}));
  if (cmd == "vllm-ascend-flags") return run_vllm_ascend_flags(parse_args(argc, argv, 2, {}));
  if (cmd == "explain") return run_explain(parse_args(argc, argv, 2, {}));
  if (cmd == "verify") return run_verify(parse_args(argc, argv, 2, {"--keep"}));
  return std::nullopt;
}

}  // namespace msprobe::cli
