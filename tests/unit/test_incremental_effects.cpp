// Incremental call effects: in a project, the summary of an edited file keeps
// the call sites of the defs the edit left alone (build_effects with the
// previous effects). Whatever is kept or derived again, the effects, facts and
// findings must equal a fresh analysis of the new text, site for site. Each
// case says whether it expects sites to be kept.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <sstream>

#include "edit_chains.h"
#include "effects.h"
#include "msprobe/analysis/analyzer.h"
#include "msprobe/analysis/project.h"
#include "project/summary.h"

using namespace msprobe::analysis;
using msprobe::test::findings_text;

namespace {

std::string dump_effects(const ModuleEffects& m) {
  std::ostringstream o;
  o << "key " << m.bindings_key << "\n";
  for (const FunctionShape& f : m.functions) {
    o << "def " << f.name << " " << f.class_index << " " << f.parent << " " << f.range.start << "-" << f.range.end
      << " " << f.body.start << "-" << f.body.end << " " << f.line;
    for (const std::string& p : f.params) o << " " << p;
    o << "\n";
  }
  for (const LoopShape& l : m.loops)
    o << "loop " << l.range.start << "-" << l.range.end << " " << l.function << " " << l.parent << " " << l.line
      << "\n";
  for (const ClassShape& c : m.classes) {
    o << "class " << c.name << " " << c.line << " " << c.module;
    for (const std::string& b : c.bases) o << " " << b;
    o << "\n";
  }
  for (const CallSite& s : m.sites) {
    o << "site " << s.at.start << "-" << s.at.end << " L" << s.line << " fn" << s.function << " k" << s.kinds << " m["
      << s.model << "] p[" << s.passed_model << "] h" << s.helper << " c" << s.closure << " t" << s.target << " r["
      << s.receiver << "] call" << s.call;
    for (const CallArg& a : s.args) o << " " << a.keyword << "=" << a.text;
    o << "\n";
  }
  for (const CallTarget& t : m.targets)
    o << "target " << static_cast<int>(t.via) << " " << t.name << " " << t.ctor << " " << t.self_class << "\n";
  return o.str();
}

// A one-file project holding `text` as train.py.
ProjectInput project_of(const SourceText& text) {
  PythonParser parser;
  std::shared_ptr<const ModuleSummary> summary = begin_analysis(parser, text).summary;
  auto snapshot = std::make_shared<const ProjectSnapshot>(
      "/project", std::map<std::string, std::shared_ptr<const ModuleSummary>>{{"train.py", summary}},
      std::vector<std::string>{""});
  return ProjectInput{snapshot, "train.py"};
}

// Replaces [start, end) with `insert` the way the server does (old tree edited,
// the previous analysis and its summary lent), compares with a fresh analysis
// in the same project, and returns the new analysis.
Analysis edit_and_compare(PythonParser& parser, SourceText& text, const Analysis& before, const ProjectInput& project,
                          std::size_t start, std::size_t end, const std::string& insert) {
  const std::string old_text = text.text();
  ByteEdit e = text.replace(start, end, insert);
  PreviousFacts lend{&before.facts, old_text, before.summary.get()};
  Analysis inc = analyze(parser, text, AnalysisOptions{}, edited_copy(before.tree, e), &project, &lend);
  PythonParser fresh_parser;
  Analysis fresh = analyze(fresh_parser, text, AnalysisOptions{}, nullptr, &project);
  INFO("after replacing [" << start << ", " << end << ") with '" << insert << "':\n" << text.text());
  REQUIRE(inc.summary != nullptr);
  REQUIRE(fresh.summary != nullptr);
  REQUIRE(dump_effects(inc.summary->effects) == dump_effects(fresh.summary->effects));
  REQUIRE(summary_fingerprint(*inc.summary) == summary_fingerprint(*fresh.summary));
  REQUIRE(dump_facts(inc.facts) == dump_facts(fresh.facts));
  REQUIRE(findings_text(inc.findings) == findings_text(fresh.findings));
  return inc;
}

const char* const kScript = R"(import torch
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger

debugger = PrecisionDebugger(config_path="./config.json")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


class Trainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def step(self, x):
        loss = self.model(x).sum()
        loss.backward()
        self.opt.step()
        return loss


def helper(m, x):
    out = m(x)
    return out.mean()


def train(loader):
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    trainer = Trainer(model, opt)
    for step, (x, y) in enumerate(loader):
        debugger.start(model=model)
        trainer.step(x)
        helper(model, x)
        debugger.stop()
        debugger.step()


if __name__ == "__main__":
    train([])
)";

struct Case {
  const char* name;
  const char* find;  // the edit replaces the first occurrence of this ...
  const char* with;  // ... with this
  bool keeps;        // whether sites of untouched defs are kept
};

