// The name helpers every pass leans on (bindings.h): which source texts are
// dotted names, and how one splits into receiver and last name.
#include <catch2/catch.hpp>

#include "bindings.h"

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
