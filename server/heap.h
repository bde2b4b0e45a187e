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
#include <optional>
#include <string>

namespace msprobe::server {

// Keeps up to kHeapKeepBytes freed at the top of each malloc arena instead of
// returning it to the kernel. A no-op without glibc, under the sanitizers
// (they bring their own allocator), and when the user set the M_TOP_PAD
// tunable (MALLOC_TOP_PAD_ or GLIBC_TUNABLES): theirs wins. Returns whether it
// changed the setting.
bool keep_freed_memory();
constexpr std::size_t kHeapKeepBytes = std::size_t{64} << 20;

// Asks the kernel for transparent huge pages (2 MB) for the malloc arena of
// the calling thread. A fresh process pays a page fault for every 4 KB page
// an analysis first touches: 520 faults for the 1,000-line script, about half
// its first parse on a VM where one costs ~10 us (tests/bench/profile-notes.md).
// With huge pages that is one fault per 2 MB. Call it first thing in a thread
// that analyses (the server's analysis and index threads, `check`'s workers).
// Only the arenas glibc gives threads other than the main one are advised
// (the main arena grows with brk, which drops the advice at each growth).
// A no-op without glibc or Linux, under the sanitizers, and when the user
// chose through GLIBC_TUNABLES (glibc.malloc.hugetlb). With THP set to
// "never" the advice does nothing.
enum class HugePages { NotTried, Advised, Refused };
HugePages prefer_huge_pages_for_this_thread();

// A batch command (`check`) grows its arenas past their first heap and uses
// the main arena too, which per-thread advice cannot reach; glibc itself asks
// for huge pages everywhere when GLIBC_TUNABLES holds glibc.malloc.hugetlb=1
// at start. respawn_with_huge_pages() re-executes the program (same pid,
// arguments and descriptors) with that tunable added when the kernel grants
// huge pages only on request ("madvise"); it returns when it did not (already
// respawned, the user set malloc.hugetlb, THP "always" or "never", not Linux,
// sanitized, exec failed). Its first call in the respawned process puts the
// user's GLIBC_TUNABLES back, so child processes see the environment as given.
void respawn_with_huge_pages(char** argv);

// The decision behind it, testable: the GLIBC_TUNABLES to respawn with, or
// nullopt. `tunables` is the user's value (nullptr: unset), `thp_mode` the
// text of /sys/kernel/mm/transparent_hugepage/enabled.
std::optional<std::string> huge_page_tunables(const char* tunables, const std::string& thp_mode);

// Returns free heap memory to the kernel (malloc_trim). Safe from any thread.
void release_free_memory();

// The process's resident set in bytes (/proc/self/statm), 0 when unknown.
std::size_t resident_bytes();

}  // namespace msprobe::server
