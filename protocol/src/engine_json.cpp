// JSON conversions for engine values.
#include "atout/protocol/engine_json.hpp"

namespace atout::protocol {

json to_json(Card c) { return atout::to_string(c); }

json to_json(CardSet s) {
  json a = json::array();
  for (Card c : s) a.push_back(atout::to_string(c));
  return a;
}

json to_json(const Action& a) {
  json j = {{"type", atout::to_string(a.type)}};
  switch (a.type) {
    case ActionType::play:
      j["card"] = to_json(a.card);
      break;
    case ActionType::take:
      if (a.has_trump) j["trump"] = atout::to_string(a.trump);
      if (!a.cards.empty()) j["cards"] = to_json(a.cards);  // `simple`: the offered card taken too
      break;
    case ActionType::bid:
      j["trump"] = atout::to_string(a.trump);
      if (a.capot) j["capot"] = true;
      if (a.value != 0) j["value"] = a.value;
      break;
    case ActionType::announce:
    case ActionType::show:
      j["cards"] = to_json(a.cards);
      break;
    default:
      break;
  }
  return j;
}

json to_json(const Contract& c) {
  json j = {{"taker", c.taker}, {"trump", atout::to_string(c.trump)}, {"multiplier", c.multiplier}};
  if (c.value) j["value"] = c.value;
  if (c.capot) j["capot"] = true;
  if (c.doubled_by != kNoSeat) j["doubled_by"] = c.doubled_by;
  if (c.redoubled_by != kNoSeat) j["redoubled_by"] = c.redoubled_by;
  return j;
}

json to_json(const Trick& t) {
  json cards = json::array();
  for (int i = 0; i < t.count; ++i) cards.push_back(to_json(t.cards[static_cast<std::size_t>(i)]));
  return {{"leader", t.leader}, {"cards", cards}};
}

json to_json(const HandResult& r) {
  json teams = json::array();
  for (const TeamTally& t : r.teams)
    teams.push_back({{"card_points", t.card_points},
                     {"last_trick", t.last_trick},
                     {"declarations", t.declarations},
                     {"belote", t.belote},
                     {"capot_bonus", t.capot_bonus},
                     {"tricks", t.tricks},
                     {"raw", t.raw},
                     {"score", t.score}});
  json j = {{"deal_number", r.hand},
            {"dealer", r.dealer},
            {"outcome", atout::to_string(r.outcome)},
            {"capot", r.capot},
            {"teams", teams},
            {"held_before", r.held_before},
            {"held_after", r.held_after},
            {"match_score", r.match_score}};
  if (r.capot) j["capot_team"] = r.capot_team;
  if (r.held_to >= 0) j["held_to"] = r.held_to;
  if (r.contract) j["contract"] = to_json(*r.contract);
  if (!r.rounding.empty()) j["rounding"] = r.rounding;
  if (r.seed) j["seed"] = r.seed->hex();
  return j;
}

json to_json(const Options& o) {
  json j = json::object();
  // Not a structured binding: clang before 16 cannot capture one.
  for (const auto& option : o) std::visit([&](const auto& x) { j[option.first] = x; }, option.second);
  return j;
}

json to_json(const Observation& o) {
  json j = {{"variant", o.variant},
            {"phase", atout::to_string(o.phase)},
            {"deal_number", o.hand},
            {"dealer", o.dealer},
            {"current", o.current},
            {"hand_sizes", json(std::vector<int>(o.hand_sizes.begin(), o.hand_sizes.begin() + o.players))},
            {"match_score", o.match_score},
            {"held_points", o.held_points}};
  if (o.seat != kNoSeat) {
    j["seat"] = o.seat;
    j["hand"] = to_json(o.own);
  }
  if (o.turn_up) j["turn_up"] = to_json(*o.turn_up);
  json bids = json::array();
  for (const RecordedAction& b : o.bids) {
    json a = to_json(b.action);
    a["seat"] = b.seat;
    bids.push_back(a);
  }
  j["bids"] = bids;
  if (o.contract) j["contract"] = to_json(*o.contract);
  if (o.phase == Phase::playing) {
    j["trick"] = to_json(o.trick);
    json tricks = json::array();
    for (const Trick& t : o.tricks) tricks.push_back(to_json(t));
    j["tricks"] = tricks;
    j["tricks_won"] = o.tricks_won;
    json decl = json::array();
    for (const DeclarationView& d : o.declarations) {
      json x = {{"seat", d.seat},
                {"kind", atout::to_string(d.kind)},
                {"top", std::string(1, rank_letter(d.top))},
                {"points", d.points},
                {"shown", d.shown}};
      if (d.shown) x["cards"] = to_json(d.cards);
      decl.push_back(x);
    }
    j["declarations"] = decl;
    j["belote"] = o.belote;
  }
  json legal = json::array();
  for (const Action& a : o.legal) legal.push_back(to_json(a));
  j["legal"] = legal;
  return j;
}

json to_json(const Record& r) {
  json deal = json::object();
  if (r.deal.seed) deal["seed"] = r.deal.seed->hex();
  if (!r.deal.seeds.empty()) {
    json s = json::array();
    for (const Seed& x : r.deal.seeds) s.push_back(x.hex());
    deal["seeds"] = s;
  }
  if (!r.deal.decks.empty()) {
    json d = json::array();
    for (const auto& deck : r.deal.decks) {
      json one = json::array();
      for (Card c : deck) one.push_back(to_json(c));
      d.push_back(one);
    }
    deal["decks"] = d;
  }
  json actions = json::array();
  for (const RecordedAction& a : r.actions) {
    json x = to_json(a.action);
    // An action read without a seat (the seat to act takes it) is written back without one.
    if (a.seat != kNoSeat) x["seat"] = a.seat;
    actions.push_back(x);
  }
  json j = {{"format", "atout-record/1"}, {"variant", r.variant}, {"options", to_json(r.options)}, {"deal", deal},
            {"dealer", r.first_dealer},   {"actions", actions}};
  if (r.hand_limit) j["hands"] = *r.hand_limit;
  return j;
}

// ---- parsing ----

namespace {
template <typename T>
Parsed<T> fail(std::string msg, std::string field = {}, bool missing = false) {
  Parsed<T> p;
  p.error = std::move(msg);
  p.field = std::move(field);
  p.missing = missing;
  return p;
}
// A field's path below its parent: "cards" and "[2]" make "cards[2]", "a" and "b" make "a.b".
std::string join_path(const std::string& parent, const std::string& child) {
  if (child.empty()) return parent;
  if (parent.empty() || child.front() == '[') return parent + child;
  return parent + "." + child;
}
// The failure of a part, moved to where that part sits in the whole.
template <typename T, typename U>
Parsed<T> fail_at(const Parsed<U>& part, const std::string& where) {
  return fail<T>(part.error, join_path(where, part.field), part.missing);
}
template <typename T>
Parsed<T> ok(T v) {
  Parsed<T> p;
  p.value = std::move(v);
  return p;
}
}  // namespace

Parsed<json> parse_text(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) {
    // Find the offset by letting the SAX parser report it, still without exceptions.
    struct Sink : nlohmann::json_sax<json> {
      std::size_t at = 0;
      bool null() override { return true; }
      bool boolean(bool) override { return true; }
      bool number_integer(number_integer_t) override { return true; }
      bool number_unsigned(number_unsigned_t) override { return true; }
      bool number_float(number_float_t, const string_t&) override { return true; }
      bool string(string_t&) override { return true; }
      bool binary(binary_t&) override { return true; }
      bool start_object(std::size_t) override { return true; }
      bool key(string_t&) override { return true; }
      bool end_object() override { return true; }
      bool start_array(std::size_t) override { return true; }
      bool end_array() override { return true; }
      bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception&) override {
        at = pos;
        return false;
      }
    } sink;
    // Strict, as the parse above was: text after a complete value is an error too.
    json::sax_parse(text.begin(), text.end(), &sink, nlohmann::json::input_format_t::json, true);
    return fail<json>("malformed JSON near byte " + std::to_string(sink.at));
  }
  return ok(std::move(j));
}

