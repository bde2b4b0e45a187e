#include "heap.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define MSPROBE_LSP_SANITIZED_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define MSPROBE_LSP_SANITIZED_HEAP 1
#endif
#endif

namespace msprobe::server {

bool keep_freed_memory() {
#if defined(__GLIBC__) && !defined(MSPROBE_LSP_SANITIZED_HEAP)
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (std::getenv("MALLOC_TOP_PAD_") || (tunables && std::strstr(tunables, "malloc.top_pad"))) return false;
  return mallopt(M_TOP_PAD, static_cast<int>(kHeapKeepBytes)) == 1;
#else
  return false;
#endif
}

HugePages prefer_huge_pages_for_this_thread() {
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(MSPROBE_LSP_SANITIZED_HEAP)
  if (sizeof(void*) != 8) return HugePages::NotTried;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "malloc.hugetlb")) return HugePages::NotTried;  // glibc does it
  // The first allocation gives this thread its arena (or the main one).
  void* probe = std::malloc(1);
  if (!probe) return HugePages::NotTried;
  const auto at = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  if (at < reinterpret_cast<std::uintptr_t>(::sbrk(0))) return HugePages::NotTried;  // the main arena
  // glibc's arenas other than the main one are heaps of kArenaHeapBytes at an
  // address aligned to that size (how malloc finds a block's heap).
  constexpr std::uintptr_t kArenaHeapBytes = std::uintptr_t{64} << 20;
  void* heap = reinterpret_cast<void*>(at & ~(kArenaHeapBytes - 1));
  if (::madvise(heap, kArenaHeapBytes, MADV_HUGEPAGE) != 0) return HugePages::Refused;
  // Creating the arena touched its first pages before the advice, so its
  // first 2 MB would stay in small pages: collapse them (Linux >= 6.1; on an
  // older kernel only that first 2 MB keeps small pages).
  constexpr int kMadvCollapse = 25;  // MADV_COLLAPSE, not in every libc's headers yet
  ::madvise(heap, std::size_t{2} << 20, kMadvCollapse);
  return HugePages::Advised;
#else
  return HugePages::NotTried;
#endif
}

std::optional<std::string> huge_page_tunables(const char* tunables, const std::string& thp_mode) {
  if (tunables && std::strstr(tunables, "malloc.hugetlb")) return std::nullopt;  // the user chose
  if (thp_mode.find("[madvise]") == std::string::npos) return std::nullopt;      // "always" has them, "never" refuses
  std::string value = tunables && *tunables ? std::string(tunables) + ":" : std::string();
  return value + "glibc.malloc.hugetlb=1";
}

void respawn_with_huge_pages(char** argv) {
#if defined(__GLIBC__) && defined(__linux__) && !defined(MSPROBE_LSP_SANITIZED_HEAP)
  // Carries the user's GLIBC_TUNABLES across the respawn: "-" when it was
  // unset, else "+" and its value.
  static constexpr const char* kSavedTunables = "MSPROBE_LSP_USER_GLIBC_TUNABLES";
  auto restore = [](const char* saved) {
    if (saved[0] == '+') ::setenv("GLIBC_TUNABLES", saved + 1, 1);
    else ::unsetenv("GLIBC_TUNABLES");
    ::unsetenv(kSavedTunables);
  };
  if (const char* saved = std::getenv(kSavedTunables)) {  // the respawned process
    restore(std::string(saved).c_str());
    return;
  }
  std::string mode;
  if (std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r")) {
    char buf[128];
    std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    mode.assign(buf, n);
  }
  const char* user = std::getenv("GLIBC_TUNABLES");
  std::optional<std::string> with = huge_page_tunables(user, mode);
  if (!with) return;
  std::string saved = user ? std::string("+") + user : std::string("-");
  if (::setenv(kSavedTunables, saved.c_str(), 1) != 0) return;
  if (::setenv("GLIBC_TUNABLES", with->c_str(), 1) == 0) ::execv("/proc/self/exe", argv);
  restore(saved.c_str());  // exec failed: carry on as we are
#else
  (void)argv;
#endif
}

void release_free_memory() {
#if defined(__GLIBC__) && !defined(MSPROBE_LSP_SANITIZED_HEAP)
  malloc_trim(0);
#endif
}

std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  long page = ::sysconf(_SC_PAGESIZE);
  if (n != 2 || page <= 0) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(page);
}

}  // namespace msprobe::server
