// Stored match rows turned back into a Record and the table's settings.
#include "atout/server/stored_match.hpp"

#include "atout/protocol/engine_json.hpp"

namespace atout::server {

std::string table_json(bool is_private, const std::optional<std::string>& invite, const protocol::TableSettings& s) {
  protocol::json j = {{"private", is_private}, {"settings", protocol::to_json(s)}};
  if (invite) j["invite"] = *invite;
  return j.dump();
}

StoredTable read_table_json(const std::string& text) {
  StoredTable out;
  if (text.empty()) return out;
  const auto parsed = protocol::parse_text(text);
  if (!parsed || !parsed.value->is_object()) return out;
  const protocol::json& j = *parsed.value;
  if (const auto p = j.find("private"); p != j.end() && p->is_boolean()) out.is_private = p->get<bool>();
  if (const auto i = j.find("invite"); i != j.end() && i->is_string()) out.invite = i->get<std::string>();
  const auto s = j.find("settings");
  if (s == j.end() || !s->is_object()) return out;
  protocol::TableSettings& t = out.settings;
  auto read_int = [&](const char* key, int& field) {
    if (const auto f = s->find(key); f != s->end() && f->is_number_integer()) field = f->get<int>();
  };
  read_int("turn_ms", t.turn_ms);
  read_int("reconnect_ms", t.reconnect_ms);
  read_int("away_after", t.away_after);
  if (const auto r = s->find("rated"); r != s->end() && r->is_boolean()) t.rated = r->get<bool>();
  if (const auto b = s->find("bot_level"); b != s->end() && b->is_string())
    t.bot_level = protocol::parse_bot_level(b->get_ref<const std::string&>()).value_or(t.bot_level);
  if (const auto a = s->find("abandon"); a != s->end() && a->is_string()) {
    if (*a == "free_seat") t.abandon = protocol::TableSettings::Abandon::free_seat;
    if (*a == "forfeit") t.abandon = protocol::TableSettings::Abandon::forfeit;
  }
  return out;
}

std::string_view to_string(StoredMatchFault f) {
  switch (f) {
    case StoredMatchFault::seq_out_of_order:
      return "seq_out_of_order";
    case StoredMatchFault::bad_options:
      return "bad_options";
    case StoredMatchFault::bad_seed:
      return "bad_seed";
    case StoredMatchFault::bad_action:
      return "bad_action";
    case StoredMatchFault::bad_header:
      return "bad_header";
    case StoredMatchFault::refused_action:
      return "refused_action";
    case StoredMatchFault::seat_count:
      return "seat_count";
    case StoredMatchFault::bad_seat:
      return "bad_seat";
  }
  return "unknown";
}

DecodedRecord decode_record(const store::MatchRow& m) {
  DecodedRecord out;
  auto fail = [&](StoredMatchFault fault, std::string error) {
    out.fault = fault;
    out.error = std::move(error);
    return std::move(out);
  };
  Record rec;
  rec.variant = m.start.variant;
  const auto options = protocol::parse_text(m.start.options_json);
  if (!options) return fail(StoredMatchFault::bad_options, "stored options are not JSON: " + options.error);
  auto opts = protocol::parse_options(*options.value);
  if (!opts) return fail(StoredMatchFault::bad_options, "stored options: " + opts.error);
  rec.options = std::move(*opts.value);
  if (m.start.match_seed) {
    rec.deal.seed = Seed::parse(*m.start.match_seed);
    if (!rec.deal.seed) return fail(StoredMatchFault::bad_seed, "the stored match seed is not 32 hex digits");
  }
  rec.first_dealer = static_cast<Seat>(m.start.first_dealer);
  rec.actions.reserve(m.actions.size());
  for (const store::ActionRow& a : m.actions) {
    const auto text = protocol::parse_text(a.action_json);
    if (!text) return fail(StoredMatchFault::bad_action, "action " + std::to_string(a.seq) + " is not JSON");
    const auto action = protocol::parse_action(*text.value);
    if (!action) return fail(StoredMatchFault::bad_action, "action " + std::to_string(a.seq) + ": " + action.error);
    rec.actions.push_back(RecordedAction{static_cast<Seat>(a.seat), *action.value});
    const auto flag = text.value->find("by_server");
    out.by_server.push_back(flag != text.value->end() && flag->is_boolean() && flag->get<bool>());
    const auto bot = text.value->find("by_bot");
    out.by_bot.push_back(bot != text.value->end() && bot->is_string()
                             ? protocol::parse_bot_level(bot->get_ref<const std::string&>())
                             : std::nullopt);
  }
  out.record = std::move(rec);
  return out;
}

namespace {

// Whether `seq` may follow `previous` in a log: the next event, or the first action of a run
// after a restart (the restart's snapshot seq is a multiple of SeatView::kSeqsPerRun).
bool follows(std::uint64_t previous, std::uint64_t seq) {
  return seq == previous + 1 || (seq > previous + 1 && (seq - 1) % SeatView::kSeqsPerRun == 0);
}

}  // namespace

RebuiltMatch rebuild_match(const store::MatchRow& m) {
  RebuiltMatch out;
  auto fail = [&](StoredMatchFault fault, std::string message) {
    out.state.reset();
    out.error = StoredMatchError{fault, std::move(message)};
    return std::move(out);
  };
  // The log is a prefix of what the table accepted: batches commit whole and in order.
  for (const store::ActionRow& a : m.actions) {
    if (a.seq < 0 || !follows(out.last_seq, static_cast<std::uint64_t>(a.seq)))
      return fail(StoredMatchFault::seq_out_of_order,
                  "action log has seq " + std::to_string(a.seq) + " after " + std::to_string(out.last_seq));
    out.last_seq = static_cast<std::uint64_t>(a.seq);
  }
  DecodedRecord decoded = decode_record(m);
  if (!decoded.record) return fail(decoded.fault.value_or(StoredMatchFault::bad_header), decoded.error);
  ReplayResult r = replay(*decoded.record);
  if (!r.state)
    return fail(StoredMatchFault::bad_header,
                "the header does not make a match: " + (r.error ? r.error->message : std::string("unknown")));
  if (r.refusal != Refusal::none) {
    const store::ActionRow& a = m.actions[r.failed_index];
    return fail(StoredMatchFault::refused_action, "the engine refuses action " + std::to_string(a.seq) + " (" +
                                                      to_string(decoded.record->actions[r.failed_index].action) +
                                                      " by seat " + std::to_string(a.seat) +
                                                      "): " + to_string(r.refusal));
  }
  const auto players = static_cast<std::size_t>(r.state->players());
  if (m.start.seats.size() != players)
    return fail(StoredMatchFault::seat_count, "the store has " + std::to_string(m.start.seats.size()) +
                                                  " seats for a " + std::to_string(players) + "-seat match");
  out.table = read_table_json(m.start.table_json);
  for (std::size_t i = 0; i < m.actions.size(); ++i)
    out.log.add(static_cast<std::uint64_t>(m.actions[i].seq), decoded.by_server[i], decoded.by_bot[i]);
  if (!r.state->is_terminal()) {
    out.seats.resize(players);
    for (const store::SeatRow& s : m.start.seats) {
      if (s.seat < 0 || static_cast<std::size_t>(s.seat) >= players || out.seats[static_cast<std::size_t>(s.seat)])
        return fail(StoredMatchFault::bad_seat,
                    "the store's seat " + std::to_string(s.seat) + " is out of range or repeated");
      out.seats[static_cast<std::size_t>(s.seat)] = s;
    }
  }
  out.state = std::move(r.state);
  return out;
}

}  // namespace atout::server
