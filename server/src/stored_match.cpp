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

DecodedRecord decode_record(const store::MatchRow& m) {
  DecodedRecord out;
  Record rec;
  rec.variant = m.start.variant;
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
  rec.options = std::move(*opts.value);
  if (m.start.match_seed) {
    rec.deal.seed = Seed::parse(*m.start.match_seed);
    if (!rec.deal.seed) {
      out.error = "the stored match seed is not 32 hex digits";
      return out;
    }
  }
  rec.first_dealer = static_cast<Seat>(m.start.first_dealer);
  rec.actions.reserve(m.actions.size());
  for (const store::ActionRow& a : m.actions) {
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

}  // namespace atout::server
