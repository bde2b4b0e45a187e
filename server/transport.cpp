// Blocking reader thread + locked writer over file descriptors.
#include "transport.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "msprobe/protocol/jsonrpc.h"
#include "thread_name.h"

namespace msprobe::server {

StdioTransport::~StdioTransport() {
  // The reader may be blocked in read(); it owns nothing but the frame
  // reader, so it is left to end with the process.
  if (reader_.joinable()) reader_.detach();
}

void StdioTransport::start(asio::io_context& io, std::function<void(protocol::Frame)> on_frame,
                           std::function<void(std::string)> on_eof) {
  reader_ = std::thread([this, &io, on_frame = std::move(on_frame), on_eof = std::move(on_eof)] {
    name_this_thread(kReaderThread);
    protocol::FrameReader reader;
    std::string buf(1 << 16, '\0');
    std::string why = "end of input";
    for (;;) {
      ssize_t n = ::read(in_fd_, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        why = std::string("read error: ") + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      reader.feed(std::string_view(buf.data(), static_cast<std::size_t>(n)));
      protocol::Frame frame;
      while (reader.next(frame)) asio::post(io, [on_frame, f = std::move(frame)]() mutable { on_frame(std::move(f)); });
    }
    if (reader.pending_bytes() > 0)
      why += " (input was cut off: " + std::to_string(reader.pending_bytes()) + " bytes of an incomplete message)";
    asio::post(io, [on_eof, why] { on_eof(why); });
  });
}

void Transport::send(const nlohmann::json& message) { send_text(protocol::serialize(message)); }

void StdioTransport::send_text(std::string message) {
  std::string framed = protocol::frame_message(message);
  std::lock_guard<std::mutex> lock(write_mutex_);
  if (broken_pipe_) return;
  std::size_t off = 0;
  while (off < framed.size()) {
    ssize_t n = ::write(out_fd_, framed.data() + off, framed.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      spdlog::error("cannot write to the client: {}", std::strerror(errno));
      broken_pipe_ = true;
      return;
    }
    off += static_cast<std::size_t>(n);
  }
}

}  // namespace msprobe::server