const Case kCases[] = {
    {"a digit in a def", "lr=0.1", "lr=0.12", true},
    {"a line added in a method", "        self.opt.step()\n", "        self.opt.step()\n        self.opt.zero_grad()\n",
     true},
    {"a comment between defs", "\n\ndef helper(", "\n# a note\n\ndef helper(", true},
    {"a digit at module level", "config.json", "config2.json", true},
    {"a call changed in one def", "return out.mean()", "return out.sum()", true},
    // Bindings are per file, by name: what `out` holds changed for every def.
    {"what a name in one def holds", "out = m(x)", "out = m.encode(x)", false},
    {"what a module-level name holds", "debugger = PrecisionDebugger(config_path=\"./config.json\")",
     "debugger = object()", false},
    {"an import renamed", "import torch.nn as nn\n", "import torch.nn as tnn\n", false},
    {"a def renamed", "def helper(m, x):", "def helper2(m, x):", false},
    {"a parameter added", "def helper(m, x):", "def helper(m, x, y=None):", false},
    {"a new def", "\n\ndef train(", "\n\ndef extra():\n    pass\n\n\ndef train(", false},
    {"a base class changed", "class Net(nn.Module):", "class Net(object):", false},
    {"a syntax error", "return out.mean()", "return out.mean(", false},
};

}  // namespace

TEST_CASE("incremental call effects equal a fresh build, keeping the sites of untouched defs", "[incremental]") {
  for (const Case& c : kCases) {
    DYNAMIC_SECTION(c.name) {
      PythonParser parser;
      SourceText text{std::string(kScript)};
      ProjectInput project = project_of(text);
      Analysis base = analyze(parser, text, AnalysisOptions{}, nullptr, &project);
      REQUIRE(base.summary != nullptr);
      std::size_t at = text.text().find(c.find);
      REQUIRE(at != std::string::npos);
      Analysis a = edit_and_compare(parser, text, base, project, at, at + std::strlen(c.find), c.with);
      if (c.keeps) {
        CHECK(a.times.calls_reused > 0);
        CHECK(a.times.calls_derived > 0);  // the edited statement's calls, and module-level ones
      } else {
        CHECK(a.times.calls_reused == 0);
      }
    }
  }
}

// A module-level call depends on assignments in other top-level statements:
// `apply_update(loss, opt)` runs the backward and the step only while `loss`
// comes from a forward, which the edit of another statement changes.
TEST_CASE("module-level calls are derived again after any edit", "[incremental]") {
  const std::string script = R"(import torch
from utils import apply_update

model = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batch = torch.ones(2)
loss = model(batch).sum()
apply_update(loss, opt)


def unrelated(x):
    return helper(x) + 1
)";
  PythonParser parser;
  SourceText text{script};
  ProjectInput project = project_of(text);
  Analysis base = analyze(parser, text, AnalysisOptions{}, nullptr, &project);
  std::size_t at = text.text().find("model(batch)");
  Analysis a = edit_and_compare(parser, text, base, project, at, at + 5, "float");
  CHECK(a.times.calls_reused > 0);  // unrelated's
}

TEST_CASE("without the previous summary every call effect is derived", "[incremental]") {
  PythonParser parser;
  SourceText text{std::string(kScript)};
  ProjectInput project = project_of(text);
  Analysis base = analyze(parser, text, AnalysisOptions{}, nullptr, &project);
  const std::string old_text = text.text();
  std::size_t at = old_text.find("lr=0.1");
  ByteEdit e = text.replace(at, at + 6, "lr=0.2");
  PreviousFacts lend{&base.facts, old_text};  // no summary lent
  Analysis a = analyze(parser, text, AnalysisOptions{}, edited_copy(base.tree, e), &project, &lend);
  CHECK(a.times.statements_reused > 0);
  CHECK(a.times.calls_reused == 0);
  CHECK(a.times.calls_derived == base.times.calls_derived);
}

// Random edits, chained (each analysis lends to the next), over the corpus
// scripts, each in a project of its own.
TEST_CASE("random edit chains over the corpus keep incremental call effects equal to fresh ones", "[incremental]") {
  const char* const kInserts[] = {"x",
                                  "0",
                                  "\n",
                                  "    ",
                                  "# note\n",
                                  ")",
                                  ":",
                                  "\nimport os\n",
                                  "loss.backward()\n",
                                  "optimizer.step()\n",
                                  "model = Net()\n",
                                  "def f(model):\n    return model(1)\n",
                                  "self.",
                                  "_2"};
  std::mt19937 rng(23);
  std::size_t kept = 0;
  std::size_t files = msprobe::test::for_each_corpus_script([&](const std::string& name, const std::string& script) {
    if (script.empty()) return;  // nothing to edit
    INFO(name);
    PythonParser parser;
    SourceText text{script};
    ProjectInput project = project_of(text);
    Analysis a = analyze(parser, text, AnalysisOptions{}, nullptr, &project);
    for (int k = 0; k < 6; ++k) {
      msprobe::test::RandomEdit e = msprobe::test::random_edit(rng, text, kInserts);
      a = edit_and_compare(parser, text, a, project, e.start, e.end, e.insert);
      kept += a.times.calls_reused;
    }
  });
  CHECK(files >= 50);
  CHECK(kept > 0);  // the chains did keep sites
}
