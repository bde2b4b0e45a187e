// Incremental facts: after an edit, the facts built with the previous build's
// unchanged top-level statements reused must equal a fresh build of the new
// text, fact for fact (dump_facts), and so must the findings. Each case says
// which top-level statements it expects to be walked again.
#include <tree_sitter/api.h>
#include <catch2/catch.hpp>

#include <cstring>

#include <random>
#include <sstream>

#include "edit_chains.h"
#include "facts_builder.h"
#include "msprobe/analysis/analyzer.h"

using namespace msprobe::analysis;
using msprobe::test::findings_text;

namespace {

// One edit as the server applies it: text replaced, old tree edited, then
// analysed with the previous analysis lent. Returns the new analysis and the
// statements walked / reused; REQUIREs equality with a fresh analysis.
struct Step {
  Analysis analysis;
  FactsBuildStats stats;
};

// With `donor`, the previous facts are lent with a copy to take apart
// (PreviousFacts::donor), as analyze() does on an edit with a second core.
Step edit_and_compare(PythonParser& parser, SourceText& text, const Analysis& before, std::size_t start,
                      std::size_t end, const std::string& insert, bool donor = false) {
  const std::string old_text = text.text();
  ByteEdit e = text.replace(start, end, insert);
  PreviousFacts lend{&before.facts, old_text};
  FileFacts copy;
  if (donor) {
    copy = before.facts;
    lend.donor = &copy;
  }
  Step s;
  s.analysis = analyze(parser, text, AnalysisOptions{}, edited_copy(before.tree, e), nullptr, &lend);
  s.stats = last_facts_build_stats();
  PythonParser fresh_parser;
  Analysis fresh = analyze(fresh_parser, text, AnalysisOptions{});
  INFO("after replacing [" << start << ", " << end << ") with '" << insert << "':\n" << text.text());
  REQUIRE(dump_facts(s.analysis.facts) == dump_facts(fresh.facts));
  REQUIRE(findings_text(s.analysis.findings) == findings_text(fresh.findings));
  return s;
}

const char* const kScript = R"(import torch
from msprobe.pytorch import PrecisionDebugger

debugger = PrecisionDebugger(config_path="./config.json")  # dump
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def helper(x):
    return model(x).sum()


def train(loader):
    for step, (x, y) in enumerate(loader):
        debugger.start(model=model)
        loss = helper(x)
        loss.backward()
        opt.step()
        debugger.stop()
        debugger.step()


if __name__ == "__main__":
    train([])
)";

struct Case {
  const char* name;
  const char* find;  // the edit replaces the first occurrence of this ...
  const char* with;  // ... with this
  int walked;        // -1: a syntax error, nothing reused
};

// Expected walks: the statements whose text the edit touched (a syntax error
// walks everything: the chunks are only kept for clean trees).
const Case kCases[] = {
    {"a digit inside the loop", "lr=0.1", "lr=0.12", 1},
    {"a line inside the def", "        opt.step()\n", "        opt.step()\n        opt.zero_grad()\n", 1},
    {"a new def between two", "\n\ndef train(", "\n\ndef extra():\n    pass\n\n\ndef train(", 1},
    {"a blank line at the top", "import torch\n", "\nimport torch\n", 0},
    {"the import renamed", "import torch\n", "import torch as th\n", 1},
    {"the main guard removed", "if __name__ == \"__main__\":\n    train([])\n", "train([])\n", 1},
    {"a comment added between", "\n\ndef helper(", "\n# a note\n\ndef helper(", 1},
    {"the construction deleted", "debugger = PrecisionDebugger(config_path=\"./config.json\")  # dump\n", "", 0},
    {"a syntax error", "return model(x).sum()", "return model(x.sum()", -1},
};

}  // namespace

