// The JSON reader (recursive descent with a depth bound) and the cursor
// locator (a token scan that tolerates unfinished text).
#include "msprobe/analysis/config/json_doc.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace msprobe::analysis::config {
namespace {

constexpr int kMaxDepth = 200;

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Reader {
 public:
  Reader(std::string_view s, JsonDoc& doc) : s_(s), doc_(doc) {}

  void run() {
    if (s_.size() >= 3 && static_cast<unsigned char>(s_[0]) == 0xEF && static_cast<unsigned char>(s_[1]) == 0xBB &&
        static_cast<unsigned char>(s_[2]) == 0xBF) {
      fail(0, "the file starts with a UTF-8 byte order mark, which Python's json module rejects; save it without BOM");
      doc_.root.complete = false;
      return;
    }
    skip_ws();
    if (pos_ >= s_.size()) {
      fail(pos_, "the file is empty: expected a JSON object");
      doc_.root.complete = false;
      return;
    }
    doc_.has_root = true;
    if (!value(doc_.root, 0)) return;
    skip_ws();
    if (pos_ < s_.size()) fail(pos_, "extra data after the end of the JSON value");
  }

 private:
  bool fail(std::size_t off, std::string msg) {
    if (doc_.errors.empty()) doc_.errors.push_back({static_cast<uint32_t>(off), std::move(msg)});
    return false;
  }
  std::size_t last_comma() const {
    std::size_t p = pos_;
    while (p > 0 && s_[p - 1] != ',') --p;
    return p > 0 ? p - 1 : pos_;
  }
  void skip_ws() {
    while (pos_ < s_.size() && is_ws(s_[pos_])) ++pos_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool unexpected(const char* expected) {
    if (pos_ >= s_.size()) return fail(pos_, std::string("expected ") + expected + ", found the end of the file");
    char c = s_[pos_];
    if (c == '/') return fail(pos_, "comments are not allowed in JSON");
    if (c == '\'') return fail(pos_, "JSON strings need double quotes, not single quotes");
    return fail(pos_, std::string("expected ") + expected);
  }

  bool value(JsonValue& v, int depth) {
    skip_ws();
    v.range.start = static_cast<uint32_t>(pos_);
    bool ok = value_body(v, depth);
    v.range.end = static_cast<uint32_t>(ok ? pos_ : std::max(pos_, static_cast<std::size_t>(v.range.start)));
    if (!ok) v.complete = false;
    return ok;
  }

  bool value_body(JsonValue& v, int depth) {
    if (pos_ >= s_.size()) return unexpected("a value");
    char c = s_[pos_];
    if (c == '{') return object(v, depth);
    if (c == '[') return array(v, depth);
    if (c == '"') {
      v.kind = JsonKind::String;
      return string(v.text);
    }
    if (literal("true")) {
      v.kind = JsonKind::Bool;
      v.boolean = true;
      return true;
    }
    if (literal("false")) {
      v.kind = JsonKind::Bool;
      return true;
    }
    if (literal("null")) return true;
    if (c == '-' || is_digit(c) || c == 'N' || c == 'I') return number(v);
    return unexpected("a value");
  }

  bool object(JsonValue& v, int depth) {
    v.kind = JsonKind::Object;
    if (depth >= kMaxDepth) return fail(pos_, "the JSON is nested too deeply");
    ++pos_;  // '{'
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != '"') {
        if (pos_ < s_.size() && s_[pos_] == '}' && !v.members.empty())
          return fail(last_comma(), "trailing comma before '}' (not allowed in JSON)");
        return unexpected("a property name in double quotes");
      }
      JsonMember m;
      m.key_range.start = static_cast<uint32_t>(pos_);
      if (!string(m.key)) return false;
      m.key_range.end = static_cast<uint32_t>(pos_);
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ':') {
        unexpected("':' after the property name");
        m.value.complete = false;
        m.value.range = {static_cast<uint32_t>(pos_), static_cast<uint32_t>(pos_)};
        v.members.push_back(std::move(m));
        return false;
      }
      ++pos_;
      bool ok = value(m.value, depth + 1);
      v.members.push_back(std::move(m));
      if (!ok) return false;
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        break;
      }
      return unexpected("',' or '}' after the property value");
    }
    for (std::size_t i = 0; i < v.members.size(); ++i) {
      for (std::size_t j = i + 1; j < v.members.size(); ++j) {
        if (v.members[j].key == v.members[i].key) {
          v.members[i].shadowed = true;
          break;
        }
      }
    }
    return true;
  }

  bool array(JsonValue& v, int depth) {
    v.kind = JsonKind::Array;
    if (depth >= kMaxDepth) return fail(pos_, "the JSON is nested too deeply");
    ++pos_;  // '['
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == ']' && !v.items.empty())
        return fail(last_comma(), "trailing comma before ']' (not allowed in JSON)");
      v.items.emplace_back();
      if (!value(v.items.back(), depth + 1)) return false;
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return unexpected("',' or ']' after the array item");
    }
  }

  bool string(std::string& out) {
    std::size_t open = pos_;
    ++pos_;  // '"'
    for (;;) {
      if (pos_ >= s_.size()) return fail(open, "unterminated string");
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        if (c == '\n' || c == '\r')
          return fail(open, "unterminated string (a line break is not allowed inside a string)");
        return fail(pos_, "control character inside a string; write it as an escape");
      }
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      std::size_t esc = pos_;
      if (pos_ + 1 >= s_.size()) return fail(open, "unterminated string");
      char e = s_[pos_ + 1];
      pos_ += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return fail(esc, "invalid \\u escape: four hex digits are needed");
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            std::size_t save = pos_;
            pos_ += 2;
            uint32_t lo = 0;
            if (hex4(lo) && lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              pos_ = save;
            }
          }
          append_utf8(out, cp);
          break;
        }
        default: return fail(esc, std::string("invalid escape '\\") + e + "' in a string");
      }
    }
  }

  bool hex4(uint32_t& cp) {
    if (pos_ + 4 > s_.size()) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex_value(s_[pos_ + static_cast<std::size_t>(i)]);
      if (h < 0) return false;
      cp = cp * 16 + static_cast<uint32_t>(h);
    }
    pos_ += 4;
    return true;
  }

  bool number(JsonValue& v) {
    v.kind = JsonKind::Number;
    std::size_t start = pos_;
    // Python's json also reads NaN, Infinity and -Infinity.
    if (literal("NaN") || literal("Infinity") || literal("-Infinity")) {
      v.text = std::string(s_.substr(start, pos_ - start));
      v.number = v.text == "NaN" ? std::strtod("nan", nullptr) : (v.text[0] == '-' ? -1.0 : 1.0) * HUGE_VAL;
      return true;
    }
    if (s_[pos_] == '-') ++pos_;
    if (pos_ >= s_.size() || !is_digit(s_[pos_])) {
      pos_ = start;
      return unexpected("a value");
    }
    if (s_[pos_] == '0') {
      ++pos_;
    } else {
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    bool integer = true;
    if (pos_ + 1 < s_.size() && s_[pos_] == '.' && is_digit(s_[pos_ + 1])) {
      integer = false;
      ++pos_;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      std::size_t save = pos_;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ < s_.size() && is_digit(s_[pos_])) {
        integer = false;
        while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
      } else {
        pos_ = save;
      }
    }
    v.text = std::string(s_.substr(start, pos_ - start));
    v.integer = integer;
    v.number = std::strtod(v.text.c_str(), nullptr);
    if (integer) {
      auto [p, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), v.int_value);
      v.int_fits = ec == std::errc() && p == v.text.data() + v.text.size();
    }
    return true;
  }

  std::string_view s_;
  JsonDoc& doc_;
  std::size_t pos_ = 0;
};

