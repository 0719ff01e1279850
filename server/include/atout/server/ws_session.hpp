// A WebSocket connection as the rest of the server sees it (the live connections, shutdown,
// replacement): its constants and its kick. The transport itself is BasicWsSession<Stream>.
#pragma once

#include <cstdint>

#include "atout/protocol/messages.hpp"
#include "atout/server/connection.hpp"
#include "atout/server/request_router.hpp"

namespace atout::server {

// What every WebSocket connection is, whatever carries it (plain TCP or TLS): its limits and close
// codes, where it is in its life, why it ends, and the kick that ends it on the server's behalf.
// BasicWsSession<Stream> (basic_ws_session.hpp) is the one implementation, over either stream.
class WsSession : public Connection {
 public:
  // Requests are small; a larger frame closes the connection with 1009 (message too big).
  static constexpr std::size_t kMaxMessageBytes = 16 * 1024;
  // Close codes of the connections the server ends on purpose.
  static constexpr std::uint16_t kCloseReplaced = RequestRouter::kCloseReplaced;  // a newer connection took over
  static constexpr std::uint16_t kCloseShutdown = 1012;                           // service restart

  // Where a connection is in its life.
  enum class State {
    upgrading,  // the HTTP upgrade is not complete
    open,       // requests are read and handled
    closing,    // the server closed it (left its lobby and tables); the peer has the close grace to finish
    ended,      // nothing more is read or timed: the peer went, or the socket was cut
  };
  // Why a connection ends; each reason has its close (a frame, a cut, or none) and its counter.
  enum class EndReason {
    peer_gone,      // the read failed: the peer closed or vanished
    too_big,        // a frame over kMaxMessageBytes (Beast has sent 1009)
    flooding,       // more messages than its credits allow: closed with 1008
    not_reading,    // its outbound queue is full: cut without a close frame
    silent,         // no frame for the idle timeout: cut
    close_timeout,  // closing for the close grace without finishing: cut
    write_failed,   // a write failed: what is queued is dropped
    kicked,         // replaced or shut down: the goodbye and what precedes it are written, then the close
  };

  // Says goodbye, leaves the lobby and tables, and closes with `code` once the goodbye is written.
  virtual void kick(protocol::Goodbye goodbye, std::uint16_t code) = 0;
};

}  // namespace atout::server
