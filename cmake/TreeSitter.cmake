# Fetches the pinned tree-sitter runtime and tree-sitter-python grammar from the
# npm registry (with `npm pack`), checks their SHA-512 against the pins below,
# unpacks the C sources into MSPROBE_DEPS_DIR (git-ignored) and defines the
# static libraries `tree_sitter` and `tree_sitter_python`.
#
# The pins are the npm "integrity" values written as hex (sha512sum output).
# Nothing is fetched when the sources are already present and verified.

set(MSPROBE_DEPS_DIR "${PROJECT_SOURCE_DIR}/third_party" CACHE PATH
    "Where the fetched tree-sitter sources live (git-ignored)")

# package@version -> sha512 (hex)
set(_ts_runtime_pkg "tree-sitter@0.25.1")   # vendor/tree-sitter/lib is runtime 0.25.10
set(_ts_runtime_sha512 "9ab70476462d1dfacad40e9fb373ba171901a344228395d45ea1e1c54390bb46e63e8d34405e17692c7879da5acdd1f0c674828e518a1a022a59d68de1dbd32c")
set(_ts_python_pkg "tree-sitter-python@0.25.0")  # ABI 15
set(_ts_python_sha512 "782989c7acd06b7e46c5a0ad403fb05c73a162a07110bf9ba7bd56fecddf70332ed3a32bb739155d1e37edd46b0ab6eb0dbc8bb940c9a4083272cee772780b5f")

function(_msprobe_fetch_npm_package spec sha512 dest_name)
  set(dest "${MSPROBE_DEPS_DIR}/${dest_name}")
  set(stamp "${dest}/.verified-sha512")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" have)
    string(STRIP "${have}" have)
    if(have STREQUAL sha512)
      return()
    endif()
  endif()
  find_program(NPM_EXECUTABLE npm)
  if(NOT NPM_EXECUTABLE)
    message(FATAL_ERROR "npm is needed once to fetch ${spec} (tree-sitter sources). "
                        "Install Node.js/npm (scripts/setup.sh build does), or point MSPROBE_DEPS_DIR "
                        "at the third_party/ folder of a checkout that has been configured once.")
  endif()
  set(tmp "${MSPROBE_DEPS_DIR}/.fetch-${dest_name}")
  file(REMOVE_RECURSE "${tmp}")
  file(MAKE_DIRECTORY "${tmp}")
  message(STATUS "Fetching ${spec} from the npm registry")
  execute_process(COMMAND "${NPM_EXECUTABLE}" pack "${spec}" --silent
                  WORKING_DIRECTORY "${tmp}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE tarball ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npm pack ${spec} failed (${rc}): ${err}")
  endif()
  string(REGEX REPLACE ".*\n" "" tarball "${tarball}")   # last line is the file name
  file(SHA512 "${tmp}/${tarball}" got)
  if(NOT got STREQUAL sha512)
    file(REMOVE_RECURSE "${tmp}")
    message(FATAL_ERROR "Integrity check failed for ${spec}:\n  expected ${sha512}\n  got      ${got}")
  endif()
  file(ARCHIVE_EXTRACT INPUT "${tmp}/${tarball}" DESTINATION "${tmp}")
  file(REMOVE_RECURSE "${dest}")
  file(RENAME "${tmp}/package" "${dest}")
  file(REMOVE_RECURSE "${tmp}")
  file(WRITE "${stamp}" "${sha512}\n")
endfunction()

_msprobe_fetch_npm_package("${_ts_runtime_pkg}" "${_ts_runtime_sha512}" tree-sitter)
_msprobe_fetch_npm_package("${_ts_python_pkg}" "${_ts_python_sha512}" tree-sitter-python)

set(_ts_lib "${MSPROBE_DEPS_DIR}/tree-sitter/vendor/tree-sitter/lib")
add_library(tree_sitter STATIC "${_ts_lib}/src/lib.c")
target_include_directories(tree_sitter SYSTEM PUBLIC "${_ts_lib}/include")
target_include_directories(tree_sitter PRIVATE "${_ts_lib}/src")
target_compile_definitions(tree_sitter PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
# -fno-semantic-interposition: nothing interposes tree-sitter's functions, so
# gcc may inline them within lib.c (-4.6% instructions per parse).
target_compile_options(tree_sitter PRIVATE -w -fno-semantic-interposition)
set_target_properties(tree_sitter PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)

set(_ts_py "${MSPROBE_DEPS_DIR}/tree-sitter-python/src")
add_library(tree_sitter_python STATIC "${_ts_py}/parser.c" "${_ts_py}/scanner.c")
target_include_directories(tree_sitter_python PRIVATE "${_ts_py}")
target_compile_options(tree_sitter_python PRIVATE -w -fno-semantic-interposition)
target_link_libraries(tree_sitter_python PUBLIC tree_sitter)
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
