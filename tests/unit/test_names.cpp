// The name helpers every pass leans on (bindings.h): which source texts are
// dotted names, how one splits into receiver and last name, and ASCII case
// folding (text_match.h).
#include <catch2/catch.hpp>

#include <cctype>
#include <string>
#include <vector>

#include "bindings.h"
#include "msprobe/analysis/text_match.h"

using namespace msprobe::analysis;

TEST_CASE("is_dotted_name accepts identifiers joined by single dots, nothing else", "[names]") {
  struct Case {
    const char* text;
    bool dotted;
  };
  const Case cases[] = {
      {"model", true},
      {"self.model", true},
      {"torch.nn.Linear", true},
      {"_x.y_1", true},
      {"mod\xc3\xa8le.net", true},  // non-ASCII identifier bytes
      {"", false},
      {".", false},
      {".model", false},
      {"model.", false},
      {"a..b", false},
      {"1model", false},
      {"a.1b", false},
      {"a1.b2", true},
      {"model()", false},
      {"a[0].b", false},
      {"a .b", false},
      {"a-b", false},
      {"x.y.z.w", true},
      {"_", true},
      {"a.", false},
      {"0", false},
  };
  for (const Case& c : cases) {
    INFO("'" << c.text << "'");
    CHECK(is_dotted_name(c.text) == c.dotted);
  }
}

TEST_CASE("last_name and receiver_of split at the last dot", "[names]") {
  CHECK(last_name("torch.nn.Linear") == "Linear");
  CHECK(receiver_of("torch.nn.Linear") == "torch.nn");
  CHECK(last_name("model") == "model");
  CHECK(receiver_of("model").empty());
  CHECK(last_name("a().b") == "b");
  CHECK(receiver_of("a().b") == "a()");
  CHECK(last_name("x.") == "");
  CHECK(receiver_of(".x") == "");
}

TEST_CASE("lowered folds ASCII letters only, as tolower in the C locale", "[names]") {
  CHECK(lowered("torch.optim.AdamW") == "torch.optim.adamw");
  CHECK(lowered("ReduceLROnPlateau_2") == "reducelronplateau_2");
  CHECK(lowered("") == "");
  // UTF-8 bytes (an identifier's É, a comment's 中) stay as they are.
  CHECK(lowered("Mod\xc3\x89le") == "mod\xc3\x89le");
  CHECK(lowered("\xe4\xb8\xad") == "\xe4\xb8\xad");
  // Every byte against the C library in the locale the process runs in.
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    INFO("byte " << c);
    CHECK(ascii_lower(ch) == static_cast<char>(std::tolower(c)));
  }
  std::string buf = "reused buffer, longer than the text";
  CHECK(lowered_into("GradScaler", buf) == "gradscaler");
  CHECK(buf == "gradscaler");
}

TEST_CASE("NameSieve holds every name added and passes over names of another first byte or length", "[names]") {
  NameSieve sieve;
  CHECK_FALSE(sieve.may_hold("train"));
  CHECK_FALSE(sieve.may_hold(""));
  const std::vector<std::string> added = {"train", "nn",           "F",
                                          "PD",    "\xc3\x89tape", "a_name_longer_than_thirty_one_bytes_in_all"};
  for (const std::string& n : added) sieve.add(n);
  sieve.add("");  // ignored
  for (const std::string& n : added) CHECK(sieve.may_hold(n));
  // Same first byte and length as an added name: may hold (a sieve, not a set).
  CHECK(sieve.may_hold("trail"));
  // Another length, another first byte, or the empty name: passed over.
  CHECK_FALSE(sieve.may_hold("trains"));
  CHECK_FALSE(sieve.may_hold("rain"));
  CHECK_FALSE(sieve.may_hold("G"));
  CHECK_FALSE(sieve.may_hold("nnn"));
  CHECK_FALSE(sieve.may_hold(""));
  // Names of 31 bytes or more share one slot per first byte.
  CHECK(sieve.may_hold(std::string(40, 'a')));
  CHECK_FALSE(sieve.may_hold(std::string(40, 'b')));
}

TEST_CASE("upper_first: an ASCII capital first, as isupper in the C locale", "[names]") {
  CHECK(upper_first("AdamW"));
  CHECK(upper_first("Z"));
  CHECK_FALSE(upper_first("adamw"));
  CHECK_FALSE(upper_first("_Private"));
  CHECK_FALSE(upper_first("9Lives"));
  CHECK_FALSE(upper_first(""));
  CHECK_FALSE(upper_first("\xc3\x89tape"));  // a UTF-8 capital is not an ASCII one
  for (int c = 0; c < 256; ++c) {
    const std::string s(1, static_cast<char>(c));
    INFO("byte " << c);
    CHECK(upper_first(s) == (std::isupper(c) != 0));
  }
}
