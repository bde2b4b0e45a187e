// The server's heap settings (server/heap.h): freed memory is kept while the
// server works and given back by release_free_memory().
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include "heap.h"

using namespace msprobe::server;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// 48 MB in small blocks (each below the mmap threshold, so they come from the
// heap, not from their own mappings), every page touched.
std::vector<std::unique_ptr<char[]>> touch_small_blocks() {
  constexpr std::size_t kBlock = 4096, kCount = (48u << 20) / kBlock;
  std::vector<std::unique_ptr<char[]>> blocks;
  blocks.reserve(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    blocks.emplace_back(new char[kBlock]);
    std::memset(blocks.back().get(), 1, kBlock);
  }
  return blocks;
}

}  // namespace

TEST_CASE("resident_bytes reads the process's resident set", "[heap]") {
  release_free_memory();  // what earlier tests in this process freed would be reused without a fault
  std::size_t before = resident_bytes();
  REQUIRE(before > 0);
  auto blocks = touch_small_blocks();
  REQUIRE(resident_bytes() >= before + (32u << 20));
}

TEST_CASE("freed memory is kept for reuse until released", "[heap]") {
  if (kSanitized) {
    SUCCEED("the sanitizers' allocator ignores mallopt and malloc_trim");
    return;
  }
#if defined(__GLIBC__)
  REQUIRE(keep_freed_memory());
  release_free_memory();
  std::size_t base = resident_bytes();
  {
    auto blocks = touch_small_blocks();
    REQUIRE(resident_bytes() >= base + (32u << 20));
  }
  // Freed, but kept: the next analysis reuses these pages without faulting them in again.
  std::size_t kept = resident_bytes();
  CHECK(kept >= base + (32u << 20));
  release_free_memory();
  CHECK(resident_bytes() + (32u << 20) <= kept);
#endif
}
