// The analysis thread's first work, before any document: one small training
// script analysed and thrown away. A fresh process otherwise pays, inside the
// first didOpen, for paging in the analysis code (about 25 page faults) and
// for cold caches and a new heap arena: on the 1,000-line benchmark script
// the first analysis took 9.5 ms with and 8.4 ms without that cost
// (tests/bench/profile-notes.md, 2026-12-06). Editors open the documents they
// restore right after `initialize`, while the thread would otherwise wait.
#pragma once

#include "msprobe/analysis/source.h"
#include "msprobe/analysis/syntax.h"

namespace msprobe::server {

// A training loop with a model, a forward, backward and optimizer step, a
// PrecisionDebugger with start/stop/step and a torch.compile: every stage of
// the analysis (facts, loop roles, msProbe calls, dynamo sites, rules) has
// work to do. Nothing is read from disk and nothing is published.
const analysis::SourceText& warm_up_script();

void warm_up(analysis::PythonParser& parser);

}  // namespace msprobe::server
