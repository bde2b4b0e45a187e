// JSON-RPC 2.0 messages as the LSP uses them: classification of incoming
// messages, error codes, and encoding of outgoing ones. Request ids are kept
// as the raw JSON value the client sent (number or string) and echoed back.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

namespace msprobe::protocol {

using json = nlohmann::json;

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  UnknownErrorCode = -32001,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct Request {
  json id;  // number or string, exactly as received
  std::string method;
  json params;  // null when absent
};

struct Notification {
  std::string method;
  json params;
};

struct Response {
  json id;
  json result;  // set when ok
  json error;   // set when the peer answered with an error
  bool ok = true;
};

// A message that could not be classified; `id` is null unless one was readable.
struct Invalid {
  ErrorCode code;
  std::string message;
  json id;
};

using Incoming = std::variant<Request, Notification, Response, Invalid>;

// Parses and classifies one message body. Never throws.
Incoming parse_message(std::string_view body);

// Builders for outgoing messages.
json make_result(const json& id, json result);
json make_error(const json& id, ErrorCode code, std::string_view message, json data = nullptr);
json make_notification(std::string_view method, json params);
json make_request(const json& id, std::string_view method, json params);

// Serialises a message; invalid UTF-8 in strings is replaced (U+FFFD), never thrown.
std::string serialize(const json& message);

// Key for maps keyed by request id: numbers and strings never collide ("1" vs 1).
std::string id_key(const json& id);

}  // namespace msprobe::protocol
