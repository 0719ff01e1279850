// JSON forms of engine values: cards, actions, records, observations and hand results.
// Parsing never throws: it returns the value or a message naming what was wrong.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "atout/state.hpp"

namespace atout::protocol {

using nlohmann::json;

// The result of parsing: a value, or an error message naming the field that was wrong.
template <typename T>
struct Parsed {
  std::optional<T> value;
  std::string error;
  // Where in the parsed value the fault is, as a path below it ("value", "cards[2]"); empty when
  // it is the value as a whole. `missing` when that field is absent rather than wrong.
  std::string field;
  bool missing = false;
  explicit operator bool() const { return value.has_value(); }
};

json to_json(Card c);
json to_json(CardSet s);  // an array of cards
json to_json(const Action& a);
json to_json(const Contract& c);
json to_json(const HandResult& r);
json to_json(const Observation& o);
json to_json(const Options& o);
json to_json(const Record& r);
json to_json(const Trick& t);

Parsed<Card> parse_card(const json& j);
Parsed<CardSet> parse_cards(const json& j);
Parsed<Action> parse_action(const json& j);
Parsed<Options> parse_options(const json& j);
Parsed<Record> parse_record(const json& j);
// Parses text without exceptions; the error names the byte offset of a syntax error.
Parsed<json> parse_text(std::string_view text);

}  // namespace atout::protocol
