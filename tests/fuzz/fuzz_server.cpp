// Fuzzes the whole server in-process: a LanguageServer on an io_context with a
// capturing transport, analysis run inline (no threads), no child processes.
// Input modes (first byte):
//   even: the rest is a list of JSON-RPC bodies, one per line, each framed and
//         sent after a canned initialize/initialized (reaches deep handlers);
//   odd:  the rest is a raw byte stream for the FrameReader (framing included).
// Invariants: no crash, leak or UB (the sanitizers), every outgoing message
// serialises to valid UTF-8 JSON that parses back, and the server stops
// feeding only after `exit` or the end of the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>
#include <asio.hpp>
#include <nlohmann/json.hpp>

#include "language_server.h"
#include "msprobe/protocol/framing.h"
#include "msprobe/protocol/jsonrpc.h"
#include "transport.h"

using namespace msprobe;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    }
    i += n;
  }
  return true;
}

class CheckingTransport final : public server::Transport {
 public:
  void send_text(std::string text) override {
    require(valid_utf8(text));
    require(nlohmann::json::accept(text));
    ++sent;
  }
  std::size_t sent = 0;
};

const char* kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":"file:///nonexistent-fuzz-root",)"
    R"("capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]},"textDocument":{"codeAction":)"
    R"({"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix","refactor","source"]}},"dataSupport":true,)"
    R"("resolveSupport":{"properties":["edit"]}},"codeLens":{},"hover":{"contentFormat":["markdown"]}},)"
    R"("workspace":{"applyEdit":true,"workspaceEdit":{"documentChanges":true,"resourceOperations":["create"]},)"
    R"("configuration":true},"window":{"showMessage":{}}},)"
    R"("initializationOptions":{"settings":{"debounceMs":0,"probeEnvironment":false}}}})";
const char* kInitialized = R"({"jsonrpc":"2.0","method":"initialized","params":{}})";

struct Quiet {
  Quiet() { spdlog::set_level(spdlog::level::off); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static Quiet quiet;
  if (size < 1 || size > 64 * 1024) return 0;
  const bool raw = data[0] & 1;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);

  asio::io_context io;
  CheckingTransport transport;
  {
    server::LanguageServer srv(io, transport, /*analysis_threads=*/0);
    srv.forbid_child_processes();
    protocol::FrameReader reader(1u << 20);
    auto pump = [&] {
      protocol::Frame f;
      while (reader.next(f)) {
        if (srv.state() == server::LanguageServer::State::Exited) return;
        srv.on_frame(std::move(f));
        for (int round = 0; round < 8; ++round) {
          io.restart();
          std::size_t n = io.poll();
          n += srv.run_pending_analysis();
          if (n == 0) break;
        }
      }
    };
    if (raw) {
      reader.feed(rest);
      pump();
    } else {
      reader.feed(protocol::frame_message(kInitialize));
      reader.feed(protocol::frame_message(kInitialized));
      pump();
      std::size_t start = 0;
      while (start <= rest.size() && srv.state() != server::LanguageServer::State::Exited) {
        std::size_t nl = rest.find('\n', start);
        std::string_view line = rest.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        if (!line.empty()) {
          reader.feed(protocol::frame_message(line));
          pump();
        }
        if (nl == std::string_view::npos) break;
        start = nl + 1;
      }
    }
    if (srv.state() != server::LanguageServer::State::Exited) srv.on_eof("end of the fuzz input");
    io.restart();
    io.poll();
  }
  return 0;
}
