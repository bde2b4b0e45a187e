// The project layer on in-memory projects: import resolution (absolute,
// relative, src/ layouts, namespace packages, sys.path inserts), names
// through re-exports and star imports, class hierarchies across files, loop
// roles that need other modules, entries and where the debugger goes, and
// the scan's limits on real folders (skipped folders, symlink loops).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "edit_chains.h"
#include "facts_builder.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"
#include "msprobe/analysis/project_instrument.h"
#include "msprobe/analysis/syntax.h"
#include "project/modules.h"
#include "project/session.h"
#include "project/summary.h"

using namespace msprobe::analysis;
using msprobe::test::findings_text;
namespace fs = std::filesystem;

namespace {

using Files = std::map<std::string, std::string>;

struct Project {
  Files files;
  std::shared_ptr<const ProjectSnapshot> snapshot;
  FileReader read;
};

Project make(Files files, std::vector<std::string> roots = {""}) {
  Project p{std::move(files), nullptr, nullptr};
  const Files* f = &p.files;
  p.read = [f](const std::string& rel) -> std::optional<std::string> {
    auto it = f->find(rel);
    if (it == f->end()) return std::nullopt;
    return it->second;
  };
  ScanResult scan;
  for (const auto& kv : p.files) scan.files.push_back(kv.first);
  scan.package_roots = std::move(roots);
  p.snapshot = index_project("/project", scan, p.read, 1);
  return p;
}

// The loop facts of `rel` derived across the project.
FileFacts loops_of(const Project& p, const std::string& rel) {
  SourceText src(p.files.at(rel));
  PythonParser parser;
  TreePtr tree = parser.parse(src.view());
  REQUIRE(tree);
  FileFacts facts = build_facts(tree, src.view());
  auto summary = summarize(src, facts);
  derive_loops_in_project(src, facts, *p.snapshot, rel, *summary);
  return facts;
}

std::optional<ProjectPlan> plan(const Project& p, const std::string& rel, ProjectPlanOptions o = {},
                                std::string* error = nullptr) {
  return plan_project(*p.snapshot, rel, p.read, o, error);
}

const char* kStepFn =
    "def train_step(model, batch, opt):\n"
    "    loss = model(batch).sum()\n"
    "    loss.backward()\n"
    "    opt.step()\n";

// A module whose loop runs the dump calls, and entry scripts that import it
// and build the debugger or not.
const std::string kDumpLoop =
    "from msprobe.pytorch import PrecisionDebugger\n"
    "def fit(model, data, opt):\n"
    "    for b in data:\n"
    "        PrecisionDebugger.start(model)\n"
    "        model(b).sum().backward()\n"
    "        opt.step()\n"
    "        PrecisionDebugger.stop()\n"
    "        PrecisionDebugger.step()\n";
const std::string kBuildsDebugger =
    "from msprobe.pytorch import PrecisionDebugger\nfrom loop import fit\n"
    "debugger = PrecisionDebugger(config_path='./config.json')\nif __name__ == '__main__':\n    fit(m, d, o)\n";
const std::string kBuildsNothing = "from loop import fit\nif __name__ == '__main__':\n    fit(m, d, o)\n";

// A project folder of tests/projects: its Python files and how it scans.
Files read_example(const std::string& name, ScanResult& scan) {
  fs::path root = fs::path(MSPROBE_TESTS_DIR) / "projects" / name;
  scan = scan_project(root.string());
  Files files;
  for (const std::string& rel : scan.files) {
    std::ifstream in(root / rel, std::ios::binary);
    files[rel] = std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

}  // namespace

TEST_CASE("index_project leaves the files the caller provides unread and out of the snapshot") {
  Files files = {{"train.py", "from model import Net\nmodel = Net()\n"},
                 {"model.py", "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n"},
                 {"data.py", "def load():\n    return []\n"}};
  std::vector<std::string> reads;
  FileReader read = [&](const std::string& rel) -> std::optional<std::string> {
    reads.push_back(rel);
    return files.at(rel);
  };
  ScanResult scan;
  for (const auto& kv : files) scan.files.push_back(kv.first);
  scan.package_roots = {""};
  IndexControl control;
  std::size_t last_done = 0, last_total = 0;
  control.progress = [&](std::size_t done, std::size_t total) { last_done = done, last_total = total; };
  control.provided = [](const std::string& rel) { return rel == "model.py"; };
  int waits = 0;
  control.before_file = [&] { ++waits; };
  std::vector<std::string> skipped;
  auto snapshot = index_project("/project", scan, read, 1, &skipped, &control);
  CHECK(reads == std::vector<std::string>{"data.py", "train.py"});
  CHECK(waits == 2);  // no wait (the server yields to the editor there) before a file it does not read
  CHECK(snapshot->file("model.py") == nullptr);
  CHECK(snapshot->file("train.py") != nullptr);
  CHECK(snapshot->files().size() == 2);
  CHECK(skipped.empty());  // provided is not skipped
  CHECK(last_done == 3);   // the progress still counts every file
  CHECK(last_total == 3);
}

TEST_CASE("module names resolve like Python's import system") {
  Project p = make({{"pkg/__init__.py", ""},
                    {"pkg/sub/__init__.py", ""},
                    {"pkg/sub/mod.py", ""},
                    {"pkg/util.py", ""},
                    {"nsp/inner.py", ""},  // a namespace package: no __init__.py
                    {"src/lib/core.py", ""},
                    {"app/main.py", ""},
                    {"app/helper.py", ""}},
                   {"", "src"});
  const ModuleTable& m = p.snapshot->modules();
  CHECK(m.resolve("x.py", "pkg.sub.mod", false)->file == "pkg/sub/mod.py");
  CHECK(m.resolve("x.py", "pkg", false)->file == "pkg/__init__.py");
  CHECK(m.resolve("x.py", "pkg", false)->dir == "pkg");
  CHECK(m.resolve("x.py", "nsp", false)->file.empty());
  CHECK(m.resolve("x.py", "nsp.inner", false)->file == "nsp/inner.py");
  CHECK(m.resolve("x.py", "lib.core", false)->file == "src/lib/core.py");  // the src/ layout
  CHECK_FALSE(m.resolve("x.py", "torch.nn", false));                       // not a project module
  // Relative imports climb from the importing module's package.
  CHECK(m.resolve("pkg/sub/mod.py", ".", false)->file == "pkg/sub/__init__.py");
  CHECK(m.resolve("pkg/sub/mod.py", "..util", false)->file == "pkg/util.py");
  CHECK(m.resolve("pkg/sub/__init__.py", ".mod", false)->file == "pkg/sub/mod.py");
  CHECK_FALSE(m.resolve("pkg/util.py", "...far", false));  // above the root
  // A script's own folder comes first; other modules fall back to it.
  CHECK(m.resolve("app/main.py", "helper", true)->file == "app/helper.py");
  CHECK(m.resolve("app/main.py", "helper", false)->file == "app/helper.py");
}

TEST_CASE("folders put on sys.path by the code are searched") {
  Project p = make(
      {{"tools/run.py",
        "import os, sys\n"
        "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'third'))\n"},
       {"deep/a/b/run2.py",
        "import sys\nfrom pathlib import Path\nsys.path.append(str(Path(__file__).resolve().parents[2]))\n"},
       {"third/vendored.py", ""},
       {"deep/lib2.py", ""}});
  const ModuleTable& m = p.snapshot->modules();
  CHECK(m.resolve("x.py", "vendored", false)->file == "third/vendored.py");
  CHECK(m.resolve("x.py", "lib2", false)->file == "deep/lib2.py");
  CHECK(normalize_relative("a/b/../../c") == std::optional<std::string>("c"));
  CHECK_FALSE(normalize_relative("a/../.."));
}

TEST_CASE("names resolve through re-exports, aliases and star imports, and classes through files") {
  Project p = make(
      {{"pkg/__init__.py", "from .impl import Trainer as Trainer\nfrom .star import *\n"},
       {"pkg/impl.py", "from .base import Base\nclass Trainer(Base):\n    def fit(self):\n        pass\n"},
       {"pkg/base.py",
        "class Base:\n    def train(self):\n        self.fit()\n    def fit(self):\n        raise NotImplementedError\n"},
       {"pkg/star.py", "def helper():\n    pass\n"},
       {"user.py", "import pkg as p\nfrom pkg import helper\n"}});
  ProjectSession s(*p.snapshot, "", nullptr);
  Symbol t = s.lookup("user.py", "p.Trainer");
  REQUIRE(t.kind == Symbol::Kind::Class);
  CHECK(t.file == "pkg/impl.py");
  Symbol h = s.lookup("user.py", "helper");
  REQUIRE(h.kind == Symbol::Kind::Function);
  CHECK(h.file == "pkg/star.py");
  // train() is inherited from another file; fit() is overridden.
  std::optional<FunctionRef> train = s.method({t.file, t.index}, "train");
  REQUIRE(train);
  CHECK(train->file == "pkg/base.py");
  std::optional<FunctionRef> fit = s.method({t.file, t.index}, "fit");
  REQUIRE(fit);
  CHECK(fit->file == "pkg/impl.py");
  Symbol base = s.lookup("pkg/base.py", "Base");
  std::vector<FunctionRef> overrides = s.overrides({base.file, base.index}, "fit");
  REQUIRE(overrides.size() == 1);
  CHECK(overrides[0].file == "pkg/impl.py");
}

TEST_CASE("cycles in imports and class hierarchies end") {
  Project p = make({{"a.py", "from b import *\nfrom b import B\nclass A(B):\n    pass\n"},
                    {"b.py", "from a import *\nfrom a import A\nclass B(A):\n    pass\n"}});
  ProjectSession s(*p.snapshot, "", nullptr);
  CHECK(s.lookup("a.py", "missing").kind == Symbol::Kind::None);
  Symbol a = s.lookup("a.py", "A");
  REQUIRE(a.kind == Symbol::Kind::Class);
  CHECK_FALSE(s.method({a.file, a.index}, "nothing"));
  CHECK(s.overrides({a.file, a.index}, "nothing").empty());
}

TEST_CASE("a loop whose forward, backward and step are in another module trains") {
  Project p = make({{"steps.py", kStepFn},
                    {"train.py",
                     "from steps import train_step\n"
                     "def main(model, data, opt):\n"
                     "    for batch in data:\n"
                     "        train_step(model, batch, opt)\n"}});
  FileFacts f = loops_of(p, "train.py");
  REQUIRE(f.loop_info.size() == 1);
  CHECK(f.loop_info[0].role == LoopRole::Train);
  CHECK(f.loop_info[0].model == "model");
  // Alone, the file does not know: the call is unknown.
  SourceText src(p.files.at("train.py"));
  PythonParser parser;
  FileFacts alone = build_facts(parser.parse(src.view()), src.view());
  CHECK(alone.loop_info.empty());
}

TEST_CASE("a method of an instance of another module's class runs there, the model seen through the instance") {
  Project p = make({{"trainer.py",
                     "class Trainer:\n"
                     "    def __init__(self, net, opt):\n"
                     "        self.net = net\n"
                     "        self.opt = opt\n"
                     "    def train_step(self, batch):\n"
                     "        self.net(batch).sum().backward()\n"
                     "        self.opt.step()\n"},
                    {"run.py",
                     "from trainer import Trainer\n"
                     "trainer = Trainer(net, opt)\n"
                     "for batch in loader:\n"
                     "    trainer.train_step(batch)\n"}});
  FileFacts f = loops_of(p, "run.py");
  REQUIRE(f.loop_info.size() == 1);
  CHECK(f.loop_info[0].role == LoopRole::Train);
  CHECK(f.loop_info[0].model == "trainer.net");
}

TEST_CASE("a base-class loop calls the overrides of its subclasses in other files") {
  Project p = make({{"base.py",
                     "class Base:\n"
                     "    def train(self, n):\n"
                     "        for self.iter in range(n):\n"
                     "            self.run_step()\n"
                     "    def run_step(self):\n"
                     "        raise NotImplementedError\n"},
                    {"simple.py",
                     "from base import Base\n"
                     "class Simple(Base):\n"
                     "    def run_step(self):\n"
                     "        loss = self.model(next(self.data)).mean()\n"
                     "        loss.backward()\n"
                     "        self.optimizer.step()\n"},
                    {"launch.py", "from simple import Simple\nif __name__ == '__main__':\n    Simple().train(3)\n"}});
  FileFacts f = loops_of(p, "base.py");
  REQUIRE(f.loop_info.size() == 1);
  CHECK(f.loop_info[0].role == LoopRole::Train);
  CHECK(f.loop_info[0].model == "self.model");
  std::optional<ProjectPlan> pl = plan(p, "base.py");
  REQUIRE(pl);
  CHECK(pl->entry.construct_file == "launch.py");
  CHECK(pl->construct_after_line == std::optional<uint32_t>(0));
  CHECK_FALSE(pl->single_file());
}

TEST_CASE("super() reaches the base class's method") {
  Project p = make(
      {{"base.py",
        "class Base:\n    def step_all(self, b):\n        self.model(b).sum().backward()\n        self.opt.step()\n"},
       {"child.py",
        "from base import Base\n"
        "class Child(Base):\n"
        "    def step_all(self, b):\n"
        "        return super().step_all(b)\n"
        "    def fit(self, data):\n"
        "        for b in data:\n"
        "            self.step_all(b)\n"}});
  FileFacts f = loops_of(p, "child.py");
  REQUIRE(f.loop_info.size() == 1);
  CHECK(f.loop_info[0].role == LoopRole::Train);
}

TEST_CASE("the entry that reaches the loop gets the construction; a worker started by spawn gets it inside") {
  Project p = make(
      {{"steps.py", kStepFn},
       {"loop.py",
        "from steps import train_step\n"
        "def fit(model, data, opt):\n"
        "    for batch in data:\n"
        "        train_step(model, batch, opt)\n"},
       {"a_train.py", "import torch\nfrom loop import fit\nif __name__ == '__main__':\n    fit(m, d, o)\n"},
       {"b_train.py", "from loop import fit\nfit(m, d, o)\n"},
       {"spawner.py",
        "import torch.multiprocessing as mp\n"
        "from loop import fit\n"
        "def worker(rank):\n"
        "    \"\"\"doc\"\"\"\n"
        "    fit(m, d, o)\n"
        "if __name__ == '__main__':\n"
        "    mp.spawn(worker, nprocs=2)\n"},
       {"unrelated.py", "if __name__ == '__main__':\n    print('hello')\n"}});
  std::optional<ProjectPlan> pl = plan(p, "loop.py");
  REQUIRE(pl);
  REQUIRE(pl->entries.size() == 3);
  CHECK(pl->entry.file == "a_train.py");
  CHECK(pl->construct_after_line == std::optional<uint32_t>(1));
  ProjectPlanOptions o;
  o.entry = "spawner.py";
  std::optional<ProjectPlan> sp = plan(p, "loop.py", o);
  REQUIRE(sp);
  CHECK(sp->entry.construct_file == "spawner.py");
  CHECK(sp->entry.worker == "worker");
  CHECK(sp->construct_after_line == std::optional<uint32_t>(3));  // after the docstring
  o.entry = "unrelated.py";
  std::string error;
  CHECK_FALSE(plan(p, "loop.py", o, &error));
  CHECK(error == "unrelated.py does not reach the loop at loop.py:3");
  // From the entry, the loop is found in what it runs.
  std::optional<ProjectPlan> from_entry = plan(p, "b_train.py");
  REQUIRE(from_entry);
  CHECK(from_entry->loop_file == "loop.py");
  CHECK(from_entry->entry.file == "b_train.py");
}

TEST_CASE("a loop no launched script reaches is planned in its own file, with a note") {
  Project p = make(
      {{"lib.py",
        "def fit(model, data, opt):\n    for b in data:\n        model(b).sum().backward()\n        opt.step()\n"}});
  std::optional<ProjectPlan> pl = plan(p, "lib.py");
  REQUIRE(pl);
  CHECK(pl->single_file());
  REQUIRE(pl->notes.size() == 1);
  CHECK(pl->notes[0].find("no launched script") != std::string::npos);
  std::string error;
  Project q = make({{"empty.py", "x = 1\n"}});
  CHECK_FALSE(plan(q, "empty.py", {}, &error));
  CHECK(error == "no training or inference loop found in empty.py");
}

TEST_CASE("a summary stays within ten times its source") {
  std::string code =
      "import torch\nfrom .model import Net\nfrom .data import build_loader\n"
      "class Trainer:\n"
      "    def __init__(self, cfg):\n"
      "        self.model = Net(cfg)\n"
      "        self.opt = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)\n"
      "        self.loader = build_loader(cfg)\n";
  for (int i = 0; i < 40; ++i) {
    code += "    def step_" + std::to_string(i) +
            "(self, batch):\n"
            "        out = self.model(batch['x'])\n"
            "        loss = torch.nn.functional.mse_loss(out, batch['y'])\n"
            "        self.log('loss', loss.item())\n"
            "        return loss\n";
  }
  SourceText src(code);
  PythonParser parser;
  FileFacts facts = build_facts(parser.parse(src.view()), src.view());
  auto s = summarize(src, facts);
  CHECK(s->effects.functions.size() == 41);
  CHECK(summary_bytes(*s) < code.size() * 10);
}

// The project index re-derives a file's dependents only when its fingerprint
// changes: it must follow what other files see, and not where it is written.
TEST_CASE("a summary's fingerprint follows what other files see, not positions or comments") {
  const std::string base =
      "import torch\nfrom .model import Net\n"
      "def train(model, opt, loader):\n"
      "    for x, y in loader:\n"
      "        loss = model(x)\n"
      "        loss.backward()\n"
      "        opt.step()\n";
  auto fp = [](const std::string& code) {
    SourceText src(code);
    PythonParser parser;
    return summary_fingerprint(*summarize_source(parser, src));
  };
  const uint64_t b = fp(base);
  CHECK(fp(base) == b);
  // Moved down, commented, blank lines: the same to other files.
  CHECK(fp("# a training helper\n\n" + base) == b);
  CHECK(fp(base + "\n\n# the end\n") == b);
  // What other files read: a def's name, its parameters, an import, what a loop does.
  struct Variant {
    const char* what;
    std::string from, to;
  };
  const Variant changes[] = {
      {"def name", "def train(", "def fit("},
      {"parameter", "opt, loader", "optimizer, loader"},
      {"parameter split elsewhere", "model, opt", "mode, lopt"},
      {"import", "from .model import Net", "from .nets import Net"},
      {"no backward", "        loss.backward()\n", ""},
      {"model", "loss = model(x)", "loss = net(x)"},
  };
  for (const Variant& v : changes) {
    INFO(v.what);
    std::string code = base;
    REQUIRE(code.find(v.from) != std::string::npos);
    code.replace(code.find(v.from), v.from.size(), v.to);
    CHECK(fp(code) != b);
  }
}

TEST_CASE("the scan skips hidden, virtual-environment and build folders, and survives symlink loops") {
  fs::path root = fs::temp_directory_path() / ("msprobe-scan-" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const char* d : {"pkg", ".git", ".venv/lib", "venv", "build", "node_modules", "pkg/__pycache__", "src"})
    fs::create_directories(root / d);
  for (const char* f : {"pkg/a.py", "pkg/b.py", ".venv/lib/x.py", "venv/y.py", "build/z.py", "node_modules/n.py",
                        "pkg/__pycache__/c.py", "top.py", "src/s.py", "pkg/readme.txt"})
    std::ofstream(root / f) << "x = 1\n";
  fs::create_directory_symlink(root, root / "pkg" / "loop");  // a symlink back to the root
  ScanResult r = scan_project(root.string());
  CHECK(r.files == std::vector<std::string>{"pkg/a.py", "pkg/b.py", "src/s.py", "top.py"});
  CHECK(r.package_roots == std::vector<std::string>{"", "src"});
  CHECK_FALSE(r.truncated);
  ScanLimits few;
  few.max_files = 2;
  ScanResult t = scan_project(root.string(), few);
  CHECK(t.files.size() == 2);
  CHECK(t.truncated);
  fs::remove_all(root);
}

namespace {

std::vector<std::string> codes_in_project(const Project& p, const std::string& rel) {
  SourceText src(p.files.at(rel));
  PythonParser parser;
  ProjectInput in{p.snapshot, rel};
  Analysis a = analyze(parser, src, AnalysisOptions{}, nullptr, &in);
  std::vector<std::string> out;
  for (const Finding& f : a.findings) out.push_back(f.code);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

TEST_CASE("MSP204 asks the script that runs the dump calls whether it builds the debugger") {
  // With a self-test: a script of its own, which builds nothing.
  const std::string loop = kDumpLoop + "if __name__ == '__main__':\n    fit(None, [], None)\n";
  const std::string& builds = kBuildsDebugger;
  const std::string& builds_nothing = kBuildsNothing;
  Project ok = make({{"loop.py", loop}, {"train.py", builds}});
  CHECK_FALSE(has(codes_in_project(ok, "loop.py"), "MSP204"));
  Project missing = make({{"loop.py", loop}, {"train.py", builds_nothing}});
  CHECK(has(codes_in_project(missing, "loop.py"), "MSP204"));
  // Alone, the self-test script is an entry that builds nothing.
  SourceText src(loop);
  PythonParser parser;
  Analysis alone = analyze(parser, src, AnalysisOptions{});
  CHECK(std::any_of(alone.findings.begin(), alone.findings.end(), [](const Finding& f) { return f.code == "MSP204"; }));
  // A module that is not a script: reported once a script reaches it without building the debugger.
  std::string module = loop.substr(0, loop.find("if __name__"));
  Project lib = make({{"loop.py", module}, {"train.py", builds_nothing}});
  CHECK(has(codes_in_project(lib, "loop.py"), "MSP204"));
  Project lib_ok = make({{"loop.py", module}, {"train.py", builds}});
  CHECK_FALSE(has(codes_in_project(lib_ok, "loop.py"), "MSP204"));
}

namespace {

const Finding* finding(const std::vector<Finding>& all, const std::string& code) {
  for (const Finding& f : all) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

std::vector<Finding> findings_in_project(const Project& p, const std::string& rel) {
  SourceText src(p.files.at(rel));
  PythonParser parser;
  ProjectInput in{p.snapshot, rel};
  return analyze(parser, src, AnalysisOptions{}, nullptr, &in).findings;
}

std::vector<Finding> findings_alone(const std::string& text) {
  SourceText src(text);
  PythonParser parser;
  return analyze(parser, src, AnalysisOptions{}).findings;
}

}  // namespace

TEST_CASE("MSP203: stop() and step() in another module's helper count") {
  const std::string loop =
      "from msprobe.pytorch import PrecisionDebugger\n"
      "from dumping import finish\n"
      "debugger = PrecisionDebugger(config_path='./c.json')\n"
      "def fit(model, data, opt):\n"
      "    for b in data:\n"
      "        debugger.start(model)\n"
      "        model(b).sum().backward()\n"
      "        opt.step()\n"
      "        finish()\n";
  const std::string helper =
      "from msprobe.pytorch import PrecisionDebugger\n"
      "def finish():\n"
      "    PrecisionDebugger.stop()\n"
      "    PrecisionDebugger.step()\n";
  CHECK(finding(findings_alone(loop), "MSP203"));
  Project p = make({{"loop.py", loop}, {"dumping.py", helper}});
  CHECK_FALSE(finding(findings_in_project(p, "loop.py"), "MSP203"));
  Project no_step = make({{"loop.py", loop}, {"dumping.py", "def finish():\n    pass\n"}});
  CHECK(finding(findings_in_project(no_step, "loop.py"), "MSP203"));
}

TEST_CASE("MSP206: seed_all() in another module's set-up counts when it runs first") {
  const std::string entry =
      "from msprobe.pytorch import PrecisionDebugger\n"
      "from setup import prepare\n"
      "prepare()\n"
      "debugger = PrecisionDebugger(config_path='./c.json')\n";
  const std::string setup = "from msprobe.pytorch import seed_all\ndef prepare():\n    seed_all(mode=True)\n";
  CHECK(finding(findings_alone(entry), "MSP206"));
  CHECK_FALSE(finding(findings_in_project(make({{"train.py", entry}, {"setup.py", setup}}), "train.py"), "MSP206"));
  CHECK(
      finding(findings_in_project(make({{"train.py", entry}, {"setup.py", "def prepare():\n    pass\n"}}), "train.py"),
              "MSP206"));
}

TEST_CASE("MSP201: a call on every iteration into a module that builds the debugger") {
  const std::string loop =
      "from helpers import make_debugger\n"
      "def fit(model, data, opt):\n"
      "    for i, b in enumerate(data):\n"
      "        make_debugger()\n"
      "        if i == 0:\n"
      "            make_debugger()\n"
      "        model(b).sum().backward()\n"
      "        opt.step()\n";
  const std::string helpers =
      "from msprobe.pytorch import PrecisionDebugger\n"
      "def make_debugger():\n"
      "    return PrecisionDebugger(config_path='./c.json')\n";
  std::vector<Finding> all = findings_in_project(make({{"loop.py", loop}, {"helpers.py", helpers}}), "loop.py");
  std::size_t n = std::count_if(all.begin(), all.end(), [](const Finding& f) { return f.code == "MSP201"; });
  CHECK(n == 1);  // the guarded call is not reported
  const Finding* f = finding(all, "MSP201");
  REQUIRE(f);
  CHECK(f->message.find("make_debugger() builds a PrecisionDebugger (in another module)") == 0);
  CHECK_FALSE(finding(findings_alone(loop), "MSP201"));
}

TEST_CASE("MSP202: a trainer's loop in another module run before the construction") {
  const std::string entry =
      "from msprobe.pytorch import PrecisionDebugger, seed_all\n"
      "from trainer import Trainer\n"
      "if __name__ == '__main__':\n"
      "    trainer = Trainer()\n"
      "    trainer.run()\n"
      "    seed_all()\n"
      "    debugger = PrecisionDebugger(config_path='./c.json')\n";
  const std::string trainer =
      "class Trainer:\n"
      "    def run(self):\n"
      "        self.model(self.x).sum().backward()\n"
      "        self.opt.step()\n";
  std::vector<Finding> all = findings_in_project(make({{"train.py", entry}, {"trainer.py", trainer}}), "train.py");
  const Finding* f = finding(all, "MSP202");
  REQUIRE(f);
  CHECK(f->message.find("a forward in trainer.run() (another module)") != std::string::npos);
  CHECK_FALSE(finding(findings_alone(entry), "MSP202"));
}

TEST_CASE("MSP207: a worker of another module started by spawn while the parent builds the debugger") {
  const std::string entry =
      "import torch.multiprocessing as mp\n"
      "from msprobe.pytorch import PrecisionDebugger\n"
      "from worker import run\n"
      "if __name__ == '__main__':\n"
      "    debugger = PrecisionDebugger(config_path='./c.json')\n"
      "    mp.spawn(run, nprocs=2)\n";
  const std::string worker =
      "def run(rank):\n"
      "    for b in data:\n"
      "        model(b).sum().backward()\n"
      "        opt.step()\n";
  std::vector<Finding> all = findings_in_project(make({{"train.py", entry}, {"worker.py", worker}}), "train.py");
  const Finding* f = finding(all, "MSP207");
  REQUIRE(f);
  CHECK(f->message.find("run() in worker.py runs in worker processes started by mp.spawn(...)") != std::string::npos);
  CHECK_FALSE(finding(findings_alone(entry), "MSP207"));
  Project idle = make({{"train.py", entry}, {"worker.py", "def run(rank):\n    print(rank)\n"}});
  CHECK_FALSE(finding(findings_in_project(idle, "train.py"), "MSP207"));
}

TEST_CASE("MSP208: a module imported by the entry before the construction binds a torch function by name") {
  const std::string model =
      "import torch.nn as nn\n"
      "from torch.nn.functional import softmax\n"
      "class Net(nn.Module):\n"
      "    def forward(self, x):\n"
      "        return softmax(x, dim=-1)\n";
  const std::string late =
      "from msprobe.pytorch import PrecisionDebugger\nfrom model import Net\n"
      "debugger = PrecisionDebugger(config_path='./c.json')\n";
  const std::string early =
      "from msprobe.pytorch import PrecisionDebugger\n"
      "debugger = PrecisionDebugger(config_path='./c.json')\nfrom model import Net\n";
  const std::string through =
      "from msprobe.pytorch import PrecisionDebugger\nimport nets\n"
      "debugger = PrecisionDebugger(config_path='./c.json')\n";
  auto import_finding = [](const std::vector<Finding>& all) {
    for (const Finding& f : all) {
      if (f.code == "MSP208" && f.severity == Severity::Warning) return &f;
    }
    return static_cast<const Finding*>(nullptr);
  };
  std::vector<Finding> all = findings_in_project(make({{"model.py", model}, {"train.py", late}}), "model.py");
  const Finding* f = import_finding(all);
  REQUIRE(f);
  CHECK(f->message.find("train.py imports it before it builds the PrecisionDebugger (line 3)") != std::string::npos);
  CHECK_FALSE(import_finding(findings_in_project(make({{"model.py", model}, {"train.py", early}}), "model.py")));
  CHECK(import_finding(findings_in_project(
      make({{"model.py", model}, {"nets.py", "from model import Net\n"}, {"train.py", through}}), "model.py")));
}

TEST_CASE("the plan names torch.compile anywhere the entry's process runs") {
  Project p = make(
      {{"loop.py", kStepFn},
       {"fit.py", "from loop import train_step\ndef fit(m, d, o):\n    for b in d:\n        train_step(m, b, o)\n"},
       {"train.py",
        "import torch\nfrom fit import fit\nif __name__ == '__main__':\n    m = torch.compile(m)\n    fit(m, d, o)\n"}});
  std::optional<ProjectPlan> pl = plan(p, "fit.py");
  REQUIRE(pl);
  REQUIRE(pl->notes.size() == 1);
  CHECK(pl->notes[0] ==
        "torch.compile / dynamo at train.py:4 runs in this process: msProbe does not dump compiled code (MSP101)");
}

// ----- which open documents a change of another file can affect -----

namespace {

struct Affected {
  AffectedFiles affected;
  std::set<std::string> differ;  // unchanged files whose findings changed
};

// files_affected_by (of the files changed_files finds) judged by the
// findings themselves: every unchanged file whose findings differ between the
// two projects must be in the set.
Affected check_affected(const Files& before, const Files& after, const std::vector<std::string>& roots = {""}) {
  Project a = make(before, roots);
  Project b = make(after, roots);
  std::set<std::string> changed;
  for (const auto& [rel, text] : before) {
    auto it = after.find(rel);
    if (it == after.end() || it->second != text) changed.insert(rel);
  }
  for (const auto& [rel, text] : after) {
    if (!before.count(rel)) changed.insert(rel);
  }
  // What the server asks: the files whose summaries differ, then what they reach.
  std::set<std::string> differ_in_summary = changed_files(*a.snapshot, *b.snapshot);
  CHECK(std::includes(changed.begin(), changed.end(), differ_in_summary.begin(), differ_in_summary.end()));
  Affected out{files_affected_by(*a.snapshot, *b.snapshot, differ_in_summary), {}};
  std::string what;
  for (const std::string& c : changed) what += c + " ";
  for (const auto& [rel, text] : after) {
    if (changed.count(rel)) continue;
    if (findings_text(findings_in_project(a, rel)) == findings_text(findings_in_project(b, rel))) continue;
    out.differ.insert(rel);
    INFO(rel << "'s findings changed with " << what);
    CHECK((out.affected.all || out.affected.files.count(rel)));
  }
  return out;
}

Files with(Files files, const std::string& rel, std::optional<std::string> text) {
  if (text) files[rel] = *text;
  else files.erase(rel);
  return files;
}

}  // namespace

TEST_CASE("files_affected_by: a change reaches the files linked to it by imports, and no others") {
  const std::string& loop = kDumpLoop;
  const std::string& builds = kBuildsDebugger;
  const std::string& builds_nothing = kBuildsNothing;
  // A script of its own with the same shape: nothing links it to the others.
  const std::string other = loop + "if __name__ == '__main__':\n    fit(None, [], None)\n";
  Files before{{"loop.py", loop}, {"train.py", builds}, {"other.py", other}};

  SECTION("an entry script that stops building the debugger (MSP204 in the loop's module)") {
    Affected r = check_affected(before, with(before, "train.py", builds_nothing));
    CHECK(r.differ == std::set<std::string>{"loop.py"});
    CHECK_FALSE(r.affected.all);
    CHECK(r.affected.files == std::set<std::string>{"loop.py"});
  }
  SECTION("the import that links them appears, inside a function") {
    const std::string lazy =
        "def main():\n    from loop import fit\n    fit(m, d, o)\nif __name__ == '__main__':\n    main()\n";
    Affected r = check_affected(with(before, "train.py", "print('nothing')\n"), with(before, "train.py", lazy));
    CHECK(r.affected.files == std::set<std::string>{"loop.py"});
  }
  SECTION("the only link disappears with the file") {
    Affected r = check_affected(with(before, "train.py", builds_nothing), with(before, "train.py", std::nullopt));
    CHECK(r.differ == std::set<std::string>{"loop.py"});
    CHECK(r.affected.files == std::set<std::string>{"loop.py"});
  }
  SECTION("a new module on the way to the loop (a chain of two imports)") {
    Files chain = with(
        with(before, "train.py", "from steps import fit\nif __name__ == '__main__':\n    fit(m, d, o)\n"), "steps.py",
        std::nullopt);
    Affected r = check_affected(chain, with(chain, "steps.py", "from loop import fit\n"));
    CHECK(r.differ == std::set<std::string>{"loop.py"});
    CHECK(r.affected.files == std::set<std::string>{"loop.py", "train.py"});
  }
  SECTION("two files changed together: each is affected by the other, the unrelated one by neither") {
    Files after = with(with(before, "train.py", builds_nothing), "loop.py", loop + "def extra():\n    pass\n");
    Affected r = check_affected(before, after);
    CHECK(r.affected.files == std::set<std::string>{"loop.py", "train.py"});
  }
  SECTION("a change other files cannot see (a comment) reaches none") {
    Affected r = check_affected(before, with(before, "train.py", builds + "# a comment\n"));
    CHECK(r.affected.files.empty());
  }
  SECTION("a folder put on sys.path: every file") {
    Affected r = check_affected(before, with(before, "other.py", "import sys\nsys.path.insert(0, 'lib')\n" + other));
    CHECK(r.affected.all);
  }
}

TEST_CASE("files_affected_by: packages reached through attributes, overrides in subclasses, star imports") {
  const std::string entry =
      "import torch\n"
      "import pkg\n"
      "from msprobe.pytorch import PrecisionDebugger\n"
      "debugger = PrecisionDebugger(config_path='./config.json')\n"
      "def fit(model, data, opt):\n"
      "    for b in data:\n"
      "        debugger.start(model)\n"
      "        pkg.steps.train_step(model, b, opt)\n"
      "        debugger.stop()\n"
      "        debugger.step()\n"
      "if __name__ == '__main__':\n"
      "    fit(m, d, o)\n";
  SECTION("a submodule that appears under an imported package") {
    Files before{{"train.py", entry}, {"pkg/__init__.py", ""}, {"pkg/util.py", "X = 1\n"}, {"alone.py", "Y = 2\n"}};
    Affected r = check_affected(before, with(before, "pkg/steps.py", kStepFn));
    CHECK(r.affected.files.count("train.py"));
    CHECK_FALSE(r.affected.files.count("alone.py"));
  }
  SECTION("a subclass in another module overrides the step") {
    const std::string base =
        "class Trainer:\n"
        "    def fit(self, data):\n"
        "        for b in data:\n"
        "            self.run_step(b)\n"
        "    def run_step(self, b):\n"
        "        raise NotImplementedError\n";
    const std::string sub =
        "from engine.base import Trainer\n"
        "class Simple(Trainer):\n"
        "    def run_step(self, b):\n"
        "        self.model(b).sum().backward()\n"
        "        self.opt.step()\n";
    const std::string late =
        "from msprobe.pytorch import PrecisionDebugger\n"
        "from engine.base import Trainer\n"
        "if __name__ == '__main__':\n"
        "    Trainer().fit(data)\n"
        "    debugger = PrecisionDebugger(config_path='./config.json')\n";
    Files before{{"engine/base.py", base},
                 {"engine/simple.py", "from engine.base import Trainer\n"},
                 {"train.py", late},
                 {"tools/unrelated.py", "import os\n"}};
    Affected r = check_affected(before, with(before, "engine/simple.py", sub));
    CHECK(r.affected.files == std::set<std::string>{"engine/base.py", "train.py"});
  }
  SECTION("a star import") {
    Files before{{"train.py", "from msprobe.pytorch import PrecisionDebugger\nfrom steps import *\n" +
                                  entry.substr(entry.find("debugger ="))},
                 {"steps.py", "def other():\n    pass\n"}};
    Affected r = check_affected(before, with(before, "steps.py", kStepFn));
    CHECK(r.affected.files == std::set<std::string>{"train.py"});
  }
}

TEST_CASE("files_affected_by on the example projects: instrumenting, emptying or deleting any one file") {
  std::size_t differ = 0;
  for (const char* name : {"trainer_module", "src_layout", "two_entries", "train_step_module", "relative_pkg",
                           "import_cycle", "spawn_worker", "template_method", "torch_by_name"}) {
    ScanResult scan;
    Files plain = read_example(name, scan);
    std::ifstream json(fs::path(MSPROBE_TESTS_DIR) / "projects" / name / "project.json");
    std::string spec((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
    std::size_t at = spec.find("\"enable\": \"");
    REQUIRE(at != std::string::npos);
    at += 11;
    std::string enable = spec.substr(at, spec.find('"', at) - at);
    Project p = make(plain, scan.package_roots);
    ProjectEditResult edits = enable_in_project(*p.snapshot, enable, p.read, {}, {});
    REQUIRE(edits.ok());
    Files instrumented = plain;
    for (const FileEdits& f : edits.files) instrumented[f.file] = apply_edits(f.text, f.result.all_edits());
    INFO(name);
    for (const FileEdits& f : edits.files) {
      INFO(f.file);
      differ += check_affected(plain, with(plain, f.file, instrumented[f.file]), scan.package_roots).differ.size();
      differ +=
          check_affected(instrumented, with(instrumented, f.file, plain[f.file]), scan.package_roots).differ.size();
    }
    for (const auto& [rel, text] : plain) {
      INFO(rel);
      differ += check_affected(instrumented, with(instrumented, rel, std::nullopt), scan.package_roots).differ.size();
      differ += check_affected(instrumented, with(instrumented, rel, ""), scan.package_roots).differ.size();
    }
  }
  CHECK(differ >= 5);  // the projects' files do answer each other's questions
}

TEST_CASE("plans and edits use the caller's analyses of known files, and give what reading them gives") {
  for (const char* name : {"trainer_module", "template_method", "spawn_worker", "relative_pkg"}) {
    INFO(name);
    ScanResult scan;
    Files files = read_example(name, scan);
    Project p = make(files, scan.package_roots);
    // Every file analysed as the server analyses an open document.
    std::map<std::string, std::pair<std::unique_ptr<SourceText>, Analysis>> open;
    PythonParser parser;
    for (const auto& [rel, text] : files) {
      auto src = std::make_unique<SourceText>(text);
      ProjectInput in{p.snapshot, rel};
      Analysis a = analyze(parser, *src, AnalysisOptions{}, nullptr, &in);
      open.emplace(rel, std::make_pair(std::move(src), std::move(a)));
    }
    std::size_t reads = 0;
    FileReader counting = [&](const std::string& rel) {
      ++reads;
      return p.read(rel);
    };
    ProjectPlanOptions known;
    known.known = [&](const std::string& rel) -> std::optional<KnownFile> {
      auto it = open.find(rel);
      if (it == open.end()) return std::nullopt;
      return KnownFile{it->second.first.get(), &it->second.second};
    };
    for (const auto& [rel, text] : files) {
      INFO(rel);
      std::optional<ProjectPlan> read_plan = plan_project(*p.snapshot, rel, p.read, {}, nullptr);
      std::optional<ProjectPlan> known_plan = plan_project(*p.snapshot, rel, counting, known, nullptr);
      REQUIRE(read_plan.has_value() == known_plan.has_value());
      if (read_plan) {
        CHECK(known_plan->loop_file == read_plan->loop_file);
        CHECK(known_plan->loop_line == read_plan->loop_line);
        CHECK(known_plan->entry.file == read_plan->entry.file);
        CHECK(known_plan->entry.construct_file == read_plan->entry.construct_file);
        CHECK(known_plan->construct_after_line == read_plan->construct_after_line);
        CHECK(known_plan->notes == read_plan->notes);
      }
      ProjectEditResult by_reading = enable_in_project(*p.snapshot, rel, p.read, {}, {});
      ProjectEditResult by_known = enable_in_project(*p.snapshot, rel, counting, known, {});
      CHECK(by_known.error == by_reading.error);
      CHECK(by_known.summary == by_reading.summary);
      REQUIRE(by_known.files.size() == by_reading.files.size());
      for (std::size_t i = 0; i < by_known.files.size(); ++i) {
        CHECK(by_known.files[i].file == by_reading.files[i].file);
        CHECK(apply_edits(by_known.files[i].text, by_known.files[i].result.all_edits()) ==
              apply_edits(by_reading.files[i].text, by_reading.files[i].result.all_edits()));
      }
    }
    CHECK(reads == 0);  // every file was known
  }
}

// Half-typed code: the analysis builds its facts from a repaired copy, and the
// plan must index the same loops, or enable reads past them (a crash found by
// fuzz_analysis: the vLLM runner's __init__ cut mid-line).
TEST_CASE("enable_in_project refuses half-typed code instead of reading past its loops") {
  const std::string head =
      "import torch\nmodel = torch.nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n";
  const std::string body = "    loss = model(x).sum()\n    loss.backward()\n    opt.step()\n";
  struct Case {
    std::string rel, text, why;
  };
  const std::string no_loop = "no training or inference loop found";
  const Case cases[] = {
      {"header.py", head + "for x in torch.randn(8, 2, 4:\n" + body, no_loop},
      {"call.py",
       head + "for x in torch.randn(8, 2, 4):\n    loss = model(x\n    loss.sum().backward()\n    opt.step()\n",
       no_loop},
      {"tail.py", head + "for x in torch.randn(8, 2, 4):\n" + body + "print('done'\n", "syntax error"},
  };
  for (const Case& c : cases) {
    INFO(c.rel << ":\n" << c.text);
    Project p = make({{c.rel, c.text}});
    ProjectEditResult r = enable_in_project(*p.snapshot, c.rel, p.read, {}, {});
    CHECK_FALSE(r.ok());
    CHECK(r.error.find(c.why) != std::string::npos);
    CHECK(r.files.empty());
  }
}
