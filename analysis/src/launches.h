// Calls that start worker processes running a function: the worker is the
// entry of the process msProbe must be built in (msprobe-facts §2.1, §3.3).
// Used by MSP207 within a file and by the project layer across files.
#pragma once

#include <string>
#include <vector>

#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

struct Launch {
  int call = -1;       // index into FileFacts::calls
  std::string worker;  // the worker function as written ("main_worker", "workers.run")
  std::string how;     // "mp.spawn(...)", for messages
};

// `torch.multiprocessing.spawn(fn, ...)`, `multiprocessing.Process(target=fn)`
// and `ctx.Process(target=fn)`, `start_processes(...)`,
// `elastic_launch(config)(fn, ...)`, `notebook_launcher(fn, ...)`.
std::vector<Launch> find_launches(const FileFacts& f);

}  // namespace msprobe::analysis
