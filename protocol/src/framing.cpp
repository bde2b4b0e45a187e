// Content-Length framing as in the LSP base protocol, tolerant like clangd:
// headers in any order and case, bare "\n" line ends, unknown headers ignored,
// a bounded Content-Length, and resynchronisation after a bad frame.
#include "msprobe/protocol/framing.h"

#include <algorithm>
#include <cctype>

namespace msprobe::protocol {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Finds the blank line that ends a header block; returns {header_end, body_start}.
bool find_header_end(std::string_view s, std::size_t& header_end, std::size_t& body_start) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\n') continue;
    // A line end at i; the next line is empty if it is "\n" or "\r\n".
    if (i + 1 < s.size() && s[i + 1] == '\n') {
      header_end = i;
      body_start = i + 2;
      return true;
    }
    if (i + 2 < s.size() && s[i + 1] == '\r' && s[i + 2] == '\n') {
      header_end = i;
      body_start = i + 3;
      return true;
    }
  }
  return false;
}

// Index of the next "content-length" (any case) at or after `from`. After a
// bad frame the next header may follow the debris directly, so it is looked
// for anywhere, not only at a line start.
std::size_t find_resync_point(std::string_view s, std::size_t from) {
  static constexpr std::string_view kName = "content-length";
  for (std::size_t i = from; i + kName.size() <= s.size(); ++i) {
    if (iequals(s.substr(i, kName.size()), kName)) return i;
  }
  return std::string_view::npos;
}

}  // namespace

void FrameReader::feed(std::string_view bytes) {
  buffer_.append(bytes.data(), bytes.size());
  parse();
}

bool FrameReader::next(Frame& out) {
  if (ready_.empty()) return false;
  out = std::move(ready_.front());
  ready_.pop_front();
  return true;
}

void FrameReader::parse() {
  while (parse_one()) {
  }
  // Compact once the consumed prefix dominates, to keep feed() amortised O(n).
  if (consumed_ > 0 && consumed_ * 2 >= buffer_.size()) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
}

void FrameReader::fail_and_resync(std::string message, std::size_t skip_at_least) {
  ready_.push_back(Frame{Frame::Kind::Error, {}, std::move(message)});
  consumed_ = std::min(consumed_ + skip_at_least, buffer_.size());
  resyncing_ = true;
}

// Discards bytes up to the next "content-length". Returns false while none is
// buffered; the last 13 bytes are kept then, since they may begin one that the
// next read completes. So the frames never depend on how reads split the stream.
bool FrameReader::resync() {
  static constexpr std::size_t kKeep = 13;  // "content-length" minus one byte
  std::size_t at = find_resync_point(buffer_, consumed_);
  if (at == std::string_view::npos) {
    if (buffer_.size() > consumed_ + kKeep) consumed_ = buffer_.size() - kKeep;
    return false;
  }
  consumed_ = at;
  resyncing_ = false;
  return true;
}

bool FrameReader::parse_one() {
  if (resyncing_ && !resync()) return false;
  std::string_view all(buffer_);
  // Skip stray blank lines between messages. They are consumed at once, so
  // what is pending never depends on how the reads split the stream.
  while (consumed_ < all.size() && (all[consumed_] == '\r' || all[consumed_] == '\n')) ++consumed_;
  std::string_view s = all.substr(consumed_);
  if (s.empty()) return false;
  // The header block must end within kMaxHeaderBytes, whatever follows.
  std::size_t header_end = 0, body_start = 0;
  if (!find_header_end(s.substr(0, kMaxHeaderBytes), header_end, body_start)) {
    if (s.size() >= kMaxHeaderBytes) {
      fail_and_resync("header block longer than " + std::to_string(kMaxHeaderBytes) + " bytes without a blank line", 1);
      return true;
    }
    return false;
  }

  bool have_length = false;
  bool bad_length = false;
  unsigned long long length = 0;
  std::string problem;
  std::string_view headers = s.substr(0, header_end);
  while (!headers.empty()) {
    std::size_t eol = headers.find('\n');
    std::string_view line = trim(headers.substr(0, eol));
    headers = eol == std::string_view::npos ? std::string_view{} : headers.substr(eol + 1);
    if (line.empty() || line.front() == '#') continue;  // '#' lines: comments in test transcripts
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      problem = "malformed header line '" + std::string(line.substr(0, 80)) + "'";
      continue;
    }
    std::string_view name = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (!iequals(name, "Content-Length")) continue;  // Content-Type and X- headers are accepted and ignored
    have_length = true;                              // a repeated Content-Length: the last one wins
    bad_length = value.empty() || value.size() > 19 ||
                 !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    length = bad_length ? 0 : std::stoull(std::string(value));
    if (bad_length) problem = "invalid Content-Length '" + std::string(value.substr(0, 40)) + "'";
  }
  if (!have_length || bad_length) {
    // A missing length may hide a real header inside the debris: look again
    // one byte on. A bad length: skip its whole header block.
    std::size_t skip = have_length ? body_start : 1;
    fail_and_resync(
        have_length ? problem : "missing Content-Length header" + (problem.empty() ? "" : " (" + problem + ")"), skip);
    return true;
  }
  if (length > max_content_length_) {
    fail_and_resync("refusing message with Content-Length " + std::to_string(length) + " (limit " +
                        std::to_string(max_content_length_) + ")",
                    body_start);
    return true;
  }
  if (s.size() - body_start < length) return false;
  ready_.push_back(Frame{Frame::Kind::Message, std::string(s.substr(body_start, length)), {}});
  consumed_ += body_start + length;
  return true;
}

std::string frame_message(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body.data(), body.size());
  return out;
}

}  // namespace msprobe::protocol
