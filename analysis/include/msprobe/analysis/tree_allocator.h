// An allocator for tree-sitter (ts_set_allocator) in batch runs: a
// per-thread cache of small blocks in front of malloc.
//
// Why: a syntax tree is tens of thousands of small blocks allocated during
// one parse and freed together when the tree goes. glibc's own per-thread
// cache holds 7 blocks per size, so the rest of each tree goes through its
// bins and their consolidation: 17% of `msprobe-lsp check` was spent in
// malloc/free (perf, 1,000 generated scripts). Keeping the freed blocks of a
// tree, per size class, for the next parse on the same thread removes most
// of that (see docs/benchmarks.md).
//
// Only `msprobe-lsp check` installs it. The server does not: memory held per
// size class cannot serve other sizes, and with 100 open documents the
// server's peak RSS went from 37 to 76 MB with it.
//
// Blocks carry a 16-byte header with their size class, so they may be freed
// on any thread (a tree parsed by the worker can be released by a request);
// a freed block goes to the freeing thread's cache, capped in bytes, and to
// free() beyond the cap or when the thread is ending. Under AddressSanitizer
// the allocator is not installed (ASan must see every block), but its
// functions are still unit-tested there directly.
#pragma once

#include <cstddef>

namespace msprobe::analysis::tree_allocator {

void* allocate(std::size_t size);
void* allocate_zeroed(std::size_t count, std::size_t size);
void* reallocate(void* block, std::size_t size);
void release(void* block);

// Bytes held by the calling thread's cache (for tests and the benchmark).
std::size_t cached_bytes();
// The cap on one thread's cache.
constexpr std::size_t kCacheCapBytes = std::size_t{4} << 20;

// Installs the functions above as tree-sitter's allocator, once per process.
// Must run before the first tree-sitter object exists (blocks from malloc
// must not reach release()). Does nothing in sanitizer builds.
void install();

}  // namespace msprobe::analysis::tree_allocator