TEST_CASE("incremental facts equal a fresh build, and walk only what an edit touched", "[incremental]") {
  for (const Case& c : kCases) {
    DYNAMIC_SECTION(c.name) {
      PythonParser parser;
      SourceText text{std::string(kScript)};
      Analysis base = analyze(parser, text, AnalysisOptions{});
      REQUIRE(base.facts.chunks != nullptr);
      std::size_t at = text.text().find(c.find);
      REQUIRE(at != std::string::npos);
      Step s = edit_and_compare(parser, text, base, at, at + std::strlen(c.find), c.with);
      if (c.walked < 0) {
        CHECK(s.stats.reused == 0);
      } else {
        CHECK(s.stats.walked == static_cast<std::size_t>(c.walked));
        // Every other top-level node was reused.
        CHECK(s.stats.reused + s.stats.walked == ts_node_child_count(ts_tree_root_node(s.analysis.tree.get())));
      }
    }
  }
}

TEST_CASE("a statement that shares its line with an edited one is walked again", "[incremental]") {
  PythonParser parser;
  SourceText text{std::string("import torch\na = torch.ones(1); b = torch.zeros(2)\nc = 3\n")};
  Analysis base = analyze(parser, text, AnalysisOptions{});
  std::size_t at = text.text().find("ones(1)");
  // `b = ...` (and the `;` before it) keeps its text but moves right on its
  // line: its column changed.
  Step s = edit_and_compare(parser, text, base, at + 5, at + 6, "11");
  CHECK(s.stats.walked == 3);
  CHECK(s.stats.reused == 2);
}

// The calls of reused statements keep their resolved names only while the
// imports resolve alike; each step here changes how they resolve without
// touching those statements, and is compared with a fresh build.
TEST_CASE("calls of untouched statements are resolved again when what the imports bind changes", "[incremental]") {
  PythonParser parser;
  SourceText text{std::string(kScript)};
  Analysis a = analyze(parser, text, AnalysisOptions{});
  auto edit = [&](const std::string& find, const std::string& with) {
    std::size_t at = text.text().find(find);
    REQUIRE(at != std::string::npos);
    Step s = edit_and_compare(parser, text, a, at, at + find.size(), with);
    a = std::move(s.analysis);
    return s.stats;
  };
  // What each call of `callee` resolved to, in the order of the file.
  auto qualified_of = [&](const std::string& callee) {
    std::string out;
    for (const Call& c : a.facts.calls) {
      if (c.callee == callee) out += "[" + c.qualified + "]";
    }
    return out;
  };
  CHECK(qualified_of("PrecisionDebugger") == "[msprobe.pytorch.PrecisionDebugger]");
  // A module-level def after the import rebinds the name for the code after
  // it and in every def; the code above it still calls the import.
  edit("\n\nif __name__", "\n\ndef SGD(*args, **kwargs):\n    return None\n\n\nif __name__");
  edit("from msprobe.pytorch import PrecisionDebugger\n",
       "from msprobe.pytorch import PrecisionDebugger\nfrom torch.optim import SGD\n");
  edit("torch.optim.SGD(model", "SGD(model");
  edit("return model(x).sum()", "return SGD(model(x)).sum()");
  CHECK(qualified_of("SGD") == "[torch.optim.SGD][]");
  // An edit elsewhere, with the rebinding def in both builds.
  edit("lr=0.1", "lr=0.2");
  CHECK(qualified_of("SGD") == "[torch.optim.SGD][]");
  // The def removed, every other statement reused: the call in `helper` is
  // the import's again.
  CHECK(edit("\n\ndef SGD(*args, **kwargs):\n    return None\n", "").walked == 0);
  CHECK(qualified_of("SGD") == "[torch.optim.SGD][torch.optim.SGD]");
  // The import's target changed (same bound name): every call resolves anew.
  edit("from torch.optim import SGD\n", "from apex.optimizers import FusedSGD as SGD\n");
  CHECK(qualified_of("SGD") == "[apex.optimizers.FusedSGD][apex.optimizers.FusedSGD]");
  // Nothing the imports bind changed: the copied calls keep their names.
  CHECK(edit("lr=0.2", "lr=0.3").reused > 0);
  CHECK(qualified_of("SGD") == "[apex.optimizers.FusedSGD][apex.optimizers.FusedSGD]");
}

