// Stdio transport: a reader thread turns stdin bytes into frames (through the
// pure FrameReader) and posts them to the server's io_context; writes are
// serialised by a mutex so any thread may send.
#pragma once

#include <asio.hpp>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "msprobe/protocol/framing.h"

namespace msprobe::server {

class Transport {
 public:
  virtual ~Transport() = default;
  // One JSON-RPC message, already serialised (protocol::serialize).
  virtual void send_text(std::string message) = 0;
  void send(const nlohmann::json& message);
};

class StdioTransport final : public Transport {
 public:
  StdioTransport(int in_fd, int out_fd) : in_fd_(in_fd), out_fd_(out_fd) {}
  ~StdioTransport() override;

  // Frames (and framing errors) are delivered on `io`; `on_eof` once at the end.
  void start(asio::io_context& io, std::function<void(protocol::Frame)> on_frame,
             std::function<void(std::string)> on_eof);
  void send_text(std::string message) override;

 private:
  int in_fd_, out_fd_;
  std::mutex write_mutex_;
  std::thread reader_;
  bool broken_pipe_ = false;
};

}  // namespace msprobe::server
