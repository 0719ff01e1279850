// Table reports turned into store writes (matches, hands, the action log, the end and ratings).
#include "atout/server/store_journal.hpp"

#include <chrono>

#include "atout/protocol/engine_json.hpp"
#include "atout/protocol/requests.hpp"
#include "atout/server/stored_match.hpp"

namespace atout::server {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

StoreJournal::StoreJournal(std::shared_ptr<store::Store> store) : store_(std::move(store)) {}

void StoreJournal::match_started(const MatchOpened& m) {
  store::MatchStart s;
  s.uid = m.match_id;
  s.table_id = m.table_id;
  s.variant = m.header.variant;
  s.options_json = protocol::to_json(m.header.options).dump();
  // The match seed stays secret in the store until the match ends (replays reveal it then).
  if (m.header.deal.seed) s.match_seed = m.header.deal.seed->hex();
  s.first_dealer = m.header.first_dealer;
  s.rated = m.settings.rated;
  s.started_at = unix_ms();
  for (std::size_t i = 0; i < m.seat_players.size(); ++i)
    s.seats.push_back({static_cast<int>(i), static_cast<int>(i % 2), m.seat_players[i], ""});
  s.table_json = table_json(m.is_private, m.invite, m.settings);
  s.is_private = m.is_private;
  store_->begin_match(s);
  // A bot never says hello, so its profile's last-seen time is the last match it sat down to.
  for (const std::string& player : m.seat_players) touch_bot(player, s.started_at);
}

void StoreJournal::touch_bot(const std::string& player_id, std::int64_t now) {
  if (protocol::bot_of_player(player_id)) store_->touch_player(player_id, now);
}

void StoreJournal::hand_started(const std::string& match_id, int hand, Seat dealer, const Seed& seed,
                                const std::string& commitment, std::uint64_t first_seq) {
  store::HandRow h;
  h.number = hand;
  h.dealer = dealer;
  h.commitment = commitment;
  h.seed = seed.hex();
  h.revealed = false;
  h.first_seq = static_cast<std::int64_t>(first_seq);
  store_->begin_hand(match_id, h);
}

void StoreJournal::action(const std::string& match_id, std::uint64_t seq, Seat seat, const Action& action,
                          bool by_server, std::optional<protocol::BotLevel> by_bot) {
  store_->add_action(match_id, static_cast<std::int64_t>(seq), seat, protocol::action_text(action, by_server, by_bot),
                     unix_ms());
}

void StoreJournal::hand_ended(const std::string& match_id, const HandResult& result, std::uint64_t last_seq) {
  store_->end_hand(match_id, result.hand, static_cast<std::int64_t>(last_seq), protocol::to_json(result).dump());
}

void StoreJournal::seat_changed(const std::string& match_id, Seat seat, const std::string& player_id) {
  store_->change_seat(match_id, seat, player_id);
  touch_bot(player_id, unix_ms());
}

void StoreJournal::match_ended(const std::string& match_id, std::optional<int> winner, std::array<int, 2> score,
                               MatchEnd why) {
  // An aborted match has no result: it did not replay, so neither its score nor a winner stands.
  std::optional<int> s0, s1;
  if (why == MatchEnd::aborted) {
    winner.reset();
  } else {
    s0 = score[0];
    s1 = score[1];
  }
  store_->end_match(match_id, unix_ms(), s0, s1, winner, to_string(why));
}

}  // namespace atout::server
