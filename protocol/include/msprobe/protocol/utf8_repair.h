// Message bodies with invalid UTF-8 in them are repaired, not rejected: some
// clients send a buffer's bytes as they are (a file in Latin-1, a binary blob
// opened by mistake), and a didOpen or didChange thrown away as a parse error
// would leave the server analysing text the user no longer has.
#pragma once

#include <string>
#include <string_view>

namespace msprobe::protocol {

// Replaces every byte that is not part of a well-formed UTF-8 sequence
// (stray continuation bytes, overlong forms, surrogates, code points above
// U+10FFFF, sequences cut short) with U+FFFD, one per byte: the editors that
// keep such bytes (Neovim, Emacs) show and count each of them as one
// character, so positions stay where the client has them. Inside JSON
// strings, a \uD800-\uDFFF escape that is not half of a surrogate pair (what
// Python's surrogateescape turns a raw byte into) becomes \uFFFD too.
// `changed` says whether anything was replaced.
std::string repair_utf8(std::string_view body, bool& changed);

// Whether every byte of `s` belongs to a well-formed UTF-8 sequence (what
// repair_utf8 would leave alone, escapes aside).
bool is_valid_utf8(std::string_view s);

}  // namespace msprobe::protocol
