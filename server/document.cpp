#include "document.h"

#include <atomic>

namespace msprobe::server {

analysis::SourceText& DocumentText::for_edit() {
  // Only this thread hands out references (share()), so a count of one
  // cannot grow behind our back; another thread may only drop its reference,
  // which makes a count read as two merely copy once more. The fence orders
  // that thread's last reads of the text before our writes.
  if (text_.use_count() > 1) text_ = std::make_shared<analysis::SourceText>(*text_);
  std::atomic_thread_fence(std::memory_order_acquire);
  return *text_;
}

}  // namespace msprobe::server
