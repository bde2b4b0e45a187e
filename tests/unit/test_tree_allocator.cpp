// The batch allocator for tree-sitter, called directly: installing it here
// would hand blocks from malloc (made by earlier tests) to release().
// `msprobe-lsp check` runs with it installed (tests/cli, the benchmark).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "msprobe/analysis/tree_allocator.h"

namespace ta = msprobe::analysis::tree_allocator;

namespace {
bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
}  // namespace

TEST_CASE("tree allocator: blocks are aligned, writable and recycled per size class", "[tree_allocator]") {
  const std::size_t before = ta::cached_bytes();
  void* a = ta::allocate(40);
  REQUIRE(aligned16(a));
  std::memset(a, 0xab, 40);
  ta::release(a);
  CHECK(ta::cached_bytes() == before + 64);  // 40 bytes + the 16-byte header, in 16-byte classes
  void* b = ta::allocate(33);                // same class: the block comes back
  CHECK(b == a);
  CHECK(ta::cached_bytes() == before);
  void* c = ta::allocate(60);  // another class
  CHECK(c != a);
  ta::release(b);
  ta::release(c);
  ta::release(nullptr);  // like free(NULL)
}

TEST_CASE("tree allocator: calloc zeroes, realloc keeps the content", "[tree_allocator]") {
  auto* z = static_cast<unsigned char*>(ta::allocate(40));
  std::memset(z, 0xff, 40);
  ta::release(z);
  auto* zeroed = static_cast<unsigned char*>(ta::allocate_zeroed(5, 8));  // likely the dirty block above
  for (int i = 0; i < 40; ++i) REQUIRE(zeroed[i] == 0);

  // small -> small (in place), small -> large, large -> larger, large -> small
  for (int i = 0; i < 40; ++i) zeroed[i] = static_cast<unsigned char>(i);
  auto* p = static_cast<unsigned char*>(ta::reallocate(zeroed, 44));
  CHECK(p == zeroed);
  p = static_cast<unsigned char*>(ta::reallocate(p, 5000));
  REQUIRE(aligned16(p));
  for (int i = 0; i < 40; ++i) REQUIRE(p[i] == i);
  for (int i = 40; i < 5000; ++i) p[i] = static_cast<unsigned char>(i * 7);
  p = static_cast<unsigned char*>(ta::reallocate(p, 200000));
  for (int i = 40; i < 5000; ++i) REQUIRE(p[i] == static_cast<unsigned char>(i * 7));
  p = static_cast<unsigned char*>(ta::reallocate(p, 24));
  for (int i = 0; i < 24; ++i) REQUIRE(p[i] == i);
  ta::release(p);
  void* fresh = ta::reallocate(nullptr, 16);  // realloc(NULL, n) is malloc(n)
  REQUIRE(fresh != nullptr);
  ta::release(fresh);
}

TEST_CASE("tree allocator: the cache is capped and blocks may be freed on another thread", "[tree_allocator]") {
  std::vector<void*> blocks;
  const std::size_t n = ta::kCacheCapBytes / 64 + 1000;  // more than the cap holds
  for (std::size_t i = 0; i < n; ++i) blocks.push_back(ta::allocate(48));
  std::size_t cached_there = 0;
  std::thread other([&] {
    for (void* b : blocks) ta::release(b);  // made here, freed there
    cached_there = ta::cached_bytes();
  });
  other.join();  // the thread's cache is given back to malloc as it ends
  CHECK(cached_there <= ta::kCacheCapBytes);
  CHECK(cached_there >= ta::kCacheCapBytes - 64);
}
