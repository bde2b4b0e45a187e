// file: URIs <-> local paths (percent-encoding per RFC 3986).
#pragma once

#include <string>

namespace msprobe::server {

// Local path of a file: URI, or "" for other schemes.
std::string uri_to_path(const std::string& uri);
std::string path_to_uri(const std::string& path);

}  // namespace msprobe::server
