// Reads an msProbe dump.json as a stream (it can be hundreds of megabytes)
// for what check-dump needs: whether its "data" holds anything, and how many
// bytes a `task: tensor` dump of the same step would write. Every tensor a
// dump records, in any task, carries its dtype and shape; a tensor dump
// writes one file per such entry, so the sum of numel x element size over
// them is what it would put on disk (file headers aside).
#pragma once

#include <string>

namespace msprobe::server {

struct DumpJsonScan {
  bool readable = false;         // valid JSON with an object at the top
  bool has_data = false;         // "data" is a non-empty object
  long long tensors = 0;         // entries with a dtype and a shape
  long long tensor_bytes = 0;    // their numel x element size (saturating)
  long long unknown_dtypes = 0;  // entries whose dtype has no known size (not counted in tensor_bytes)
};

DumpJsonScan scan_dump_json(const std::string& path);
DumpJsonScan scan_dump_json_text(const std::string& text);

// Bytes per element of a dtype as msProbe writes it ("torch.float32",
// "torch.bfloat16", also without the "torch." prefix); 0 when unknown.
int dtype_size(const std::string& dtype);

}  // namespace msprobe::server
