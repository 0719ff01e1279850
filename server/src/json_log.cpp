// The JSON-lines log format: spdlog's pattern formatter with one custom flag that writes the
// message as the body of a JSON string.
#include "atout/server/json_log.hpp"

#include <spdlog/pattern_formatter.h>

#include <nlohmann/json.hpp>

namespace atout::server {

namespace {

// %* in the pattern: the record's message, escaped for the inside of a JSON string by
// nlohmann's serializer. Bytes that are not UTF-8 become U+FFFD, so every line stays valid JSON.
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm& /*time*/, spdlog::memory_buf_t& dest) override {
    const std::string quoted = nlohmann::json(std::string(msg.payload.data(), msg.payload.size()))
                                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    dest.append(quoted.data() + 1, quoted.data() + quoted.size() - 1);  // without the quotes
  }
  [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }
};

}  // namespace

std::unique_ptr<spdlog::formatter> make_json_log_formatter() {
  auto f = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
  f->add_flag<JsonEscapedMessage>('*').set_pattern(
      R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","thread":%t,"message":"%*"})");
  return f;
}

}  // namespace atout::server
