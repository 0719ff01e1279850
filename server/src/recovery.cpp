// Rebuilding unfinished matches from their logs: create_state from the stored header, then apply
// each stored action, exactly as the table did.
#include "recovery.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/fair_deal.hpp"
#include "atout/protocol/json.hpp"

namespace atout::server {

namespace {

struct table_meta {
  bool is_private = false;
  std::optional<std::string> invite;
  protocol::TableSettings settings;
};

// The table's privacy, invite and settings; a missing or unreadable row keeps the defaults.
table_meta read_meta(const std::string& text) {
  table_meta meta;
  if (text.empty()) return meta;
  const auto parsed = protocol::parse_text(text);
  if (!parsed || !parsed.value->is_object()) return meta;
  const protocol::json& j = *parsed.value;
  if (const auto p = j.find("private"); p != j.end() && p->is_boolean()) meta.is_private = p->get<bool>();
  if (const auto i = j.find("invite"); i != j.end() && i->is_string()) meta.invite = i->get<std::string>();
  if (const auto s = j.find("settings"); s != j.end() && s->is_object()) {
    protocol::TableSettings& t = meta.settings;
    auto read_int = [&](const char* key, int& out) {
      if (const auto f = s->find(key); f != s->end() && f->is_number_integer()) out = f->get<int>();
    };
    read_int("turn_ms", t.turn_ms);
    read_int("reconnect_ms", t.reconnect_ms);
    read_int("away_after", t.away_after);
    if (const auto r = s->find("rated"); r != s->end() && r->is_boolean()) t.rated = r->get<bool>();
  }
  return meta;
}

// Where the replay of one match got to, beside the state itself.
struct replayed {
  std::unique_ptr<State> state;
  std::uint64_t last_seq = 1;          // the start event is seq 1
  std::vector<std::int64_t> hand_end;  // the seq of the action that ended each hand
  std::string error;
};

replayed replay_log(const store::MatchRow& m) {
  replayed out;
  Record header;
  header.variant = m.start.variant;
  const auto options = protocol::parse_text(m.start.options_json);
  if (!options) {
    out.error = "stored options are not JSON: " + options.error;
    return out;
  }
  auto opts = protocol::parse_options(*options.value);
  if (!opts) {
    out.error = "stored options: " + opts.error;
    return out;
  }
  header.options = *opts.value;
  if (m.start.match_seed) {
    header.deal.seed = Seed::parse(*m.start.match_seed);
    if (!header.deal.seed) {
      out.error = "the stored match seed is not 32 hex digits";
      return out;
    }
  }
  header.first_dealer = static_cast<Seat>(m.start.first_dealer);
  CreateResult created = create_state(header);
  if (!created.state) {
    out.error = "the header does not make a match: " + (created.error ? created.error->message : "unknown");
    return out;
  }
  out.state = std::move(created.state);
  std::int64_t expected = 2;
  for (const store::ActionRow& a : m.actions) {
    // The log is a prefix of what the table accepted: batches commit whole and in order.
    if (a.seq != expected) {
      out.error = "action log has seq " + std::to_string(a.seq) + " where " + std::to_string(expected) + " belongs";
      return out;
    }
    ++expected;
    const auto text = protocol::parse_text(a.action_json);
    if (!text) {
      out.error = "action " + std::to_string(a.seq) + " is not JSON";
      return out;
    }
    const auto action = protocol::parse_action(*text.value);
    if (!action) {
      out.error = "action " + std::to_string(a.seq) + ": " + action.error;
      return out;
    }
    const std::size_t hands_before = out.state->hand_results().size();
    const Refusal r = out.state->apply(static_cast<Seat>(a.seat), *action.value);
    if (r != Refusal::none) {
      out.error = "the engine refuses action " + std::to_string(a.seq) + " (" + to_string(*action.value) + " by seat " +
                  std::to_string(a.seat) + "): " + to_string(r);
      return out;
    }
    if (out.state->hand_results().size() > hands_before) out.hand_end.push_back(a.seq);
    out.last_seq = static_cast<std::uint64_t>(a.seq);
  }
  return out;
}

}  // namespace

rebuilt rebuild(const store::MatchRow& m) {
  rebuilt out;
  replayed r = replay_log(m);
  if (!r.error.empty()) {
    out.error = r.error;
    return out;
  }
  out.hand_ends = std::move(r.hand_end);
  const auto players = static_cast<std::size_t>(r.state->players());
  if (m.start.seats.size() != players) {
    out.error = "the store has " + std::to_string(m.start.seats.size()) + " seats for a " + std::to_string(players) +
                "-seat match";
    return out;
  }
  if (r.state->is_terminal()) {
    out.ended = std::move(r.state);
    return out;
  }
  const table_meta meta = read_meta(m.start.table_json);
  table_init init;
  init.id = m.start.table_id;
  init.match_id = m.start.uid;
  init.is_private = meta.is_private;
  init.invite = meta.invite;
  init.settings = meta.settings;
  init.state = std::move(r.state);
  init.held.resize(players);
  for (const store::SeatRow& s : m.start.seats) {
    if (s.seat < 0 || static_cast<std::size_t>(s.seat) >= players || init.held[static_cast<std::size_t>(s.seat)]) {
      out.error = "the store's seat " + std::to_string(s.seat) + " is out of range or repeated";
      return out;
    }
    member held;
    held.conn = 0;
    held.player_id = s.player;
    held.name = s.name;
    init.held[static_cast<std::size_t>(s.seat)] = std::move(held);
  }
  init.seq = r.last_seq;
  init.started = true;
  out.init = std::move(init);
  return out;
}

recovery_report recover(store::Store& store, lobby& lobby, store_journal* journal) {
  recovery_report report;
  const std::int64_t now = unix_ms();
  for (const store::MatchRow& m : store.unfinished_matches()) {
    rebuilt b = rebuild(m);
    if (!b.error.empty()) {
      spdlog::error("recovery: match {} at table {} cannot be rebuilt, marked aborted: {}", m.start.uid,
                    m.start.table_id, b.error);
      store.end_match(m.start.uid, now, std::nullopt, std::nullopt, std::nullopt, "aborted");
      ++report.aborted;
      continue;
    }
    const State& state = b.ended ? *b.ended : *b.init->state;

    // Hands the log ended whose end the crash kept from the store. (Their rows exist: the writer
    // commits in order, and a hand's row is queued before its first action.)
    int next_hand = 0;
    for (const store::HandRow& h : m.hands) {
      next_hand = std::max(next_hand, h.number + 1);
      const auto n = static_cast<std::size_t>(h.number);
      if (!h.result_json.empty() || n >= b.hand_ends.size() || n >= state.hand_results().size()) continue;
      store.end_hand(m.start.uid, h.number, b.hand_ends[n], protocol::to_json(state.hand_results()[n]).dump());
    }
    if (b.ended) {
      spdlog::info("recovery: match {} at table {} had reached its end; recorded as finished", m.start.uid,
                   m.start.table_id);
      const auto score = state.match_score();
      store.end_match(m.start.uid, now, score[0], score[1], state.winner(), "finished");
      ++report.finished;
      continue;
    }
    // The hand in progress is written again if its row was lost: next_hand does not cover it.
    if (journal) journal->resumed(m.start.uid, b.init->seq, next_hand);
    lobby.restore(std::move(*b.init));
    ++report.restored;
  }
  return report;
}

}  // namespace atout::server
