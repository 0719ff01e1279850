// Events written straight to text. Every accepted action sends one event per seat and one to the
// spectators, so this is the server's hottest path; building an nlohmann tree per recipient cost
// more than everything else a table does (bench/RESULTS.md, "Server under load").
//
// The output is byte for byte what `to_json(event).dump()` gives: keys in sorted order, no spaces.
// tests/protocol/event_text_sim_test.cpp holds the two together over every step of seeded matches of
// every variant. The rare parts (hand and match results) are still written through nlohmann.
#include <array>
#include <charconv>

#include "atout/protocol/messages.hpp"

namespace atout::protocol {

namespace {

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void raw(std::string_view s) { out_.append(s); }
  void ch(char c) { out_.push_back(c); }

  template <typename Int>
  void number(Int v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
    out_.append(buf, r.ptr);
  }
  void number_u(std::uint64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  void boolean(bool b) { raw(b ? "true" : "false"); }

  // A JSON string. Text other than printable ASCII goes through nlohmann, so escapes and the
  // replacement of invalid UTF-8 are exactly serialize()'s.
  void string(std::string_view s) {
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7F || c == '"' || c == '\\') {
        raw(json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace));
        return;
      }
    }
    ch('"');
    raw(s);
    ch('"');
  }

  // `"key":` preceded by a comma unless it is the first member.
  void key(std::string_view k, bool& first) {
    if (!first) ch(',');
    first = false;
    ch('"');
    raw(k);
    raw("\":");
  }

  void card(Card c) {
    ch('"');
    ch(rank_letter(c.rank()));
    ch(suit_letter(c.suit()));
    ch('"');
  }
  void cards(CardSet s) {
    ch('[');
    bool first = true;
    for (const Card c : s) {
      if (!first) ch(',');
      first = false;
      card(c);
    }
    ch(']');
  }
  template <typename Range>
  void numbers(const Range& r) {
    ch('[');
    bool first = true;
    for (const auto v : r) {
      if (!first) ch(',');
      first = false;
      number(v);
    }
    ch(']');
  }

  // The members of an action, to which a bid adds its seat; to_json(Action) for the fields.
  void action(const Action& a, std::optional<Seat> seat, bool by_server = false,
              std::optional<BotLevel> by_bot = std::nullopt) {
    ch('{');
    bool first = true;
    if (by_bot) {
      key("by_bot", first);
      string(to_string(*by_bot));
    }
    if (by_server) {
      key("by_server", first);
      raw("true");
    }
    const bool is_bid = a.type == ActionType::bid;
    const bool is_take = a.type == ActionType::take;
    const bool has_cards =
        ((a.type == ActionType::announce || a.type == ActionType::show) || (is_take && !a.cards.empty()));
    if (is_bid && a.capot) {
      key("capot", first);
      raw("true");
    }
    if (a.type == ActionType::play) {
      key("card", first);
      card(a.card);
    }
    if (has_cards) {
      key("cards", first);
      cards(a.cards);
    }
    if (seat) {
      key("seat", first);
      number(*seat);
    }
    if (is_bid || (is_take && a.has_trump)) {
      key("trump", first);
      string(atout::to_string(a.trump));
    }
    key("type", first);
    string(atout::to_string(a.type));
    if (is_bid && a.value != 0) {
      key("value", first);
      number(a.value);
    }
    ch('}');
  }

  void contract(const Contract& c) {
    ch('{');
    bool first = true;
    if (c.capot) {
      key("capot", first);
      raw("true");
    }
    if (c.doubled_by != kNoSeat) {
      key("doubled_by", first);
      number(c.doubled_by);
    }
    key("multiplier", first);
    number(c.multiplier);
    if (c.redoubled_by != kNoSeat) {
      key("redoubled_by", first);
      number(c.redoubled_by);
    }
    key("taker", first);
    number(c.taker);
    key("trump", first);
    string(atout::to_string(c.trump));
    if (c.value) {
      key("value", first);
      number(c.value);
    }
    ch('}');
  }

  void trick(const Trick& t) {
    raw("{\"cards\":[");
    for (int i = 0; i < t.count; ++i) {
      if (i > 0) ch(',');
      card(t.cards[static_cast<std::size_t>(i)]);
    }
    raw("],\"leader\":");
    number(t.leader);
    ch('}');
  }

  void declaration(const DeclarationView& d) {
    ch('{');
    bool first = true;
    if (d.shown) {
      key("cards", first);
      cards(d.cards);
    }
    key("kind", first);
    string(atout::to_string(d.kind));
    key("points", first);
    number(d.points);
    key("seat", first);
    number(d.seat);
    key("shown", first);
    boolean(d.shown);
    key("top", first);
    ch('"');
    ch(rank_letter(d.top));
    ch('"');
    ch('}');
  }

  // to_json(Observation) in engine_json.cpp, member for member.
  void observation(const Observation& o) {
    const bool playing = o.phase == Phase::playing;
    ch('{');
    bool first = true;
    if (playing) {
      key("belote", first);
      numbers(o.belote);
    }
    key("bids", first);
    ch('[');
    for (std::size_t i = 0; i < o.bids.size(); ++i) {
      if (i > 0) ch(',');
      action(o.bids[i].action, o.bids[i].seat);
    }
    ch(']');
    if (o.contract) {
      key("contract", first);
      contract(*o.contract);
    }
    key("current", first);
    number(o.current);
    key("deal_number", first);
    number(o.hand);
    key("dealer", first);
    number(o.dealer);
    if (playing) {
      key("declarations", first);
      ch('[');
      for (std::size_t i = 0; i < o.declarations.size(); ++i) {
        if (i > 0) ch(',');
        declaration(o.declarations[i]);
      }
      ch(']');
    }
    if (o.seat != kNoSeat) {
      key("hand", first);
      cards(o.own);
    }
    key("hand_sizes", first);
    ch('[');
    for (int i = 0; i < o.players; ++i) {
      if (i > 0) ch(',');
      number(o.hand_sizes[static_cast<std::size_t>(i)]);
    }
    ch(']');
    key("held_points", first);
    number(o.held_points);
    key("legal", first);
    ch('[');
    for (std::size_t i = 0; i < o.legal.size(); ++i) {
      if (i > 0) ch(',');
      action(o.legal[i], std::nullopt);
    }
    ch(']');
    key("match_score", first);
    numbers(o.match_score);
    key("phase", first);
    string(atout::to_string(o.phase));
    if (o.seat != kNoSeat) {
      key("seat", first);
      number(o.seat);
    }
    if (playing) {
      key("trick", first);
      trick(o.trick);
      key("tricks", first);
      ch('[');
      for (std::size_t i = 0; i < o.tricks.size(); ++i) {
        if (i > 0) ch(',');
        trick(o.tricks[i]);
      }
      ch(']');
      key("tricks_won", first);
      numbers(o.tricks_won);
    }
    if (o.turn_up) {
      key("turn_up", first);
      card(*o.turn_up);
    }
    key("variant", first);
    string(o.variant);
    ch('}');
  }

  void last_action(const LastAction& l) {
    raw("{\"action\":");
    if (l.redacted) {
      raw("{\"type\":");
      string(atout::to_string(l.action.type));
      ch('}');
    } else {
      action(l.action, std::nullopt);
    }
    if (l.by_bot) {
      raw(",\"by_bot\":");
      string(to_string(*l.by_bot));
    }
    if (l.by_server) raw(",\"by_server\":true");
    if (l.redacted) raw(",\"redacted\":true");
    raw(",\"seat\":");
    number(l.seat);
    ch('}');
  }

 private:
  std::string& out_;
};

