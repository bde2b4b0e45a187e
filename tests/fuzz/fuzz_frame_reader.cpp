// Fuzzes the FrameReader: arbitrary bytes, fed whole and fed in chunks whose
// sizes the input chooses, must give the same frames in the same order (the
// reader may not depend on how reads split the stream), every message must
// respect the Content-Length cap, and the pending count must stay within what
// was fed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/protocol/framing.h"

using msprobe::protocol::Frame;
using msprobe::protocol::FrameReader;

namespace {

constexpr std::size_t kCap = 4096;  // small, so the cap path is reached

void require(bool ok) {
  if (!ok) std::abort();
}

std::vector<Frame> drain(FrameReader& r) {
  std::vector<Frame> out;
  Frame f;
  while (r.next(f)) out.push_back(f);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // The first byte seeds the chunk sizes; the rest is the stream.
  uint32_t seed = data[0];
  std::string_view stream(reinterpret_cast<const char*>(data + 1), size - 1);

  FrameReader whole(kCap);
  whole.feed(stream);
  std::vector<Frame> expected = drain(whole);
  require(whole.pending_bytes() <= stream.size());

  FrameReader chunked(kCap);
  std::vector<Frame> got;
  std::size_t off = 0;
  while (off < stream.size()) {
    seed = seed * 1103515245u + 12345u;
    std::size_t n = 1 + (seed >> 16) % 17;
    n = std::min(n, stream.size() - off);
    chunked.feed(stream.substr(off, n));
    off += n;
    std::vector<Frame> more = drain(chunked);
    got.insert(got.end(), more.begin(), more.end());
  }
  require(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    require(got[i].kind == expected[i].kind);
    require(got[i].body == expected[i].body);
    if (got[i].kind == Frame::Kind::Message) require(got[i].body.size() <= kCap);
    else require(!got[i].error.empty());
  }
  require(chunked.pending_bytes() == whole.pending_bytes());
  return 0;
}