// ----- the cursor locator -----

enum class Tok { LBrace, RBrace, LBracket, RBracket, Colon, Comma, String, Word };

struct Token {
  Tok kind;
  std::size_t start, end;  // [start, end)
  bool closed = true;      // strings: the closing quote was found
  std::string text;        // strings: the content between the quotes (raw); words: the word
};

// Reads the next token at or after `pos`; false at the end.
bool next_token(std::string_view s, std::size_t& pos, Token& t) {
  while (pos < s.size() && is_ws(s[pos])) ++pos;
  if (pos >= s.size()) return false;
  t = Token{Tok::Word, pos, pos + 1, true, {}};
  char c = s[pos];
  switch (c) {
    case '{':
      t.kind = Tok::LBrace;
      ++pos;
      return true;
    case '}':
      t.kind = Tok::RBrace;
      ++pos;
      return true;
    case '[':
      t.kind = Tok::LBracket;
      ++pos;
      return true;
    case ']':
      t.kind = Tok::RBracket;
      ++pos;
      return true;
    case ':':
      t.kind = Tok::Colon;
      ++pos;
      return true;
    case ',':
      t.kind = Tok::Comma;
      ++pos;
      return true;
    default: break;
  }
  if (c == '"') {
    t.kind = Tok::String;
    std::size_t i = pos + 1;
    t.closed = false;
    while (i < s.size() && s[i] != '\n' && s[i] != '\r') {
      if (s[i] == '\\' && i + 1 < s.size()) {
        i += 2;
        continue;
      }
      if (s[i] == '"') {
        t.closed = true;
        break;
      }
      ++i;
    }
    t.text = std::string(s.substr(pos + 1, std::min(i, s.size()) - pos - 1));
    pos = t.closed ? i + 1 : i;
    t.end = pos;
    return true;
  }
  std::size_t i = pos;
  while (i < s.size() && !is_ws(s[i]) && s[i] != '{' && s[i] != '}' && s[i] != '[' && s[i] != ']' && s[i] != ':' &&
         s[i] != ',' && s[i] != '"')
    ++i;
  t.text = std::string(s.substr(pos, i - pos));
  pos = i;
  t.end = i;
  return true;
}

