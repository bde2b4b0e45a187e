#include "split_analysis.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "facts_builder.h"

namespace msprobe::analysis {
namespace {

bool starts_statement(std::string_view text, std::size_t i) {
  std::string_view rest = text.substr(i, 10);
  for (std::string_view k : {"def ", "class ", "async def ", "@", "import ", "from "}) {
    if (rest.substr(0, k.size()) == k) return true;
  }
  return false;
}

bool clean(const TreePtr& tree) { return tree && !ts_node_has_error(ts_tree_root_node(tree.get())); }

}  // namespace

std::optional<uint32_t> split_point(std::string_view text) {
  const std::size_t n = text.size(), mid = n / 2, lo = n / 4, hi = n - n / 4;
  if (n < 4 || n > UINT32_MAX) return std::nullopt;
  std::optional<std::size_t> after, before;
  // Line starts at or after the middle, up to `hi`.
  for (std::size_t i = mid; i < hi;) {
    const void* nl = std::memchr(text.data() + i, '\n', hi - i);
    if (!nl) break;
    std::size_t s = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
    if (s < hi && starts_statement(text, s)) {
      after = s;
      break;
    }
    i = s;
  }
  // Line starts before the middle, down to `lo`.
  for (std::size_t i = mid; i > lo;) {
    std::size_t nl = text.rfind('\n', i - 1);
    if (nl == std::string_view::npos || nl < lo) break;
    if (nl + 1 < mid && starts_statement(text, nl + 1)) {
      before = nl + 1;
      break;
    }
    i = nl;
  }
  if (!after && !before) return std::nullopt;
  std::size_t at = !before ? *after : !after ? *before : (*after - mid <= mid - *before ? *after : *before);
  return static_cast<uint32_t>(at);
}

std::optional<PartsBuild> build_in_parts(PythonParser& parser, SecondCore& second, std::string_view text, uint32_t at,
                                         bool loop_roles) {
  if (at == 0 || at >= text.size() || text[at - 1] != '\n') return std::nullopt;
  const auto row = static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
  const auto end = static_cast<uint32_t>(text.size());
  const uint64_t budget = parser.timeout_micros();
  const std::atomic<bool>* cancel = parser.cancel_flag();
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point& t) {
    Clock::time_point now = Clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
    return ms;
  };
  auto second_part = std::make_shared<SecondPart>();
  SecondPart& part = *second_part;
  PartsBuild out;
  if (!second.try_start([&](PythonParser& p) {
        Clock::time_point t = Clock::now();
        p.set_timeout_micros(budget);
        p.set_cancel_flag(cancel);
        part.tree = p.parse_part(text, at, row, end, 0);
        p.set_cancel_flag(nullptr);
        out.second_parse_ms = ms_since(t);
        if (clean(part.tree)) part.facts = build_facts(part.tree, text, /*loop_roles=*/false);
        out.second_facts_ms = ms_since(t);
      }))
    return std::nullopt;
  // Waits for the second part once, before `part` goes away on any path.
  struct Join {
    SecondCore& core;
    bool ok = false, done = false;
    bool operator()() {
      if (!done) ok = core.wait(), done = true;
      return ok;
    }
    ~Join() { (*this)(); }
  } join{second};

  Clock::time_point t = Clock::now();
  TreePtr first = parser.parse_part(text, 0, 0, at, row);
  out.parse_ms = ms_since(t);
  if (!clean(first)) return std::nullopt;
  std::optional<FileFacts> facts = build_facts_in_parts(first, text, loop_roles, [&]() -> const SecondPart* {
    ms_since(t);
    const bool ok = join();
    out.waited_ms = ms_since(t);
    return ok ? &part : nullptr;
  });
  if (!facts) return std::nullopt;
  out.facts = std::move(*facts);
  join();
  second.dispose(std::move(second_part));  // freed on the thread that made it
  out.first_part = std::move(first);
  return out;
}

}  // namespace msprobe::analysis
