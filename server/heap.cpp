#include "heap.h"

#include <unistd.h>

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
