// Classifies incoming JSON-RPC 2.0 messages and builds outgoing ones.
#include "msprobe/protocol/jsonrpc.h"

#include "msprobe/protocol/utf8_repair.h"

namespace msprobe::protocol {
namespace {

bool valid_id(const json& id) { return id.is_number_integer() || id.is_string(); }

}  // namespace

Incoming parse_message(std::string_view body) {
  json msg = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) {
    // Invalid UTF-8 (or a lone surrogate escape) makes the JSON reader give
    // up; the text is decoded with U+FFFD instead, as an editor shows it.
    bool changed = false;
    std::string repaired = repair_utf8(body, changed);
    if (changed) msg = json::parse(repaired, nullptr, /*allow_exceptions=*/false);
  }
  if (msg.is_discarded()) return Invalid{ErrorCode::ParseError, "Parse error: the message is not valid JSON", nullptr};
  if (!msg.is_object())
    return Invalid{ErrorCode::InvalidRequest, "Invalid request: a message must be a JSON object", nullptr};

  json id = nullptr;
  auto id_it = msg.find("id");
  bool has_id = id_it != msg.end() && !id_it->is_null();
  if (has_id) {
    if (!valid_id(*id_it))
      return Invalid{ErrorCode::InvalidRequest, "Invalid request: 'id' must be an integer or a string", nullptr};
    id = *id_it;
  }
  auto version = msg.find("jsonrpc");
  if (version == msg.end() || !version->is_string() || *version != "2.0")
    return Invalid{ErrorCode::InvalidRequest, "Invalid request: 'jsonrpc' must be \"2.0\"", id};

  auto method_it = msg.find("method");
  if (method_it != msg.end()) {
    if (!method_it->is_string())
      return Invalid{ErrorCode::InvalidRequest, "Invalid request: 'method' must be a string", id};
    json params = nullptr;
    if (auto p = msg.find("params"); p != msg.end()) {
      if (!p->is_object() && !p->is_array() && !p->is_null())
        return Invalid{ErrorCode::InvalidRequest, "Invalid request: 'params' must be an object or an array", id};
      params = *p;
    }
    if (has_id) return Request{id, method_it->get<std::string>(), std::move(params)};
    return Notification{method_it->get<std::string>(), std::move(params)};
  }
  if (has_id) {
    if (auto r = msg.find("result"); r != msg.end()) return Response{id, *r, nullptr, true};
    if (auto e = msg.find("error"); e != msg.end()) return Response{id, nullptr, *e, false};
  }
  return Invalid{ErrorCode::InvalidRequest, "Invalid request: neither a request, a notification nor a response", id};
}

json make_result(const json& id, json result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, ErrorCode code, std::string_view message, json data) {
  json err{{"code", static_cast<int>(code)}, {"message", std::string(message)}};
  if (!data.is_null()) err["data"] = std::move(data);
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(err)}};
}

json make_notification(std::string_view method, json params) {
  return json{{"jsonrpc", "2.0"}, {"method", std::string(method)}, {"params", std::move(params)}};
}

json make_request(const json& id, std::string_view method, json params) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", std::string(method)}, {"params", std::move(params)}};
}

std::string serialize(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string id_key(const json& id) {
  if (id.is_string()) return "s:" + id.get<std::string>();
  return "n:" + id.dump();
}

}  // namespace msprobe::protocol