// The names come from the one mapping in wire_enums.hpp, looked up once.
const std::string& kind_name(EventKind k) {
  static const std::array<std::string, 4> names = {to_string(EventKind::start), to_string(EventKind::action),
                                                   to_string(EventKind::snapshot), to_string(EventKind::abandoned)};
  return names[static_cast<std::size_t>(k)];
}

}  // namespace

std::string action_text(const Action& a, bool by_server, std::optional<BotLevel> by_bot) {
  std::string out;
  out.reserve(64);
  Writer(out).action(a, std::nullopt, by_server, by_bot);
  return out;
}

std::string serialize(const Event& e) {
  std::string out;
  out.reserve(1024);
  Writer w(out);
  w.ch('{');
  bool first = true;
  if (e.deal) {
    w.key("commitment", first);
    w.raw("{\"deal_number\":");
    w.number(e.deal->hand);
    w.raw(",\"hash\":");
    w.string(e.deal->commitment);
    w.raw(",\"match_id\":");
    w.string(e.deal->match_id);
    w.ch('}');
  }
  if (e.hand_result) {
    w.key("hand_result", first);
    w.raw(to_json(*e.hand_result).dump(-1, ' ', false, json::error_handler_t::replace));
  }
  if (const auto* n = std::get_if<std::int64_t>(&e.id)) {
    w.key("id", first);
    w.number(*n);
  } else if (const auto* s = std::get_if<std::string>(&e.id)) {
    w.key("id", first);
    w.string(*s);
  }
  w.key("kind", first);
  w.ch('"');
  w.raw(kind_name(e.kind));
  w.ch('"');
  if (e.last) {
    w.key("last_action", first);
    w.last_action(*e.last);
  }
  if (e.match_result) {
    w.key("match_result", first);
    w.raw(to_json(*e.match_result).dump(-1, ' ', false, json::error_handler_t::replace));
  }
  w.key("observation", first);
  w.observation(e.observation);
  if (e.replayed) {
    w.key("replayed", first);
    w.raw("true");
  }
  w.key("seq", first);
  w.number_u(e.seq);
  w.key("table_id", first);
  w.string(e.table_id);
  if (e.turn_ms_left) {
    w.key("turn_ms_left", first);
    w.number(*e.turn_ms_left);
  }
  w.key("type", first);
  w.raw("\"event\"");
  w.ch('}');
  return out;
}

}  // namespace atout::protocol
