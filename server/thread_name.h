// Names the calling thread (`top -H`, gdb, /proc/PID/task/*/comm): at most 15
// characters. The benchmark's client (tests/bench/lsp_bench.py) tells the
// request path's threads from the background ones by these names.
#pragma once

#ifdef __linux__
#include <pthread.h>
#endif

namespace msprobe::server {

inline constexpr const char* kReaderThread = "msprobe-reader";
inline constexpr const char* kAnalysisThread = "msprobe-analyze";
inline constexpr const char* kSecondCoreThread = "msprobe-parts";  // the second half of a large didOpen's parse
inline constexpr const char* kIndexThread = "msprobe-index";       // background
inline constexpr const char* kProbeThread = "msprobe-probe";       // background

inline void name_this_thread(const char* name) {
#ifdef __linux__
  pthread_setname_np(pthread_self(), name);
#else
  (void)name;
#endif
}

}  // namespace msprobe::server