Parsed<Card> parse_card(const json& j) {
  if (!j.is_string()) return fail<Card>("a card must be a string such as \"JS\" or \"10H\"");
  const auto c = atout::parse_card(j.get<std::string>());
  if (!c)
    return fail<Card>("'" + j.get<std::string>() + "' is not a card (rank 7-9, T or 10, J, Q, K, A; suit C, D, H, S)");
  return ok(*c);
}

Parsed<CardSet> parse_cards(const json& j) {
  if (!j.is_array()) return fail<CardSet>("cards must be an array of card strings");
  CardSet s;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    auto c = parse_card(j[i]);
    if (!c) return fail_at<CardSet>(c, at);
    if (s.contains(*c.value)) return fail<CardSet>("card " + atout::to_string(*c.value) + " appears twice", at);
    s.insert(*c.value);
  }
  return ok(s);
}

Parsed<Action> parse_action(const json& j) {
  if (!j.is_object()) return fail<Action>("an action must be a JSON object");
  const auto t = j.find("type");
  if (t == j.end()) return fail<Action>("an action needs a string field 'type'", "type", true);
  if (!t->is_string()) return fail<Action>("an action needs a string field 'type'", "type");
  const auto type = parse_action_type(t->get<std::string>());
  if (!type) return fail<Action>("unknown action type '" + t->get<std::string>().substr(0, 64) + "'", "type");
  Action a;
  a.type = *type;
  const std::string type_name = atout::to_string(*type);
  // The trump of a take (optional) or a bid (required); an error names the field.
  auto trump_field = [&](bool required) -> std::optional<Parsed<Action>> {
    const auto f = j.find("trump");
    if (f == j.end()) {
      if (!required) return std::nullopt;
      return fail<Action>("action '" + type_name + "' needs a field 'trump'", "trump", true);
    }
    if (!f->is_string()) return fail<Action>("field 'trump' must be a string", "trump");
    const auto tr = parse_trump(f->get<std::string>());
    if (!tr)
      return fail<Action>(
          "'" + f->get<std::string>().substr(0, 64) + "' is not a trump (a suit, no_trumps or all_trumps)", "trump");
    a.has_trump = true;
    a.trump = *tr;
    return std::nullopt;
  };
  switch (a.type) {
    case ActionType::play: {
      const auto f = j.find("card");
      if (f == j.end()) return fail<Action>("action 'play' needs a field 'card'", "card", true);
      auto c = parse_card(*f);
      if (!c) return fail_at<Action>(c, "card");
      a.card = *c.value;
      break;
    }
    case ActionType::take: {
      if (auto e = trump_field(false)) return *e;
      const auto f = j.find("cards");
      if (f != j.end()) {
        auto cs = parse_cards(*f);
        if (!cs) return fail_at<Action>(cs, "cards");
        a.cards = *cs.value;
      }
      break;
    }
    case ActionType::bid: {
      if (auto e = trump_field(true)) return *e;
      const auto cap = j.find("capot");
      if (cap != j.end()) {
        if (!cap->is_boolean()) return fail<Action>("field 'capot' must be true or false", "capot");
        a.capot = cap->get<bool>();
      }
      const auto v = j.find("value");
      if (v != j.end()) {
        if (!v->is_number_integer()) return fail<Action>("field 'value' must be an integer", "value");
        if (v->is_number_unsigned() && v->get<unsigned long long>() > 10000)
          return fail<Action>("field 'value' is out of range (0 to 10000)", "value");
        const auto x = v->get<long long>();
        if (x < 0 || x > 10000) return fail<Action>("field 'value' is out of range (0 to 10000)", "value");
        a.value = static_cast<std::int16_t>(x);
      }  // no value: a bid named by its trump alone (belot), value 0
      break;
    }
    case ActionType::announce:
    case ActionType::show: {
      const auto f = j.find("cards");
      if (f == j.end()) return fail<Action>("action '" + type_name + "' needs a field 'cards'", "cards", true);
      auto cs = parse_cards(*f);
      if (!cs) return fail_at<Action>(cs, "cards");
      a.cards = *cs.value;
      break;
    }
    default:
      break;
  }
  return ok(a);
}

