// Myers' O(ND) line diff, grouped into hunks with context.
#include "cli/unified_diff.h"

#include <algorithm>
#include <vector>

namespace msprobe::cli {
namespace {

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n') {
      out.push_back(s.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  if (start < s.size()) out.push_back(s.substr(start));
  return out;
}

enum class Op { Keep, Del, Add };

// The edit script from a to b; falls back to "delete all, add all" when the
// difference is huge.
std::vector<Op> diff_ops(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = std::min(n + m, 4000);
  const int off = max + 1;
  std::vector<int> v(2 * max + 3, 0);
  std::vector<std::vector<int>> trace;
  int found = -1;
  for (int d = 0; d <= max && found < 0; ++d) {
    trace.push_back(v);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  std::vector<Op> ops;
  if (found < 0) {
    ops.assign(n, Op::Del);
    ops.insert(ops.end(), m, Op::Add);
    return ops;
  }
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& pv = trace[d];
    int k = x - y;
    int prev_k = (k == -d || (k != d && pv[off + k - 1] < pv[off + k + 1])) ? k + 1 : k - 1;
    int px = pv[off + prev_k], py = px - prev_k;
    while (x > px && y > py) ops.push_back(Op::Keep), --x, --y;
    if (x == px) ops.push_back(Op::Add), --y;
    else ops.push_back(Op::Del), --x;
  }
  while (x > 0 && y > 0) ops.push_back(Op::Keep), --x, --y;
  std::reverse(ops.begin(), ops.end());
  return ops;
}

void put_line(std::string& out, char tag, std::string_view line) {
  out += tag;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after, const std::string& before_name,
                         const std::string& after_name, int context) {
  if (before == after) return "";
  std::vector<std::string_view> a = split_lines(before), b = split_lines(after);
  std::vector<Op> ops = diff_ops(a, b);
  // Positions (in a and b) at each op.
  struct Step {
    Op op;
    int ai, bi;
  };
  std::vector<Step> steps;
  int ai = 0, bi = 0;
  for (Op op : ops) {
    steps.push_back({op, ai, bi});
    if (op != Op::Add) ++ai;
    if (op != Op::Del) ++bi;
  }
  std::string out = "--- " + before_name + "\n+++ " + after_name + "\n";
  const int total = static_cast<int>(steps.size());
  int i = 0;
  while (i < total) {
    if (steps[i].op == Op::Keep) {
      ++i;
      continue;
    }
    int start = std::max(0, i - context);
    int end = i;  // one past the last change in this hunk
    for (int j = i; j < total; ++j) {
      if (steps[j].op != Op::Keep) end = j + 1;
      else if (j - end >= 2 * context) break;
    }
    int stop = std::min(total, end + context);
    int a_start = steps[start].ai, b_start = steps[start].bi, a_len = 0, b_len = 0;
    std::string body;
    for (int j = start; j < stop; ++j) {
      const Step& s = steps[j];
      if (s.op == Op::Keep) put_line(body, ' ', a[s.ai]), ++a_len, ++b_len;
      else if (s.op == Op::Del) put_line(body, '-', a[s.ai]), ++a_len;
      else put_line(body, '+', b[s.bi]), ++b_len;
    }
    auto range = [](int startl, int len) {
      return std::to_string(len == 0 ? startl : startl + 1) + (len == 1 ? "" : "," + std::to_string(len));
    };
    out += "@@ -" + range(a_start, a_len) + " +" + range(b_start, b_len) + " @@\n" + body;
    i = stop;
  }
  return out;
}

}  // namespace msprobe::cli
