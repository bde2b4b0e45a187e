// The server's heap settings (server/heap.h): freed memory is kept while the
// server works and given back by release_free_memory(); huge pages for the
// analysis threads' arenas and for `check`.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
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

TEST_CASE("huge_page_tunables adds glibc's THP tunable only where it changes something", "[heap]") {
  const std::string madvise = "always [madvise] never\n";
  struct Case {
    const char* user;  // GLIBC_TUNABLES as the user set it (nullptr: unset)
    std::string thp;   // /sys/kernel/mm/transparent_hugepage/enabled
    std::optional<std::string> expected;
  };
  const Case cases[] = {
      {nullptr, madvise, "glibc.malloc.hugetlb=1"},                                              // on request only: ask
      {"", madvise, "glibc.malloc.hugetlb=1"},                                                   // set but empty
      {"glibc.malloc.arena_max=2", madvise, "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"},  // theirs kept
      {"glibc.malloc.hugetlb=0", madvise, std::nullopt},                                         // the user chose
      {nullptr, "[always] madvise never\n", std::nullopt},  // every fault is huge already
      {nullptr, "always madvise [never]\n", std::nullopt},  // the kernel refuses
      {nullptr, "", std::nullopt},                          // no THP in this kernel
  };
  for (const Case& c : cases) {
    INFO("user=" << (c.user ? c.user : "(unset)") << " thp=" << c.thp);
    CHECK(huge_page_tunables(c.user, c.thp) == c.expected);
  }
}

TEST_CASE("the respawned process gets the user's GLIBC_TUNABLES back", "[heap]") {
  if (kSanitized) {
    SUCCEED("no respawn under the sanitizers");
    return;
  }
#if defined(__GLIBC__) && defined(__linux__)
  std::optional<std::string> had;
  if (const char* v = std::getenv("GLIBC_TUNABLES")) had = v;
  char arg0[] = "msprobe-lsp";
  char* argv[] = {arg0, nullptr};
  // As the first process leaves it for the second: a value, then none.
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", 1);
  ::setenv("MSPROBE_LSP_USER_GLIBC_TUNABLES", "+glibc.malloc.arena_max=2", 1);
  respawn_with_huge_pages(argv);  // restores and returns: no second exec
  REQUIRE(std::getenv("GLIBC_TUNABLES") != nullptr);
  CHECK(std::string(std::getenv("GLIBC_TUNABLES")) == "glibc.malloc.arena_max=2");
  CHECK(std::getenv("MSPROBE_LSP_USER_GLIBC_TUNABLES") == nullptr);

  ::setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1);
  ::setenv("MSPROBE_LSP_USER_GLIBC_TUNABLES", "-", 1);
  respawn_with_huge_pages(argv);
  CHECK(std::getenv("GLIBC_TUNABLES") == nullptr);
  CHECK(std::getenv("MSPROBE_LSP_USER_GLIBC_TUNABLES") == nullptr);
  if (had) ::setenv("GLIBC_TUNABLES", had->c_str(), 1);
#endif
}

namespace {
// The VmFlags line of the mapping holding `p` in /proc/self/smaps, "" when not found.
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find('-') < line.find(' ')) {
      inside = at >= lo && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}
}  // namespace

TEST_CASE("a thread's arena is advised to use huge pages, the main arena is left alone", "[heap]") {
  if (kSanitized) {
    SUCCEED("the sanitizers bring their own allocator");
    return;
  }
#if defined(__GLIBC__) && defined(__linux__)
  if (const char* t = std::getenv("GLIBC_TUNABLES"); t && std::strstr(t, "malloc.hugetlb")) {
    SUCCEED("glibc was told by the environment");
    return;
  }
  CHECK(prefer_huge_pages_for_this_thread() == HugePages::NotTried);  // this is the main thread
  HugePages got = HugePages::NotTried;
  std::string flags;
  std::thread t([&] {
    got = prefer_huge_pages_for_this_thread();
    auto block = std::make_unique<char[]>(4096);
    flags = vm_flags_of(block.get());
  });
  t.join();
  if (got == HugePages::Refused) {
    SUCCEED("this kernel has no transparent huge pages");
    return;
  }
  REQUIRE(got == HugePages::Advised);
  CHECK(flags.find(" hg") != std::string::npos);
#endif
}