TEST_CASE("no previous facts, or facts of a broken tree, mean a full walk", "[incremental]") {
  PythonParser parser;
  SourceText text{std::string("import torch\nx = torch.ones(\ny = 2\n")};
  Analysis broken = analyze(parser, text, AnalysisOptions{});
  CHECK(broken.facts.chunks == nullptr);
  std::size_t at = text.text().find("ones(");
  Step s = edit_and_compare(parser, text, broken, at + 5, at + 5, ")");
  CHECK(s.stats.reused == 0);
  CHECK(s.analysis.facts.chunks != nullptr);
}

// Random edits, chained (each build lends to the next), over the corpus
// scripts: whatever the edit, the facts equal a fresh build.
TEST_CASE("random edit chains over the corpus keep incremental facts equal to fresh ones", "[incremental]") {
  const bool donor = GENERATE(false, true);  // reused entries copied, or moved out of a donor copy
  INFO((donor ? "with a donor copy" : "copied from the previous facts"));
  const char* const kInserts[] = {"x",
                                  "0",
                                  "\n",
                                  "    ",
                                  "# note\n",
                                  ")",
                                  "(",
                                  ":",
                                  "\nimport os\n",
                                  "loss.backward()\n",
                                  "def f():\n    return 1\n",
                                  "'",
                                  "\"\"\"",
                                  "é"};
  std::mt19937 rng(17);
  std::size_t reused = 0;
  std::size_t files = msprobe::test::for_each_corpus_script([&](const std::string& name, const std::string& script) {
    if (script.empty()) return;  // nothing to edit
    INFO(name);
    PythonParser parser;
    SourceText text{script};
    Analysis a = analyze(parser, text, AnalysisOptions{});
    for (int k = 0; k < 6; ++k) {
      msprobe::test::RandomEdit e = msprobe::test::random_edit(rng, text, kInserts);
      Step s = edit_and_compare(parser, text, a, e.start, e.end, e.insert, donor);
      reused += s.stats.reused;
      a = std::move(s.analysis);
    }
  });
  CHECK(files >= 50);
  CHECK(reused > 0);  // the chains did reuse (most edits keep the tree clean)
}

// `check` analyses a folder's files in two steps, and shrinks the facts it
// keeps in between; alone, begin + shrink + finish must equal analyze() on
// every corpus script.
TEST_CASE("begin_analysis + finish_analysis equal analyze() on the corpus", "[incremental]") {
  std::size_t shrunk = 0;
  std::size_t files = msprobe::test::for_each_corpus_script([&](const std::string& name, const std::string& script) {
    INFO(name);
    SourceText text{script};
    PythonParser parser;
    Analysis whole = analyze(parser, text, AnalysisOptions{});
    Analysis two = begin_analysis(parser, text);
    REQUIRE(two.summary != nullptr);
    CHECK(two.facts.loop_info.empty());
    const std::string begun = dump_facts(two.facts);
    const bool had_room = two.facts.calls.capacity() > two.facts.calls.size();
    two.facts.shrink_to_fit();
    CHECK(two.facts.chunks == nullptr);
    CHECK(two.facts.calls.capacity() == two.facts.calls.size());
    REQUIRE(dump_facts(two.facts) == begun);
    if (had_room) ++shrunk;
    finish_analysis(two, text, AnalysisOptions{});
    REQUIRE(dump_facts(two.facts) == dump_facts(whole.facts));
    REQUIRE(findings_text(two.findings) == findings_text(whole.findings));
  });
  CHECK(files >= 50);
  CHECK(shrunk > 0);  // some list had room to give back
}
