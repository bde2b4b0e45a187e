// The process heap of the language server (glibc malloc).
//
// An edit of a large document frees the previous analysis (tens of MB) and
// allocates the next one right away. By default glibc hands the freed top of
// each thread's arena back to the kernel at once, so every analysis pays again
// for the page faults of the memory the previous one had: on the 10,000-line
// benchmark script the analysis thread that gave memory back took twice as
// long for facts and summary as the other (tests/bench/profile-notes.md).
// The server keeps freed memory for reuse while it works, and gives what lies
// free back when it has been idle for a while, as clangd's periodic
// malloc_trim does.
#pragma once

#include <cstddef>

namespace msprobe::server {

// Keeps up to kHeapKeepBytes freed at the top of each malloc arena instead of
// returning it to the kernel. A no-op without glibc, under the sanitizers
// (they bring their own allocator), and when the user set the M_TOP_PAD
// tunable (MALLOC_TOP_PAD_ or GLIBC_TUNABLES): theirs wins. Returns whether it
// changed the setting.
bool keep_freed_memory();
constexpr std::size_t kHeapKeepBytes = std::size_t{64} << 20;

// Returns free heap memory to the kernel (malloc_trim). Safe from any thread.
void release_free_memory();

// The process's resident set in bytes (/proc/self/statm), 0 when unknown.
std::size_t resident_bytes();

}  // namespace msprobe::server
