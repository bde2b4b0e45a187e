/* The training run of the profile-guided build of tree-sitter
 * (cmake/TreeSitter.cmake, MSPROBE_LSP_PGO): parses each Python file named
 * on the command line the ways msprobe-lsp does, with the runtime and the
 * grammar compiled with -fprofile-generate, so that gcc learns which
 * branches of the parser are hot.
 *
 * Per file: a fresh parse, a walk of the whole tree with a cursor (the facts
 * builder's way), then typing: a digit inserted in the middle of the text and
 * deleted again, each followed by an incremental reparse from the edited
 * previous tree (the server's way), and a parse of the first half alone
 * (included ranges: how a large document is parsed in two halves).
 *
 * Usage: pgo_train FILE...   Exit status 0 when every file was parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage* tree_sitter_python(void);

static char* read_all(const char* path, uint32_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  char* buf = NULL;
  size_t cap = 0, len = 0, got;
  do {
    if (len + 65536 > cap) {
      cap = (len + 65536) * 2;
      char* grown = realloc(buf, cap + 1);
      if (!grown) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
  } while (got > 0);
  fclose(f);
  buf[len] = '\0';
  *size = (uint32_t)len;
  return buf;
}

static unsigned long walk(TSTree* tree) {
  unsigned long nodes = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
  for (;;) {
    ++nodes;
    (void)ts_node_symbol(ts_tree_cursor_current_node(&cursor));
    (void)ts_tree_cursor_current_field_id(&cursor);
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return nodes;
      }
    }
  }
}

static TSPoint point_at(const char* text, uint32_t byte) {
  TSPoint p = {0, 0};
  for (uint32_t i = 0; i < byte; ++i) {
    if (text[i] == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

/* Types a digit at the start of the line nearest the middle and deletes it,
 * `rounds` times, each time reparsing from the edited previous tree. */
static TSTree* type_and_reparse(TSParser* parser, TSTree* tree, char** text, uint32_t* size, int rounds) {
  uint32_t at = *size / 2;
  while (at > 0 && (*text)[at - 1] != '\n') --at;
  for (int r = 0; r < rounds; ++r) {
    const int insert = r % 2 == 0;
    char* next = malloc((size_t)*size + 2);
    if (!next) return tree;
    uint32_t next_size;
    if (insert) {
      memcpy(next, *text, at);
      next[at] = '7';
      memcpy(next + at + 1, *text + at, *size - at);
      next_size = *size + 1;
    } else {
      memcpy(next, *text, at);
      memcpy(next + at, *text + at + 1, *size - at - 1);
      next_size = *size - 1;
    }
    next[next_size] = '\0';
    TSPoint start = point_at(*text, at);
    TSPoint one_on = {start.row, start.column + 1};
    TSInputEdit edit = {at,    insert ? at : at + 1,    insert ? at + 1 : at,
                        start, insert ? start : one_on, insert ? one_on : start};
    TSTree* old = ts_tree_copy(tree);
    ts_tree_edit(old, &edit);
    TSTree* again = ts_parser_parse_string(parser, old, next, next_size);
    ts_tree_delete(old);
    free(*text);
    *text = next;
    *size = next_size;
    if (!again) return tree;
    ts_tree_delete(tree);
    tree = again;
  }
  return tree;
}

int main(int argc, char** argv) {
  TSParser* parser = ts_parser_new();
  if (!ts_parser_set_language(parser, tree_sitter_python())) {
    fprintf(stderr, "pgo_train: the grammar's ABI does not match the runtime\n");
    return 1;
  }
  int failed = 0;
  unsigned long nodes = 0;
  for (int i = 1; i < argc; ++i) {
    uint32_t size = 0;
    char* text = read_all(argv[i], &size);
    if (!text) {
      fprintf(stderr, "pgo_train: cannot read %s\n", argv[i]);
      failed = 1;
      continue;
    }
    TSTree* tree = ts_parser_parse_string(parser, NULL, text, size);
    if (!tree) {
      fprintf(stderr, "pgo_train: no tree for %s\n", argv[i]);
      failed = 1;
      free(text);
      continue;
    }
    nodes += walk(tree);
    tree = type_and_reparse(parser, tree, &text, &size, 6);
    nodes += walk(tree);

    uint32_t half = size / 2;
    while (half > 0 && text[half - 1] != '\n') --half;
    if (half > 0) {
      TSRange first = {{0, 0}, point_at(text, half), 0, half};
      ts_parser_set_included_ranges(parser, &first, 1);
      TSTree* part = ts_parser_parse_string(parser, NULL, text, size);
      if (part) ts_tree_delete(part);
      ts_parser_set_included_ranges(parser, NULL, 0);
    }
    ts_tree_delete(tree);
    free(text);
  }
  ts_parser_delete(parser);
  printf("pgo_train: %d files, %lu nodes walked\n", argc - 1, nodes);
  return failed;
}
