// FrameReader: splits a byte stream into LSP messages (Content-Length framing).
// Pure: bytes in, message bodies or framing errors out; no I/O, so it can be
// unit-tested and fuzzed without a process.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace msprobe::protocol {

struct Frame {
  enum class Kind { Message, Error };
  Kind kind = Kind::Message;
  std::string body;   // the JSON text when kind == Message
  std::string error;  // what was wrong when kind == Error
};

class FrameReader {
 public:
  static constexpr std::size_t kDefaultMaxContentLength = std::size_t{64} << 20;  // 64 MiB
  static constexpr std::size_t kMaxHeaderBytes = 8192;

  explicit FrameReader(std::size_t max_content_length = kDefaultMaxContentLength)
      : max_content_length_(max_content_length) {}

  // Appends bytes and extracts every complete frame (or framing error) they finish.
  void feed(std::string_view bytes);
  // Next parsed frame, in stream order. Returns false when none is ready.
  bool next(Frame& out);
  // Bytes buffered that do not yet form a complete frame (for an EOF report).
  std::size_t pending_bytes() const { return buffer_.size() - consumed_; }

 private:
  void parse();
  bool parse_one();  // false: need more bytes
  void fail_and_resync(std::string message, std::size_t skip_at_least);
  bool resync();  // false: no header start buffered yet

  std::size_t max_content_length_;
  std::string buffer_;
  std::size_t consumed_ = 0;  // bytes of buffer_ already turned into frames
  bool resyncing_ = false;    // after a bad frame: looking for the next Content-Length
  std::deque<Frame> ready_;
};

// Adds the Content-Length header to a JSON body.
std::string frame_message(std::string_view body);

}  // namespace msprobe::protocol
