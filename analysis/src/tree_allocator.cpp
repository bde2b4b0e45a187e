#include "msprobe/analysis/tree_allocator.h"

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__SANITIZE_ADDRESS__)
#define MSPROBE_TREE_ALLOCATOR_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MSPROBE_TREE_ALLOCATOR_OFF 1
#endif
#endif

namespace msprobe::analysis::tree_allocator {
namespace {

// Size classes of 16 bytes, header included: class c holds blocks of
// (c + 1) * 16 bytes. Larger requests go to malloc with the same header.
constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = 64;
constexpr std::size_t kLargeClass = SIZE_MAX;

struct alignas(16) Header {
  std::size_t size_class;  // kLargeClass for a block from malloc as is
  union {
    std::size_t size;  // a large block: the size asked for
    Header* next;      // a cached small block: the next one in its list
  };
};
static_assert(sizeof(Header) == kGranule, "the header keeps malloc's 16-byte alignment");

constexpr std::size_t kMaxSmall = kClasses * kGranule - sizeof(Header);

constexpr std::size_t block_bytes(std::size_t size_class) { return (size_class + 1) * kGranule; }

// Plain data, constant-initialised: usable until the thread's storage goes,
// also after Drain below has run (then every block goes to free()).
struct Cache {
  Header* head[kClasses];
  std::size_t bytes;
  bool drain_armed;
  bool ending;
};
thread_local Cache t_cache{};

// Gives a thread's cached blocks back to malloc when the thread ends.
struct Drain {
  bool armed = false;
  ~Drain() {
    Cache& c = t_cache;
    c.ending = true;
    for (Header*& head : c.head) {
      while (head) {
        Header* h = head;
        head = h->next;
        std::free(h);
      }
    }
    c.bytes = 0;
  }
};
thread_local Drain t_drain;

[[noreturn]] void out_of_memory(std::size_t size) {
  std::fprintf(stderr, "msprobe-lsp: tree-sitter failed to allocate %zu bytes\n", size);
  std::abort();
}

Header* header_of(void* block) { return static_cast<Header*>(block) - 1; }

std::size_t usable_bytes(const Header* h) {
  return h->size_class == kLargeClass ? h->size : block_bytes(h->size_class) - sizeof(Header);
}

}  // namespace

void* allocate(std::size_t size) {
  if (size > kMaxSmall) {
    if (size > SIZE_MAX - sizeof(Header)) out_of_memory(size);
    auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + size));
    if (!h) out_of_memory(size);
    h->size_class = kLargeClass;
    h->size = size;
    return h + 1;
  }
  const std::size_t size_class = (size + sizeof(Header) + kGranule - 1) / kGranule - 1;
  Cache& c = t_cache;
  if (Header* h = c.head[size_class]) {
    c.head[size_class] = h->next;
    c.bytes -= block_bytes(size_class);
    return h + 1;
  }
  auto* h = static_cast<Header*>(std::malloc(block_bytes(size_class)));
  if (!h) out_of_memory(size);
  h->size_class = size_class;
  return h + 1;
}

void* allocate_zeroed(std::size_t count, std::size_t size) {
  if (size != 0 && count > SIZE_MAX / size) out_of_memory(SIZE_MAX);
  void* block = allocate(count * size);
  std::memset(block, 0, count * size);
  return block;
}

void* reallocate(void* block, std::size_t size) {
  if (!block) return allocate(size);
  Header* h = header_of(block);
  const std::size_t have = usable_bytes(h);
  if (h->size_class != kLargeClass && size <= have) return block;
  if (h->size_class == kLargeClass && size > kMaxSmall) {
    if (size > SIZE_MAX - sizeof(Header)) out_of_memory(size);
    auto* grown = static_cast<Header*>(std::realloc(h, sizeof(Header) + size));
    if (!grown) out_of_memory(size);
    grown->size = size;
    return grown + 1;
  }
  void* moved = allocate(size);
  std::memcpy(moved, block, have < size ? have : size);
  release(block);
  return moved;
}

void release(void* block) {
  if (!block) return;
  Header* h = header_of(block);
  if (h->size_class == kLargeClass) {
    std::free(h);
    return;
  }
  Cache& c = t_cache;
  const std::size_t bytes = block_bytes(h->size_class);
  if (c.ending || c.bytes + bytes > kCacheCapBytes) {
    std::free(h);
    return;
  }
  if (!c.drain_armed) {
    t_drain.armed = true;  // first use of t_drain registers its destructor
    c.drain_armed = true;
  }
  h->next = c.head[h->size_class];
  c.head[h->size_class] = h;
  c.bytes += bytes;
}

std::size_t cached_bytes() { return t_cache.bytes; }

void install() {
#ifndef MSPROBE_TREE_ALLOCATOR_OFF
  static std::once_flag once;
  std::call_once(once, [] { ts_set_allocator(&allocate, &allocate_zeroed, &reallocate, &release); });
#endif
}

}  // namespace msprobe::analysis::tree_allocator