Parsed<Options> parse_options(const json& j) {
  if (!j.is_object()) return fail<Options>("'options' must be a JSON object");
  Options o;
  for (const auto& [k, v] : j.items()) {
    const std::string name = k.substr(0, 64);
    if (v.is_boolean()) {
      o[k] = v.get<bool>();
    } else if (v.is_number_integer()) {
      const bool huge = v.is_number_unsigned() && v.get<unsigned long long>() > 1000000;
      const auto x = v.get<long long>();
      if (huge || x < -1000000 || x > 1000000) return fail<Options>("option '" + name + "' is out of range", name);
      o[k] = static_cast<int>(x);
    } else if (v.is_string()) {
      o[k] = v.get<std::string>();
    } else {
      return fail<Options>("option '" + name + "' must be a boolean, an integer or a string", name);
    }
  }
  return ok(o);
}

Parsed<Record> parse_record(const json& j) {
  if (!j.is_object()) return fail<Record>("a record must be a JSON object");
  Record r;
  const auto v = j.find("variant");
  if (v == j.end() || !v->is_string()) return fail<Record>("a record needs a string field 'variant'");
  r.variant = v->get<std::string>();
  if (const auto f = j.find("format"); f != j.end() && *f != "atout-record/1")
    return fail<Record>("unsupported record format; this tool reads 'atout-record/1'");
  if (const auto o = j.find("options"); o != j.end()) {
    auto p = parse_options(*o);
    if (!p) return fail<Record>(p.error);
    r.options = *p.value;
  }
  if (const auto d = j.find("dealer"); d != j.end()) {
    if (!d->is_number_integer() || d->get<long long>() < 0 || d->get<long long>() > 3)
      return fail<Record>("field 'dealer' must be a seat number");
    r.first_dealer = static_cast<Seat>(d->get<int>());
  }
  if (const auto h = j.find("hands"); h != j.end()) {
    if (!h->is_number_integer() || h->get<long long>() < 1 || h->get<long long>() > 100000)
      return fail<Record>("field 'hands' must be a positive integer");
    r.hand_limit = h->get<int>();
  }
  const auto deal = j.find("deal");
  if (deal == j.end() || !deal->is_object())
    return fail<Record>("a record needs an object field 'deal' (a seed, seeds or decks)");
  if (const auto s = deal->find("seed"); s != deal->end()) {
    const auto seed = s->is_string() ? Seed::parse(s->get<std::string>()) : std::nullopt;
    if (!seed) return fail<Record>("deal.seed must be 32 hexadecimal digits");
    r.deal.seed = seed;
  }
  if (const auto s = deal->find("seeds"); s != deal->end()) {
    if (!s->is_array()) return fail<Record>("deal.seeds must be an array");
    for (const json& x : *s) {
      const auto seed = x.is_string() ? Seed::parse(x.get<std::string>()) : std::nullopt;
      if (!seed) return fail<Record>("each of deal.seeds must be 32 hexadecimal digits");
      r.deal.seeds.push_back(*seed);
    }
  }
  if (const auto s = deal->find("decks"); s != deal->end()) {
    if (!s->is_array()) return fail<Record>("deal.decks must be an array of card arrays");
    for (const json& deck : *s) {
      if (!deck.is_array()) return fail<Record>("deal.decks must be an array of card arrays");
      std::vector<Card> cards;
      for (const json& c : deck) {
        auto p = parse_card(c);
        if (!p) return fail<Record>("deal.decks: " + p.error);
        cards.push_back(*p.value);
      }
      r.deal.decks.push_back(std::move(cards));
    }
  }
  const auto acts = j.find("actions");
  if (acts != j.end()) {
    if (!acts->is_array()) return fail<Record>("field 'actions' must be an array");
    for (std::size_t i = 0; i < acts->size(); ++i) {
      const json& x = (*acts)[i];
      auto a = parse_action(x);
      if (!a) return fail<Record>("action " + std::to_string(i) + ": " + a.error);
      RecordedAction ra;
      ra.action = *a.value;
      if (const auto s = x.find("seat"); s != x.end()) {
        if (!s->is_number_integer() || s->get<long long>() < 0 || s->get<long long>() > 3)
          return fail<Record>("action " + std::to_string(i) + ": field 'seat' must be a seat number");
        ra.seat = static_cast<Seat>(s->get<int>());
      }
      r.actions.push_back(ra);
    }
  }
  return ok(std::move(r));
}

}  // namespace atout::protocol
