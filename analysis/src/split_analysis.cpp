#include "split_analysis.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "facts_builder.h"
#include "lap_clock.h"

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

namespace {

using Clock = LapClock;

// What the two threads share: the second part's inputs and results, then,
// with `whole_wanted`, the hand-over of the first part's tree and the
// whole text's parse from it.
struct Parts {
  std::string_view text;
  uint32_t at = 0, row = 0, end = 0;
  uint64_t budget = 0;
  const std::atomic<bool>* cancel = nullptr;  // the caller's, for the second part
  bool whole_wanted = false;

  std::shared_ptr<SecondPart> part = std::make_shared<SecondPart>();
  double parse_ms = 0, facts_ms = 0;

  std::mutex mutex;
  std::condition_variable cv;
  bool part_done = false, part_ok = false;
  bool first_given = false;  // `first` set, or null: no whole parse
  TreePtr first;
  std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
  TreePtr whole;  // read after SecondCore::wait()

  // On the SecondCore: the second part, then perhaps the whole text.
  void run(PythonParser& p) {
    Clock::time_point t = Clock::now();
    bool ok = false;
    try {
      p.set_timeout_micros(budget);
      p.set_cancel_flag(cancel);
      part->tree = p.parse_part(text, at, row, end, 0);
      p.set_cancel_flag(nullptr);
      parse_ms = lap(t);
      if (clean(part->tree)) part->facts = build_facts(part->tree, text, /*loop_roles=*/false);
      facts_ms = lap(t);
      ok = true;
    } catch (...) {
      p.set_cancel_flag(nullptr);
    }
    TreePtr from;
    {
      std::unique_lock<std::mutex> lock(mutex);
      part_done = true;
      part_ok = ok;
      cv.notify_all();
      if (!whole_wanted) return;
      cv.wait(lock, [this] { return first_given; });
      from = std::move(first);
    }
    if (!from || stop->load()) return;
    p.set_cancel_flag(stop.get());
    try {
      whole = p.parse(text, from);
    } catch (...) {
      whole = nullptr;
    }
    p.set_cancel_flag(nullptr);
  }

  // On the caller's thread.
  bool wait_part() {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [this] { return part_done; });
    return part_ok;
  }
  void give_first(TreePtr tree) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (first_given) return;
      first_given = true;
      first = std::move(tree);
    }
    cv.notify_all();
  }
};

// Holds the SecondCore from the start of its task until take() or the
// destruction, which stops a whole parse not wanted any more and waits for the
// task: no way out of build_in_parts, and no dropped result, leaves the helper
// reading a text that may be gone.
class WholeOnSecondCore final : public WholeTreeParse {
 public:
  WholeOnSecondCore(std::shared_ptr<Parts> parts, SecondCore& core) : parts_(std::move(parts)), core_(core) {}
  ~WholeOnSecondCore() override {
    if (taken_) return;
    parts_->stop->store(true);
    take();
  }
  TreePtr take() override {
    if (taken_) return nullptr;
    taken_ = true;
    parts_->give_first(nullptr);  // no first part handed over: the task ends after its own part
    core_.wait();
    return std::move(parts_->whole);
  }
  std::shared_ptr<std::atomic<bool>> stop_flag() override { return parts_->stop; }

 private:
  std::shared_ptr<Parts> parts_;
  SecondCore& core_;
  bool taken_ = false;
};

}  // namespace

std::optional<PartsBuild> build_in_parts(PythonParser& parser, SecondCore& second, std::string_view text, uint32_t at,
                                         bool loop_roles, bool whole_tree) {
  if (at == 0 || at >= text.size() || text[at - 1] != '\n') return std::nullopt;
  auto shared = std::make_shared<Parts>();
  Parts& parts = *shared;
  parts.text = text;
  parts.at = at;
  parts.row = static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
  parts.end = static_cast<uint32_t>(text.size());
  parts.budget = parser.timeout_micros();
  parts.cancel = parser.cancel_flag();
  parts.whole_wanted = whole_tree;
  if (!second.try_start([shared](PythonParser& p) { shared->run(p); })) return std::nullopt;
  // Released on every way out unless handed to the caller (whole_tree).
  auto held = std::make_shared<WholeOnSecondCore>(shared, second);

  PartsBuild out;
  Clock::time_point t = Clock::now();
  TreePtr first = parser.parse_part(text, 0, 0, at, parts.row);
  out.parse_ms = lap(t);
  if (!clean(first)) return std::nullopt;
  // The other thread's whole parse starts from its own handle of the tree
  // (a tree is used by one thread at a time; ts_tree_copy shares its nodes).
  if (whole_tree) parts.give_first(TreePtr(ts_tree_copy(first.get()), TreeDeleter{}));
  std::optional<FileFacts> facts = build_facts_in_parts(first, text, loop_roles, [&]() -> const SecondPart* {
    lap(t);
    const bool ok = parts.wait_part();
    out.waited_ms = lap(t);
    return ok ? parts.part.get() : nullptr;
  });
  if (!facts) return std::nullopt;
  out.facts = std::move(*facts);
  parts.wait_part();
  out.second_parse_ms = parts.parse_ms;
  out.second_facts_ms = parts.facts_ms;
  second.dispose(std::move(parts.part));  // freed on the thread that made it, after its task
  out.first_part = std::move(first);
  if (whole_tree) out.whole_tree = std::move(held);
  return out;
}

}  // namespace msprobe::analysis
