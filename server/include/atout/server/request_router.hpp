// The request router of one connection: parses each text frame into a typed request and hands it to
// the lobby, a table or the archive, holding what the connection is (its player, its tables, its
// chat budget). It never touches the socket, so tests drive it with a recording connection.
#pragma once

#include <boost/container/devector.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/server/connection.hpp"
#include "atout/server/context.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/table_clock.hpp"

namespace atout::server {

class RequestRouter {
 public:
  using Clock = std::chrono::steady_clock;

  // Chat: a burst of this many lines, then kChatRate more each second.
  static constexpr double kChatBurst = 5;
  static constexpr double kChatRate = 1;
  // Close code of a connection that a newer one with the same identity replaces.
  static constexpr std::uint16_t kCloseReplaced = 4001;
  // In a cluster, an unknown token is looked up this many times more, this long apart (a guest made
  // on another node a moment ago may not be committed yet).
  static constexpr int kUnknownTokenRetries = 5;
  static constexpr std::chrono::milliseconds kUnknownTokenWait{4};
  // Requests that may arrive while such a hello waits; they are handled after it, in order.
  static constexpr std::size_t kMaxHeldRequests = 16;

  RequestRouter(std::shared_ptr<Context> ctx, Connection& conn, Clock::time_point now = Clock::now());

  // One text frame, read at `now`. Everything below runs on the connection's executor.
  void handle(std::string_view text, Clock::time_point now = Clock::now());
  // Answers the request `id` (or none) with an error.
  void reply_error(protocol::ErrorCode code, std::string message, const protocol::RequestId& id);

  // A table counts the connection among its members; one that seats it after it closed is told to
  // let it go at once.
  void joined(const std::string& table_id, std::weak_ptr<Table> t);
  void departed(const std::string& table_id);
  // The connection is ending: leaves the lobby's subscribers, the sessions' registry and every table.
  void leave_all();

  // After a hello with a token: the welcome (with the seats held for the player), then the resumes.
  void welcome(protocol::Welcome w, std::vector<protocol::ResumeAt> resume, const protocol::RequestId& id);

 private:
  void handle(const protocol::Hello& r, const protocol::RequestId& id);
  // Looks the hello's token up (try `tries`); when it is unknown and more tries are allowed, waits
  // on a timer, without blocking the I/O thread, and tries again.
  void resume_token(protocol::Hello r, protocol::RequestId id, int tries);
  // The hello is answered: the player is `who`, with `token`.
  void greet(Player who, std::string token, bool resumed, const protocol::Hello& r, const protocol::RequestId& id);
  // Handles the requests that arrived while a hello waited, until one waits again.
  void release_held();
  void handle(const protocol::ListVariants& r, const protocol::RequestId& id);
  void handle(const protocol::ListTables& r, const protocol::RequestId& id);
  void handle(const protocol::SubscribeLobby& r, const protocol::RequestId& id);
  void handle(const protocol::UnsubscribeLobby& r, const protocol::RequestId& id);
  void handle(const protocol::CreateTable& r, const protocol::RequestId& id);
  void handle(const protocol::Sit& r, const protocol::RequestId& id);
  void handle(const protocol::Spectate& r, const protocol::RequestId& id);
  void handle(const protocol::Stand& r, const protocol::RequestId& id);
  void handle(const protocol::Leave& r, const protocol::RequestId& id);
  void handle(const protocol::Act& r, const protocol::RequestId& id);
  void handle(const protocol::AddBot& r, const protocol::RequestId& id);
  void handle(const protocol::RemoveBot& r, const protocol::RequestId& id);
  void handle(const protocol::Ping& r, const protocol::RequestId& id);
  void handle(const protocol::Chat& r, const protocol::RequestId& id);
  void handle(const protocol::GetProfile& r, const protocol::RequestId& id);
  void handle(const protocol::GetLeaderboard& r, const protocol::RequestId& id);
  void handle(const protocol::GetHistory& r, const protocol::RequestId& id);
  void handle(const protocol::GetReplay& r, const protocol::RequestId& id);
  void handle(const protocol::GetAnalysis& r, const protocol::RequestId& id);
  // Asks the archive, off the I/O threads, and sends its reply.
  template <typename Request>
  void ask_archive(const Request& r, const protocol::RequestId& id);
  // Runs `fn` with the table `table_id` names: the one this connection joined, else the lobby's.
  template <typename Fn>
  void with_member_table(const std::string& table_id, const protocol::RequestId& id, Fn fn);
  Member me();
  // Charges a listing whose page holds up to `limit` tables to the connection's message credits
  // (LobbyLimits::kTablesPerCredit); false, with a too_fast reply, when they cannot pay.
  bool charge_listing(int limit, const protocol::RequestId& id);

  std::shared_ptr<Context> ctx_;
  Connection& conn_;
  std::optional<Player> player_;
  protocol::Ack ack_ = protocol::Ack::reply;       // how its actions are acknowledged (hello's `ack`)
  protocol::Views views_ = protocol::Views::full;  // how its events come (hello's `views`)
  std::unordered_map<std::string, std::weak_ptr<Table>> tables_;
  MessageCredits chat_credits_;
  Clock::time_point now_;                    // when the request being handled was read
  std::unique_ptr<TableTimer> token_timer_;  // made at the first wait
  bool awaiting_token_ = false;
  // Frames read meanwhile, and when. A devector holds no memory while empty, which it nearly always
  // is (a std::deque would hold a block on every connection).
  boost::container::devector<std::pair<std::string, Clock::time_point>> held_;
};

}  // namespace atout::server
