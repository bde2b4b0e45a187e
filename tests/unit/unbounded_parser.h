// The parse budget for tests that are not about it. A parser's default budget
// (2 s) is wall-clock time: on a loaded machine, under a sanitizer, a test
// parse can run past it and the test then fails for a reason it does not
// test. These tests say so explicitly and get a budget they never reach.
#pragma once

#include <cstdint>

#include "msprobe/analysis/syntax.h"

namespace test_support {

// One hour: no test parse comes near it, and it keeps the deadline
// arithmetic (now + budget) far from overflow.
constexpr uint64_t kUnboundedParseMicros = 3'600'000'000ULL;

// A PythonParser with that budget.
class UnboundedParser : public msprobe::analysis::PythonParser {
 public:
  UnboundedParser() { set_timeout_micros(kUnboundedParseMicros); }
};

}  // namespace test_support
