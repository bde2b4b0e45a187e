// The torch APIs msProbe wraps (see torch_api.h).
#include "torch_api.h"

#include <cctype>
#include <set>

namespace msprobe::analysis {
namespace {

bool lower_first(const std::string& s) { return !s.empty() && std::islower(static_cast<unsigned char>(s[0])); }

}  // namespace

bool is_wrapped_api(const std::string& module, const std::string& n) {
  static const std::set<std::string> kTorchNotApi = {
      "nn", "optim", "utils", "cuda", "npu", "jit", "autograd", "distributed", "multiprocessing", "backends", "amp",
      "onnx", "fx", "hub", "testing", "profiler", "compiler", "export", "library", "overrides", "quantization", "ao",
      "sparse", "special", "linalg", "fft", "random", "distributions", "nested", "masked", "func", "device", "dtype",
      "no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "is_grad_enabled", "manual_seed", "seed",
      "initial_seed", "get_rng_state", "set_rng_state", "is_tensor", "is_storage", "set_default_dtype",
      "get_default_dtype", "set_default_device", "set_default_tensor_type", "set_printoptions", "set_num_threads",
      "get_num_threads", "load", "save", "compile", "use_deterministic_algorithms", "finfo", "iinfo", "version",
      "autocast", "float", "float16", "float32", "float64", "bfloat16", "half", "double", "int8", "int16", "int32",
      "int64", "uint8", "long", "int", "short", "bool", "complex64", "complex128", "cfloat", "cdouble",
      "channels_last", "contiguous_format", "preserve_format", "strided", "sparse_coo", "inf", "nan", "e", "pi",
      "is_available", "cpu", "hub", "types", "storage", "serialization", "package", "mps", "xpu", "mtia"};
  static const std::set<std::string> kCollectives = {
      "all_reduce", "all_gather", "all_gather_into_tensor", "all_to_all", "all_to_all_single", "broadcast",
      "reduce", "reduce_scatter", "reduce_scatter_tensor", "gather", "scatter", "send", "recv", "isend", "irecv",
      "barrier", "batch_isend_irecv", "all_gather_object", "broadcast_object_list"};
  if (n.empty() || n == "*" || !lower_first(n)) return false;
  if (module == "torch") return !kTorchNotApi.count(n);
  if (module == "torch.nn.functional") return true;
  if (module == "torch.distributed") return kCollectives.count(n) != 0;
  if (module == "torch_npu") return n.rfind("npu_", 0) == 0;
  return false;
}

}  // namespace msprobe::analysis
