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

# ---- Profile-guided optimisation of the parser (gcc) -------------------------
# tree-sitter's parse is the floor under every analysis. gcc compiles the
# runtime and the grammar better once it knows which branches are hot: -21%
# parse time on this project's benchmark scripts (tests/bench/profile-notes.md).
# At configure time a nested build of this project (MSPROBE_LSP_PGO_STAGE=train,
# in <build>/pgo-train) compiles them with -fprofile-generate into
# cmake/pgo_train.c, which parses tests/corpus/scripts/*.py the server's ways.
# Its profile files are written, through GCOV_PREFIX/GCOV_PREFIX_STRIP, next to
# this build's objects of the same targets (the two builds lay their objects out
# alike), where -fprofile-use looks for them. Any failure on the way leaves a
# warning and the plain build; the sanitizer, fuzzing and Debug builds skip it.
option(MSPROBE_LSP_PGO "Profile-guided optimisation of the tree-sitter parser (gcc)" ON)
set(MSPROBE_LSP_PGO_STAGE "" CACHE INTERNAL "train: the nested training build")

set(_ts_pgo_sources "${_ts_lib}/src/lib.c" "${_ts_py}/parser.c" "${_ts_py}/scanner.c")

if(MSPROBE_LSP_PGO_STAGE STREQUAL "train")
  foreach(lib tree_sitter tree_sitter_python)
    target_compile_options(${lib} PRIVATE -fprofile-generate -fprofile-update=atomic)
  endforeach()
  add_executable(pgo_train "${PROJECT_SOURCE_DIR}/cmake/pgo_train.c")
  target_link_libraries(pgo_train PRIVATE tree_sitter_python)
  target_link_options(pgo_train PRIVATE -fprofile-generate)
  return()
endif()

function(_msprobe_pgo_train out_enabled)
  set(${out_enabled} OFF PARENT_SCOPE)
  set(train_dir "${CMAKE_BINARY_DIR}/pgo-train")
  set(log "${train_dir}-log.txt")
  set(configure
      "${CMAKE_COMMAND}" -S "${PROJECT_SOURCE_DIR}" -B "${train_dir}" -G "${CMAKE_GENERATOR}"
      "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}" "-DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}"
      "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
      "-DCMAKE_C_FLAGS=${CMAKE_C_FLAGS}" "-DMSPROBE_DEPS_DIR=${MSPROBE_DEPS_DIR}" -DMSPROBE_LSP_PGO_STAGE=train)
  execute_process(COMMAND ${configure} RESULT_VARIABLE rc OUTPUT_FILE "${log}" ERROR_FILE "${log}")
  if(NOT rc EQUAL 0)  # a training build left by another generator or compiler: start it afresh
    file(REMOVE_RECURSE "${train_dir}")
    execute_process(COMMAND ${configure} RESULT_VARIABLE rc OUTPUT_FILE "${log}" ERROR_FILE "${log}")
  endif()
  if(rc EQUAL 0)
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${train_dir}" --target pgo_train
                    RESULT_VARIABLE rc OUTPUT_FILE "${log}" ERROR_FILE "${log}")
  endif()
  if(NOT rc EQUAL 0)
    message(WARNING "msprobe-lsp: the training build for the profile-guided parser failed (${log}); "
                    "building tree-sitter without a profile")
    return()
  endif()
  # Where this build's objects of tree_sitter / tree_sitter_python look for their profiles.
  set(targets tree_sitter tree_sitter_python tree_sitter_python)
  set(profiles "")
  foreach(src target IN ZIP_LISTS _ts_pgo_sources targets)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${src}")
    if(rel MATCHES "^\\.\\./")
      message(WARNING "msprobe-lsp: MSPROBE_DEPS_DIR is outside the source tree; building tree-sitter without a profile")
      return()
    endif()
    list(APPEND profiles "${CMAKE_BINARY_DIR}/CMakeFiles/${target}.dir/${rel}.gcda")
  endforeach()
  set(fresh ON)
  foreach(p IN LISTS profiles)
    if(NOT EXISTS "${p}" OR "${train_dir}/pgo_train" IS_NEWER_THAN "${p}")
      set(fresh OFF)
    endif()
  endforeach()
  if(NOT fresh)
    file(REMOVE ${profiles})  # counts add up across runs
    file(GLOB corpus "${PROJECT_SOURCE_DIR}/tests/corpus/scripts/*.py")
    # The recorded object paths start with train_dir: strip it, put this build's directory instead.
    string(REGEX MATCHALL "/[^/]+" parts "${train_dir}")
    list(LENGTH parts strip)
    execute_process(
      COMMAND "${CMAKE_COMMAND}" -E env "GCOV_PREFIX=${CMAKE_BINARY_DIR}" "GCOV_PREFIX_STRIP=${strip}"
              "${train_dir}/pgo_train" ${corpus}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      message(WARNING "msprobe-lsp: the parser's training run failed (${rc}): ${err}; building tree-sitter without a profile")
      file(REMOVE ${profiles})
      return()
    endif()
    message(STATUS "Profile-guided parser: ${out}")
  endif()
  foreach(p IN LISTS profiles)
    if(NOT EXISTS "${p}")
      message(WARNING "msprobe-lsp: the training run left no profile at ${p}; building tree-sitter without a profile")
      return()
    endif()
  endforeach()
  set(_ts_pgo_profiles "${profiles}" PARENT_SCOPE)
  set(${out_enabled} ON PARENT_SCOPE)
endfunction()

set(MSPROBE_LSP_PGO_ACTIVE OFF)
if(MSPROBE_LSP_PGO AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$"
   AND NOT MSPROBE_LSP_SANITIZE AND NOT MSPROBE_LSP_FUZZ AND NOT CMAKE_CROSSCOMPILING)
  _msprobe_pgo_train(MSPROBE_LSP_PGO_ACTIVE)
endif()
if(MSPROBE_LSP_PGO_ACTIVE)
  # -fprofile-partial-training: code the training never ran (queries, ...) is
  # optimised as usual rather than for size.
  foreach(lib tree_sitter tree_sitter_python)
    target_compile_options(${lib} PRIVATE -fprofile-use -fprofile-partial-training)
  endforeach()
  foreach(src profile IN ZIP_LISTS _ts_pgo_sources _ts_pgo_profiles)
    set_source_files_properties("${src}" PROPERTIES OBJECT_DEPENDS "${profile}")
  endforeach()
  message(STATUS "Profile-guided parser: on")
endif()
