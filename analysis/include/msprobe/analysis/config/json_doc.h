// A position-aware JSON reader for config files: every value keeps the byte
// range of its text, every object member the range of its key. It reads what
// Python's json module reads (NaN/Infinity included), reports the first
// syntax error with its offset and keeps what was read before it, and notes
// repeated keys (Python keeps the last one).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/analysis/finding.h"

namespace msprobe::analysis::config {

enum class JsonKind { Null, Bool, Number, String, Array, Object };
const char* to_string(JsonKind k);

struct JsonMember;

struct JsonValue {
  JsonKind kind = JsonKind::Null;
  ByteRange range;
  bool boolean = false;
  std::string text;       // decoded text of a string; source text of a number
  bool integer = false;   // a number written without fraction or exponent
  bool int_fits = false;  // ... and it fits in `int_value`
  long long int_value = 0;
  double number = 0;
  bool complete = true;             // false when a syntax error cut this value short
  std::vector<JsonValue> items;     // Array
  std::vector<JsonMember> members;  // Object, in source order (duplicates kept)

  bool is(JsonKind k) const { return kind == k; }
  bool is_int() const { return kind == JsonKind::Number && integer; }
  // The member Python would see for `key` (the last one), or null.
  const JsonMember* member(std::string_view key) const;
  const JsonValue* get(std::string_view key) const;
};

struct JsonMember {
  std::string key;
  ByteRange key_range;  // including the quotes
  JsonValue value;
  bool shadowed = false;  // a later member has the same key
};

struct JsonSyntaxError {
  uint32_t offset = 0;
  std::string message;
};

struct JsonDoc {
  JsonValue root;  // Null with complete=false when nothing could be read
  bool has_root = false;
  std::vector<JsonSyntaxError> errors;  // at most one: reading stops at the first
  bool ok() const { return has_root && errors.empty(); }
};

JsonDoc parse_json(std::string_view text);

// Where a position sits in a (possibly unfinished) JSON text, for completion.
struct JsonCursor {
  enum class Kind { None, Key, Value };
  Kind kind = Kind::None;
  std::vector<std::string> path;  // keys of the enclosing objects, outermost first
  std::string key;                // for Value: the member whose value this is
  bool in_array = false;          // for Value: an item of an array value
  ByteRange replace;              // the token being typed (string incl. quotes, or bare word); empty at the cursor
  std::string typed;              // what was typed of it so far (without quotes)
  bool inside_string = false;
  bool colon_follows = false;             // for Key: a ':' already follows the token
  std::vector<std::string> sibling_keys;  // keys already present in the enclosing object
};

JsonCursor locate(std::string_view text, std::size_t offset);

// Appends `s` to `out` as a JSON string literal.
void append_json_string(std::string& out, std::string_view s);

}  // namespace msprobe::analysis::config
