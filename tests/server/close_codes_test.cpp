// The WebSocket close codes docs/protocol.md promises for frames that break the WebSocket rules
// themselves: invalid UTF-8 in a text frame closes with 1007, a frame that breaks the framing
// protocol with 1002. The bad frames are written byte by byte on a raw socket.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>

#include "test_client.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// A TCP connection that did the WebSocket upgrade by hand, to send frames no library would.
class RawSocket {
 public:
  explicit RawSocket(unsigned short port) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    const std::string upgrade =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    net::write(socket_, net::buffer(upgrade));
    std::string head;
    std::array<char, 1> c{};
    while (head.size() < 4096 && (head.size() < 4 || head.substr(head.size() - 4) != "\r\n\r\n")) {
      net::read(socket_, net::buffer(c));
      head += c[0];
    }
    status_line_ = head.substr(0, head.find("\r\n"));
  }

  const std::string& status_line() const { return status_line_; }

  // One frame: the first byte (FIN, RSV bits and opcode) and the payload, masked or not.
  void frame(std::uint8_t first, const std::string& payload, bool masked = true) {
    std::string f;
    f += static_cast<char>(first);
    const std::array<std::uint8_t, 4> mask{0x12, 0x34, 0x56, 0x78};
    f += static_cast<char>((masked ? 0x80 : 0x00) | static_cast<int>(payload.size()));  // short payloads only
    if (masked)
      for (std::uint8_t m : mask) f += static_cast<char>(m);
    for (std::size_t i = 0; i < payload.size(); ++i)
      f += masked ? static_cast<char>(static_cast<std::uint8_t>(payload[i]) ^ mask[i % 4]) : payload[i];
    net::write(socket_, net::buffer(f));
  }

  // The code of the close frame the server sends next, skipping other frames; nothing if the
  // connection ends without one.
  std::optional<int> close_code() {
    for (;;) {
      std::array<std::uint8_t, 2> head{};
      beast::error_code ec;
      net::read(socket_, net::buffer(head), ec);
      if (ec) return std::nullopt;
      std::size_t len = head[1] & 0x7F;
      if (len == 126) {
        std::array<std::uint8_t, 2> ext{};
        net::read(socket_, net::buffer(ext), ec);
        len = static_cast<std::size_t>(ext[0]) << 8 | ext[1];
      } else if (len == 127) {
        return std::nullopt;  // the server sends nothing this large here
      }
      std::string payload(len, '\0');
      if (len > 0) net::read(socket_, net::buffer(payload), ec);
      if (ec) return std::nullopt;
      if ((head[0] & 0x0F) == 0x8) {
        if (payload.size() < 2) return 1005;  // a close without a code
        return static_cast<std::uint8_t>(payload[0]) << 8 | static_cast<std::uint8_t>(payload[1]);
      }
    }
  }

 private:
  net::io_context ioc_;
  tcp::socket socket_;
  std::string status_line_;
};

constexpr std::uint8_t kFinText = 0x81;

TEST(CloseCodes, InvalidUtf8InATextFrameClosesWith1007) {
  LiveServer server;
  RawSocket raw(server.port());
  ASSERT_NE(raw.status_line().find("101"), std::string::npos) << raw.status_line();
  raw.frame(kFinText, "{\"type\":\"ping\",\"x\":\"\xC3\x28\"}");
  EXPECT_EQ(raw.close_code(), 1007);

  // The same through a WebSocket library: the client sees the code too.
  TestClient c(server.port(), nullptr);
  c.send_raw("\xFF\xFE");
  EXPECT_FALSE(c.next(10s).has_value());
  EXPECT_EQ(c.close_code(), 1007);
}

TEST(CloseCodes, AFrameThatBreaksTheFramingClosesWith1002) {
  LiveServer server;
  {
    // An unmasked frame from a client.
    RawSocket raw(server.port());
    raw.frame(kFinText, R"({"type":"ping"})", false);
    EXPECT_EQ(raw.close_code(), 1002);
  }
  {
    // A reserved bit set, with no extension that gives it a meaning.
    RawSocket raw(server.port());
    raw.frame(kFinText | 0x40, R"({"type":"ping"})");
    EXPECT_EQ(raw.close_code(), 1002);
  }
  {
    // An opcode the protocol does not define.
    RawSocket raw(server.port());
    raw.frame(0x83, "x");
    EXPECT_EQ(raw.close_code(), 1002);
  }
}

// The frames above are refused for what they are: the same socket code with well-formed frames
// gets its replies, and a binary frame is an error reply, not a close.
TEST(CloseCodes, WellFormedRawFramesAreAnswered) {
  LiveServer server;
  TestClient c(server.port(), nullptr);
  c.send_raw(R"({"type":"ping","id":1})");
  const auto pong = c.next(10s);
  ASSERT_TRUE(pong.has_value());
  EXPECT_EQ((*pong)["type"], "pong");
  c.send_raw(R"({"type":"ping"})", true);
  const auto error = c.next(10s);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ((*error)["code"], "bad_json");
  EXPECT_TRUE(c.open());
}

}  // namespace
}  // namespace atout::server::testing
