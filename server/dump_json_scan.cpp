// A SAX pass over dump.json: memory stays flat whatever the file's size.
#include "dump_json_scan.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <limits>
#include <map>
#include <vector>

namespace msprobe::server {
namespace {

using json = nlohmann::json;
constexpr long long kMax = std::numeric_limits<long long>::max();

long long saturating_mul(long long a, long long b) {
  if (a == 0 || b == 0) return 0;
  return a > kMax / b ? kMax : a * b;
}

long long saturating_add(long long a, long long b) { return a > kMax - b ? kMax : a + b; }

class Scanner : public json::json_sax_t {
 public:
  explicit Scanner(DumpJsonScan& out) : out_(out) {}

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(json::number_integer_t v) override { return dimension(static_cast<long long>(v)); }
  bool number_unsigned(json::number_unsigned_t v) override {
    return dimension(v > static_cast<json::number_unsigned_t>(kMax) ? kMax : static_cast<long long>(v));
  }
  bool number_float(json::number_float_t, const json::string_t&) override { return value(); }
  bool binary(json::binary_t&) override { return value(); }

  bool string(json::string_t& s) override {
    if (!frames_.empty() && frames_.back().object) {
      Frame& f = frames_.back();
      if (f.key == "dtype") f.dtype = s;
      else if (f.key == "type") f.type = s;
    }
    return value();
  }

  bool start_object(std::size_t) override {
    Frame f;
    f.object = true;
    f.data = frames_.size() == 1 && frames_.back().object && frames_.back().key == "data";
    frames_.push_back(std::move(f));
    return true;
  }

  bool key(json::string_t& k) override {
    Frame& f = frames_.back();
    f.key = k;
    if (f.data) out_.has_data = true;
    return true;
  }

  bool end_object() override {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (frames_.empty()) out_.readable = true;
    // A tensor entry: {"type": "torch.Tensor", "dtype": ..., "shape": [...], ...}.
    bool tensor_type = f.type.empty() || f.type.find("Tensor") != std::string::npos;
    if (f.has_shape && !f.dtype.empty() && tensor_type) {
      ++out_.tensors;
      int size = dtype_size(f.dtype);
      if (size == 0) ++out_.unknown_dtypes;
      else out_.tensor_bytes = saturating_add(out_.tensor_bytes, saturating_mul(f.numel, size));
    }
    return true;
  }

  bool start_array(std::size_t) override {
    Frame f;
    f.shape = !frames_.empty() && frames_.back().object && frames_.back().key == "shape";
    f.numel = 1;
    frames_.push_back(std::move(f));
    return true;
  }

  bool end_array() override {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (f.shape && f.shape_ok && !frames_.empty()) {
      frames_.back().has_shape = true;
      frames_.back().numel = f.numel;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    out_.readable = false;
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::string key;    // object: the key whose value comes next
    bool data = false;  // object: the top-level "data" object
    std::string dtype, type;
    bool has_shape = false;
    bool shape = false;    // array: the value of a "shape" key
    bool shape_ok = true;  // array: only non-negative integers so far
    long long numel = 1;   // array (shape): product so far; object: the shape's product
  };

  // Any scalar inside a shape that is not a dimension spoils it.
  bool value() {
    if (!frames_.empty() && frames_.back().shape) frames_.back().shape_ok = false;
    return true;
  }

  bool dimension(long long v) {
    if (!frames_.empty() && frames_.back().shape) {
      Frame& f = frames_.back();
      if (v < 0) f.shape_ok = false;
      else f.numel = saturating_mul(f.numel, v);
    }
    return true;
  }

  DumpJsonScan& out_;
  std::vector<Frame> frames_;
};

}  // namespace

int dtype_size(const std::string& dtype) {
  static const std::map<std::string, int> kSizes = {
      {"float64", 8},       {"double", 8},      {"float32", 4},         {"float", 4},           {"float16", 2},
      {"half", 2},          {"bfloat16", 2},    {"complex128", 16},     {"cdouble", 16},        {"complex64", 8},
      {"cfloat", 8},        {"complex32", 4},   {"chalf", 4},           {"int64", 8},           {"long", 8},
      {"int32", 4},         {"int", 4},         {"int16", 2},           {"short", 2},           {"int8", 1},
      {"uint8", 1},         {"uint16", 2},      {"uint32", 4},          {"uint64", 8},          {"bool", 1},
      {"float8_e4m3fn", 1}, {"float8_e5m2", 1}, {"float8_e4m3fnuz", 1}, {"float8_e5m2fnuz", 1}, {"qint8", 1},
      {"quint8", 1},        {"qint32", 4},      {"quint4x2", 1},        {"quint2x4", 1}};
  std::string name = dtype.rfind("torch.", 0) == 0 ? dtype.substr(6) : dtype;
  auto it = kSizes.find(name);
  return it == kSizes.end() ? 0 : it->second;
}

DumpJsonScan scan_dump_json_text(const std::string& text) {
  DumpJsonScan out;
  Scanner scanner(out);
  if (!json::sax_parse(text, &scanner)) out.readable = false;
  return out;
}

DumpJsonScan scan_dump_json(const std::string& path) {
  DumpJsonScan out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  Scanner scanner(out);
  if (!json::sax_parse(in, &scanner)) out.readable = false;
  return out;
}

}  // namespace msprobe::server
