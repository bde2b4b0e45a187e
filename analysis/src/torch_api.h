// The torch APIs msProbe wraps when the debugger is built, as far as an
// import by name shows them: a name bound from them before that keeps the
// original function (MSP208, and the project's placement of the construction).
#pragma once

#include <string>

namespace msprobe::analysis {

// `from MODULE import NAME` binds a function msProbe wraps.
bool is_wrapped_api(const std::string& module, const std::string& name);

}  // namespace msprobe::analysis