struct Frame {
  bool object = true;
  enum class State { ExpectKey, ExpectColon, ExpectValue, AfterValue } state = State::ExpectKey;
  std::string key;        // object: the key of the member being read
  std::string owner_key;  // the key under which this container is the value ("" for the root / array items)
  std::vector<std::string> keys;
};

}  // namespace

const char* to_string(JsonKind k) {
  switch (k) {
    case JsonKind::Null: return "null";
    case JsonKind::Bool: return "a boolean";
    case JsonKind::Number: return "a number";
    case JsonKind::String: return "a string";
    case JsonKind::Array: return "a list";
    case JsonKind::Object: return "an object";
  }
  return "a value";
}

const JsonMember* JsonValue::member(std::string_view key) const {
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) return &*it;
  }
  return nullptr;
}

const JsonValue* JsonValue::get(std::string_view key) const {
  const JsonMember* m = member(key);
  return m ? &m->value : nullptr;
}

JsonDoc parse_json(std::string_view text) {
  JsonDoc doc;
  Reader(text, doc).run();
  return doc;
}

JsonCursor locate(std::string_view s, std::size_t offset) {
  JsonCursor cur;
  offset = std::min(offset, s.size());
  std::vector<Frame> stack;
  std::size_t pos = 0;
  Token t;
  bool have_typed = false;
  Token typed;
  while (next_token(s, pos, t)) {
    if (t.start >= offset) break;
    bool contains = false;
    if (t.kind == Tok::String) contains = offset < t.end || (!t.closed && offset <= t.end);
    else if (t.kind == Tok::Word) contains = offset <= t.end;
    if (contains) {
      have_typed = true;
      typed = t;
      break;
    }
    Frame* top = stack.empty() ? nullptr : &stack.back();
    auto value_done = [&] {
      if (!stack.empty()) stack.back().state = Frame::State::AfterValue;
    };
    auto owner = [&]() -> std::string {
      if (!top || !top->object) return top ? top->owner_key : std::string();
      return top->key;
    };
    switch (t.kind) {
      case Tok::LBrace:
      case Tok::LBracket: {
        Frame f;
        f.object = t.kind == Tok::LBrace;
        f.state = f.object ? Frame::State::ExpectKey : Frame::State::ExpectValue;
        f.owner_key = owner();
        stack.push_back(std::move(f));
        break;
      }
      case Tok::RBrace:
      case Tok::RBracket:
        if (!stack.empty()) stack.pop_back();
        value_done();
        break;
      case Tok::Colon:
        if (top && top->object) top->state = Frame::State::ExpectValue;
        break;
      case Tok::Comma:
        if (top) top->state = top->object ? Frame::State::ExpectKey : Frame::State::ExpectValue;
        break;
      case Tok::String:
        if (top && top->object && top->state == Frame::State::ExpectKey) {
          top->key = t.text;
          top->keys.push_back(t.text);
          top->state = Frame::State::ExpectColon;
        } else {
          value_done();
        }
        break;
      case Tok::Word: value_done(); break;
    }
  }
  if (stack.empty()) return cur;
  Frame& top = stack.back();
  for (std::size_t i = 0; i + 1 < stack.size(); ++i) {
    // Object frames nested as values of object members contribute their key.
    if (stack[i].object && stack[i + 1].owner_key == stack[i].key && !stack[i].key.empty())
      cur.path.push_back(stack[i].key);
  }
  if (have_typed) {
    cur.inside_string = typed.kind == Tok::String;
    cur.replace = {static_cast<uint32_t>(typed.start),
                   static_cast<uint32_t>(typed.kind == Tok::String && !typed.closed ? offset : typed.end)};
    std::size_t from = typed.start + (cur.inside_string ? 1 : 0);
    cur.typed = std::string(s.substr(from, offset > from ? offset - from : 0));
  } else {
    cur.replace = {static_cast<uint32_t>(offset), static_cast<uint32_t>(offset)};
  }
  if (top.object && top.state == Frame::State::ExpectKey) {
    cur.kind = JsonCursor::Kind::Key;
    std::size_t after = cur.replace.end;
    while (after < s.size() && is_ws(s[after]) && s[after] != '\n') ++after;
    cur.colon_follows = after < s.size() && s[after] == ':';
  } else if (top.object && top.state == Frame::State::ExpectValue) {
    cur.kind = JsonCursor::Kind::Value;
    cur.key = top.key;
  } else if (!top.object && top.state == Frame::State::ExpectValue) {
    cur.kind = JsonCursor::Kind::Value;
    cur.key = top.owner_key;
    cur.in_array = true;
    // The array's own key is not part of the path of enclosing objects.
    if (!cur.path.empty() && stack.size() >= 2 && stack[stack.size() - 2].object &&
        stack[stack.size() - 2].key == top.owner_key)
      cur.path.pop_back();
  } else {
    return JsonCursor{};
  }
  // Keys of the enclosing object: those before the cursor, then those after it.
  if (top.object) {
    for (const auto& k : top.keys) cur.sibling_keys.push_back(k);
    std::size_t p = have_typed ? typed.end : offset;
    int depth = 0;
    bool expect_key = cur.kind == JsonCursor::Kind::Key && !have_typed;
    Token prev{Tok::Comma, 0, 0, true, {}};
    while (next_token(s, p, t)) {
      if (t.kind == Tok::LBrace || t.kind == Tok::LBracket) ++depth;
      else if (t.kind == Tok::RBrace || t.kind == Tok::RBracket) {
        if (depth == 0) break;
        --depth;
      } else if (depth == 0 && t.kind == Tok::Comma) {
        expect_key = true;
      } else if (depth == 0 && t.kind == Tok::Colon && prev.kind == Tok::String && expect_key) {
        cur.sibling_keys.push_back(prev.text);
        expect_key = false;
      }
      prev = t;
    }
  }
  return cur;
}

void append_json_string(std::string& out, std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

}  // namespace msprobe::analysis::config
