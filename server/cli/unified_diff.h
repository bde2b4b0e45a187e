// A unified diff of two texts by lines (Myers' algorithm), for `--diff`.
#pragma once

#include <string>
#include <string_view>

namespace msprobe::cli {

// "" when the texts are equal. Lines keep their own line breaks; a last line
// without one is marked "\ No newline at end of file".
std::string unified_diff(std::string_view before, std::string_view after, const std::string& before_name,
                         const std::string& after_name, int context = 3);

}  // namespace msprobe::cli
