// verify's short-run plan: what to run, the config copy, the dump directory,
// the runner's command line; and the child process it runs.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "child_process.h"
#include "short_run.h"

namespace fs = std::filesystem;
using namespace msprobe::server;

TEST_CASE("verify: a script, -m module and launchers") {
  std::string error;
  auto script = parse_run_target({"train.py", "--lr", "1"}, error);
  REQUIRE(script);
  CHECK_FALSE(script->module);
  CHECK(script->target == "train.py");
  CHECK(script->args == std::vector<std::string>{"--lr", "1"});
  CHECK(script->launcher.empty());

  auto module = parse_run_target({"-m", "pkg.train", "x"}, error);
  REQUIRE(module);
  CHECK(module->module);
  CHECK(module->target == "pkg.train");
  CHECK(module->args == std::vector<std::string>{"x"});

  auto torchrun = parse_run_target({"/usr/bin/torchrun", "--nproc_per_node", "2", "train.py", "--lr", "1"}, error);
  REQUIRE(torchrun);
  CHECK(torchrun->launcher == std::vector<std::string>{"/usr/bin/torchrun", "--nproc_per_node", "2"});
  CHECK(torchrun->target == "train.py");
  CHECK(torchrun->args == std::vector<std::string>{"--lr", "1"});

  // torchrun's -m flag: the module is the first word that is no option and no option's value.
  auto tr_module = parse_run_target({"torchrun", "-m", "--nnodes", "1", "pkg.train", "a"}, error);
  REQUIRE(tr_module);
  CHECK(tr_module->module);
  CHECK(tr_module->target == "pkg.train");
  CHECK(tr_module->launcher == std::vector<std::string>{"torchrun", "--nnodes", "1"});

  auto dist_run = parse_run_target({"-m", "torch.distributed.run", "--standalone", "train.py"}, error);
  REQUIRE(dist_run);
  CHECK(dist_run->launcher == std::vector<std::string>{"-m", "torch.distributed.run", "--standalone"});
  auto accelerate = parse_run_target({"accelerate", "launch", "train.py"}, error);
  REQUIRE(accelerate);
  CHECK(accelerate->launcher == std::vector<std::string>{"accelerate", "launch"});
  auto deepspeed = parse_run_target({"deepspeed", "train.py"}, error);
  REQUIRE(deepspeed);
  CHECK(deepspeed->launcher == std::vector<std::string>{"deepspeed"});

  CHECK_FALSE(parse_run_target({}, error));
  CHECK_FALSE(parse_run_target({"-m"}, error));
  CHECK_FALSE(parse_run_target({"torchrun", "--nproc_per_node", "2"}, error));
  CHECK(error.find("which word of the launcher command") != std::string::npos);
}

TEST_CASE("verify: the config copy keeps every key and limits step and dump_path") {
  std::string error;
  auto copy = short_run_config(R"({"task": "tensor", "step": [5, "7-9"], "level": "L1", "tensor": {"list": []}})", 2,
                               "/data/dump_verify", error);
  REQUIRE(copy);
  CHECK(*copy ==
        "{\n    \"task\": \"tensor\",\n    \"step\": [\n        0,\n        1\n    ],\n    \"level\": \"L1\",\n"
        "    \"tensor\": {\n        \"list\": []\n    },\n    \"dump_path\": \"/data/dump_verify\"\n}\n");
  CHECK_FALSE(short_run_config("[1, 2]", 1, "/d", error));
  CHECK_FALSE(short_run_config("{\"task\": ", 1, "/d", error));
  CHECK(error.find("not a JSON object") != std::string::npos);
}

TEST_CASE("verify: the short run dumps beside the config's dump_path, never into it") {
  CHECK(short_run_dump_dir(R"({"dump_path": "/data/dump/"})", "/home/user/proj") == "/data/dump_verify");
  CHECK(short_run_dump_dir(R"({"dump_path": "./out"})", "/home/user/proj") == "/home/user/proj/out_verify");
  CHECK(short_run_dump_dir(R"({"task": "statistics"})", "/home/user/proj") == "/home/user/proj/msprobe_verify_dump");

  fs::path root = fs::temp_directory_path() / ("msprobe-short-run-" + std::to_string(::getpid()));
  fs::remove_all(root);
  std::string error;
  fs::path dir = root / "dump_verify";
  REQUIRE(prepare_dump_dir(dir.string(), error));
  CHECK(fs::is_regular_file(dir / kDumpDirMarker));
  fs::create_directories(dir / "step0" / "proc1");
  REQUIRE(prepare_dump_dir(dir.string(), error));  // ours: emptied for the next run
  CHECK_FALSE(fs::exists(dir / "step0"));
  fs::path foreign = root / "foreign";
  fs::create_directories(foreign);
  std::ofstream(foreign / "results.txt") << "keep me";
  CHECK_FALSE(prepare_dump_dir(foreign.string(), error));
  CHECK(error.find("--dump-path") != std::string::npos);
  CHECK(fs::exists(foreign / "results.txt"));
  fs::remove_all(root);
}

TEST_CASE("verify: the runner's command line and shell quoting") {
  RunTarget t;
  t.target = "my train.py";
  t.args = {"--name", "it's"};
  auto args = runner_arguments("/r.py", "/tmp/c.json", 3, "/d", "/tmp/s.json", t);
  CHECK(args == std::vector<std::string>{"/r.py", "--config", "/tmp/c.json", "--steps", "3", "--dump-path", "/d",
                                         "--status", "/tmp/s.json", "--", "my train.py", "--name", "it's"});
  CHECK(shell_command({"python3", "my train.py", "it's", "a=b"}) == "python3 'my train.py' 'it'\\''s' a=b");
  t.module = true;
  t.target = "pkg.train";
  t.args = {};
  CHECK(runner_arguments("/r.py", "/c", 1, "/d", "", t) == std::vector<std::string>{"/r.py", "--config", "/c",
                                                                                    "--steps", "1", "--dump-path", "/d",
                                                                                    "-m", "pkg.train", "--"});
}

TEST_CASE("verify: the child's output is passed through and split into lines") {
  int out[2];
  REQUIRE(::pipe(out) == 0);
  std::vector<std::pair<int, std::string>> lines;
  ChildResult r = run_child({"sh", "-c", "echo one; echo '[ERROR] two' >&2; printf three; exit 3"}, {"X=1"}, out[1],
                            out[1], [&](int stream, const std::string& line) { lines.emplace_back(stream, line); });
  ::close(out[1]);
  std::string passed;
  char buf[256];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) passed.append(buf, static_cast<std::size_t>(n));
  ::close(out[0]);
  CHECK(r.started);
  CHECK(r.exit_code == 3);
  CHECK(passed.find("one\n") != std::string::npos);
  CHECK(passed.find("three") != std::string::npos);
  CHECK(std::find(lines.begin(), lines.end(), std::make_pair(1, std::string("one"))) != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), std::make_pair(2, std::string("[ERROR] two"))) != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), std::make_pair(1, std::string("three"))) != lines.end());
  ChildResult missing = run_child({"/nonexistent/binary"}, {}, 1, 2, nullptr);
  CHECK_FALSE(missing.started);
  CHECK(missing.error.find("cannot run") != std::string::npos);
}
