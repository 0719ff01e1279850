// atout-loadgen's abuser: table creation until refused, and the lobby asked for over and over.
#include "loadgen_abuse.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace atout::loadgen {

namespace http = server::http;

namespace {

// The `type` of a server message without parsing all of it: a json object keeps its keys sorted
// and `type` sorts after every other top-level key, so the last one in the text is the message's.
std::string message_type(const std::string& text) {
  const auto at = text.rfind("\"type\":\"");
  if (at == std::string::npos) return {};
  const auto start = at + 8;
  return text.substr(start, text.find('"', start) - start);
}

// Blocks while the abuser is paused; false once it is to stop.
bool abuse_gate(const std::atomic<bool>& active, const std::atomic<bool>& stop) {
  while (!active && !stop) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return !stop;
}

}  // namespace

void abuse_ws(const tcp::endpoint& server, int cap, const std::atomic<bool>& active, const std::atomic<bool>& stop,
              AbuseStats& s) {
  std::string token;
  bool creating = true;
  while (abuse_gate(active, stop)) {
    try {
      net::io_context ioc;
      websocket::stream<beast::tcp_stream> ws(ioc);
      beast::get_lowest_layer(ws).connect(server);
      ws.read_message_max(std::uint64_t{1} << 30);
      ws.handshake("127.0.0.1", "/ws");
      beast::flat_buffer buffer;
      // Sends `request` and returns the reply (skipping any other message).
      auto ask = [&](const nlohmann::json& request) {
        ws.write(net::buffer(request.dump()));
        for (;;) {
          buffer.clear();
          ws.read(buffer);
          std::string text = beast::buffers_to_string(buffer.data());
          const std::string type = message_type(text);
          if (type != "table_update" && type != "lobby_update" && type != "lobby_remove") return text;
        }
      };
      nlohmann::json hello = {{"type", "hello"}, {"protocol", 1}, {"name", "abuser"}};
      if (!token.empty()) hello["token"] = token;
      const auto welcome = nlohmann::json::parse(ask(hello));
      token = welcome.value("token", token);
      for (int i = static_cast<int>(s.created); creating && i < cap && abuse_gate(active, stop); ++i) {
        const std::string r = ask({{"type", "create_table"}, {"variant", "duel"}});
        if (message_type(r) == "table_created") {
          ++s.created;
          continue;
        }
        ++s.create_refused;
        creating = false;
      }
      creating = false;
      while (abuse_gate(active, stop)) {
        const std::string r = ask({{"type", "list_tables"}, {"limit", 100}});
        if (message_type(r) == "tables") {
          ++s.lists;
          s.list_bytes += r.size();
          continue;
        }
        ++s.too_fast;
        // "... wait N ms ...": as long as the server says, and no longer.
        long wait_ms = 10;
        if (const auto at = r.find("wait "); at != std::string::npos)
          wait_ms = std::strtol(r.c_str() + at + 5, nullptr, 10);
        std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(wait_ms, 1L, 1000L)));
      }
      beast::error_code ignored;
      ws.close(websocket::close_code::normal, ignored);
    } catch (const std::exception&) {
      ++s.closed;  // closed by the server (for flooding, say): come back as the same player
    }
  }
}

void abuse_http(const tcp::endpoint& server, const std::atomic<bool>& active, const std::atomic<bool>& stop,
                AbuseStats& s) {
  net::io_context ioc;
  while (abuse_gate(active, stop)) {
    try {
      beast::tcp_stream stream(ioc);
      stream.connect(server);
      beast::flat_buffer buffer;
      for (bool open = true; open && abuse_gate(active, stop);) {
        http::request<http::empty_body> req(http::verb::get, "/api/tables?limit=100", 11);
        req.set(http::field::host, "127.0.0.1");
        req.keep_alive(true);
        http::write(stream, req);
        http::response_parser<http::string_body> parser;
        parser.body_limit(std::uint64_t{1} << 30);
        http::read(stream, buffer, parser);
        const auto& res = parser.get();
        open = res.keep_alive();
        if (res.result() == http::status::too_many_requests) {
          ++s.http_limited;
          const long seconds = std::strtol(std::string(res[http::field::retry_after]).c_str(), nullptr, 10);
          std::this_thread::sleep_for(std::chrono::seconds(std::clamp(seconds, 1L, 5L)));
        } else {
          ++s.http_ok;
          s.http_bytes += res.body().size();
        }
      }
    } catch (const std::exception&) {
      ++s.closed;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

}  // namespace atout::loadgen
