// The variant registry: ids, option specs, option checking, creation and replay.
#include <algorithm>
#include <set>

#include "game_base.hpp"
#include "variants/registry.hpp"

namespace atout {

namespace {

std::vector<VariantInfo> make_registry() {
  // The order is the order `variants()` lists them in (CLI help, lobby).
  return {french_variant(), duel_variant(), coinche_variant(), belot_variant(), bazar_variant(), simple_variant()};
}

}  // namespace

const std::vector<VariantInfo>& variants() {
  static const std::vector<VariantInfo> registry = make_registry();
  return registry;
}

const VariantInfo* find_variant(std::string_view id) {
  for (const VariantInfo& v : variants())
    if (v.id == id) return &v;
  return nullptr;
}

std::optional<CreateError> normalise_options(const VariantInfo& info, Options& options) {
  for (const auto& [name, value] : options) {
    // A named copy of the binding: clang before 16 cannot capture a structured binding.
    const std::string& option = name;
    const auto spec =
        std::find_if(info.options.begin(), info.options.end(), [&](const OptionSpec& s) { return s.name == option; });
    if (spec == info.options.end())
      return CreateError{"bad_option", "variant '" + info.id + "' has no option '" + name + "'", name};
    switch (spec->type) {
      case OptionType::boolean:
        if (!std::holds_alternative<bool>(value))
          return CreateError{"bad_option", "option '" + name + "' must be true or false", name};
        break;
      case OptionType::integer: {
        if (!std::holds_alternative<int>(value))
          return CreateError{"bad_option", "option '" + name + "' must be an integer", name};
        const int x = std::get<int>(value);
        const auto& allowed = spec->allowed_integers;
        const bool ok = allowed.empty() ? (x >= spec->min && x <= spec->max)
                                        : std::find(allowed.begin(), allowed.end(), x) != allowed.end();
        if (!ok) {
          std::string list;
          if (allowed.empty()) {
            list = std::to_string(spec->min) + " to " + std::to_string(spec->max);
          } else {
            for (int a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
          }
          return CreateError{"bad_option", "option '" + name + "' is " + std::to_string(x) + "; allowed: " + list,
                             name};
        }
        break;
      }
      case OptionType::choice: {
        if (!std::holds_alternative<std::string>(value))
          return CreateError{"bad_option", "option '" + name + "' must be a string", name};
        const auto& c = spec->choices;
        if (std::find(c.begin(), c.end(), std::get<std::string>(value)) == c.end()) {
          std::string list;
          for (const auto& a : c) list += (list.empty() ? "" : ", ") + a;
          return CreateError{"bad_option",
                             "option '" + name + "' is '" + std::get<std::string>(value) + "'; allowed: " + list, name};
        }
        break;
      }
    }
  }
  for (const OptionSpec& s : info.options) options.try_emplace(s.name, s.default_value);
  return std::nullopt;
}

namespace {
std::optional<CreateError> check_deal(const VariantInfo& info, const Record& r) {
  const CardSet deck = info.deck_size == 24 ? CardSet::deck24() : CardSet::deck32();
  for (std::size_t i = 0; i < r.deal.decks.size(); ++i) {
    const auto& d = r.deal.decks[i];
    CardSet seen;
    for (Card c : d) {
      if (seen.contains(c) || !deck.contains(c))
        return CreateError{
            "bad_deal", "deck " + std::to_string(i) + " repeats or does not belong: " + to_string(c), {}};
      seen.insert(c);
    }
    if (seen != deck)
      return CreateError{"bad_deal",
                         "deck " + std::to_string(i) + " has " + std::to_string(seen.size()) + " cards; the " +
                             info.id + " deck has " + std::to_string(deck.size()),
                         {}};
  }
  if (!r.deal.seed) {
    const std::size_t covered = std::max(r.deal.decks.size(), r.deal.seeds.size());
    if (covered == 0) return CreateError{"bad_deal", "the record gives no seed and no deck", {}};
    if (!r.hand_limit || static_cast<std::size_t>(*r.hand_limit) > covered)
      return CreateError{"bad_deal",
                         "without a match seed, the record must give a hand limit no larger than its " +
                             std::to_string(covered) + " deal(s)",
                         {}};
  }
  if (r.first_dealer < 0 || r.first_dealer >= info.players)
    return CreateError{"bad_deal", "dealer " + std::to_string(r.first_dealer) + " is not a seat of " + info.id, {}};
  if (r.hand_limit && *r.hand_limit < 1) return CreateError{"bad_deal", "the hand limit must be at least 1", {}};
  return std::nullopt;
}
}  // namespace

CreateResult create_state(const Record& header) {
  CreateResult out;
  const VariantInfo* info = find_variant(header.variant);
  if (!info) {
    std::string list;
    for (const VariantInfo& v : variants()) list += (list.empty() ? "" : ", ") + v.id;
    out.error = CreateError{"unknown_variant", "unknown variant '" + header.variant + "'; known: " + list, {}};
    return out;
  }
  Record r = header;
  r.actions.clear();
  if (auto e = normalise_options(*info, r.options)) {
    out.error = e;
    return out;
  }
  if (auto e = check_deal(*info, r)) {
    out.error = e;
    return out;
  }
  out.state = info->create(r);
  return out;
}

ReplayResult replay(const Record& record) {
  ReplayResult out;
  CreateResult c = create_state(record);
  if (c.error) {
    out.error = c.error;
    return out;
  }
  out.state = std::move(c.state);
  for (std::size_t i = 0; i < record.actions.size(); ++i) {
    const RecordedAction& ra = record.actions[i];
    const Seat seat = ra.seat == kNoSeat ? out.state->current_player() : ra.seat;
    const Refusal r = out.state->apply(seat, ra.action);
    if (r != Refusal::none) {
      out.failed_index = i;
      out.refusal = r;
      return out;
    }
  }
  return out;
}

}  // namespace atout
