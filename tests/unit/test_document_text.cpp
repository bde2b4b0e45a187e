// DocumentText: one copy of a document's text, shared with the jobs that
// read it, copied on an edit only while shared.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "document.h"

using msprobe::server::DocumentText;

TEST_CASE("a job's text stays as it was while the document is edited", "[document]") {
  DocumentText text("x = 1\ny = 2\n");
  std::shared_ptr<const msprobe::analysis::SourceText> job = text.share();
  CHECK(job.get() == &*text);  // shared, not copied

  text.for_edit().replace(4, 5, "10");
  CHECK(text->text() == "x = 10\ny = 2\n");
  CHECK(job->text() == "x = 1\ny = 2\n");  // the job's version is untouched
  CHECK(job->line_count() == 3);
  CHECK(text->line_start(1) == 7);  // the edited copy has its own line index
  CHECK(job->line_start(1) == 6);
  CHECK(job.get() != &*text);
}

TEST_CASE("an edit of a text nobody shares changes it in place", "[document]") {
  DocumentText text("a\n");
  const msprobe::analysis::SourceText* before = &*text;
  text.for_edit().replace(0, 1, "bb");
  CHECK(&*text == before);
  CHECK(text->text() == "bb\n");

  // Shared, then released: in place again.
  auto job = text.share();
  job.reset();
  text.for_edit().replace(0, 0, "c");
  CHECK(&*text == before);
  CHECK(text->text() == "cbb\n");
}

TEST_CASE("successive edits copy once while a job holds the text", "[document]") {
  DocumentText text("abc\n");
  auto job = text.share();
  text.for_edit().replace(0, 1, "A");
  const msprobe::analysis::SourceText* copy = &*text;
  text.for_edit().replace(1, 2, "B");  // the copy is this document's alone now
  CHECK(&*text == copy);
  CHECK(text->text() == "ABc\n");
  CHECK(job->text() == "abc\n");
}
