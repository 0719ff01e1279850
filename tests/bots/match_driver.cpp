// Random matches for the bots' simulation tests.
#include "match_driver.hpp"

#include <gtest/gtest.h>

namespace atout::bots::testing {

void PrintTo(const MatchCase& c, std::ostream* os) { *os << c.variant << "/" << c.shard; }
std::string case_name(const ::testing::TestParamInfo<MatchCase>& p) {
  return p.param.variant + "_" + std::to_string(p.param.shard);
}

std::vector<std::string> variant_ids() {
  std::vector<std::string> out;
  for (const VariantInfo& v : variants()) out.push_back(v.id);
  return out;
}

Seed seed_of(const std::string& purpose, const MatchCase& c) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : purpose + "/" + c.variant) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return Seed{h, static_cast<std::uint64_t>(c.shard)};
}

Options overrides_for(const std::string& variant, int shard) {
  const bool manual = variant == "french" || variant == "duel" || variant == "coinche" || variant == "belot";
  Options o;
  if (shard % 2 == 1 && manual) o["declare"] = std::string("manual");
  if (shard % 4 == 3) {
    if (variant == "french" || variant == "coinche") o["undertrump"] = std::string("free");
    if (variant == "coinche") o["all_trumps_must_beat"] = false;
    if (variant == "bazar") o["undertrump"] = std::string("forced");
  }
  return o;
}

RandomMatch::RandomMatch(const MatchCase& c, const std::string& purpose) {
  header_.variant = c.variant;
  header_.options = c.overrides;
  header_.deal.seed = seed_of(purpose, c);
  auto created = create_state(header_);
  if (created.error) throw std::runtime_error(created.error->message);
  state_ = std::move(created.state);
}

bool RandomMatch::renew() {
  if (!state_->is_terminal()) return false;
  header_.deal.seed = Seed{header_.deal.seed->hi + 1, header_.deal.seed->lo};
  state_ = create_state(header_).state;
  ++matches_;
  return true;
}

void RandomMatch::step(Rng& rng) {
  renew();
  const std::vector<Action> legal = state_->legal_actions();
  std::vector<Action> plays, declares;
  for (const Action& a : legal) {
    if (a.type == ActionType::play) plays.push_back(a);
    if (a.type == ActionType::announce || a.type == ActionType::show) declares.push_back(a);
  }
  const std::vector<Action>* pool = &legal;
  if (!declares.empty() && rng.below(3) != 0) {
    pool = &declares;
  } else if (!plays.empty() && rng.below(50) != 0) {
    pool = &plays;
  }
  const Action a = (*pool)[rng.below(static_cast<std::uint32_t>(pool->size()))];
  if (state_->apply(a) != Refusal::none) throw std::logic_error("a legal action was refused: " + to_string(a));
}

std::string RandomMatch::describe(Seat seat) const {
  const Observation v = state_->observation(seat);
  std::string s = "variant " + header_.variant + ", seat " + std::to_string(seat) + ", phase " + to_string(v.phase);
  if (v.contract) s += ", contract " + to_string(v.contract->trump) + " by " + std::to_string(v.contract->taker);
  if (v.turn_up) s += ", turn-up " + to_string(*v.turn_up);
  const std::vector<CardSet> hands = state_->hands();
  for (std::size_t h = 0; h < hands.size(); ++h) s += "\n  seat " + std::to_string(h) + ": " + to_string(hands[h]);
  s += "\n  tricks:";
  for (const Trick& t : v.tricks) {
    s.append(" [").append(std::to_string(t.leader)).append(":");
    for (int i = 0; i < t.count; ++i) s.append(" ").append(to_string(t.cards[static_cast<std::size_t>(i)]));
    s += "]";
  }
  s += " current [";
  for (int i = 0; i < v.trick.count; ++i) s.append(" ").append(to_string(v.trick.cards[static_cast<std::size_t>(i)]));
  s += "] belote:";
  for (Seat b : v.belote) s.append(" ").append(std::to_string(b));
  for (const DeclarationView& d : v.declarations)
    s += "\n  declared by " + std::to_string(d.seat) + ": " + to_string(d.kind) + " to " + rank_letter(d.top) +
         (d.shown ? " shown " + to_string(d.cards) : "");
  return s;
}

void play_bot_matches(const std::string& variant, Level level, int matches, const std::string& purpose,
                      const MatchLook& look) {
  std::uint64_t decision = 0;
  for (int m = 0; m < matches; ++m) {
    const MatchCase c{variant, m % 4, matches, overrides_for(variant, m % 4)};
    Record header;
    header.variant = variant;
    header.options = c.overrides;
    header.deal.seed = seed_of(purpose + "/" + to_string(level) + "/" + std::to_string(m), c);
    auto created = create_state(header);
    EXPECT_FALSE(created.error);
    if (created.error) return;
    std::unique_ptr<State> state = std::move(created.state);
    const Options& options = state->record().options;
    for (int steps = 0; !state->is_terminal() && steps < 20000; ++steps) {
      const Seat seat = state->current_player();
      const Observation view = state->observation(seat);
      look(*state, view, options);
      Request request;
      request.level = level;
      request.view = &view;
      request.options = &options;
      request.seed = ++decision;
      const Decision d = decide(request);
      if (state->apply(seat, d.action) != Refusal::none) {
        ADD_FAILURE() << to_string(d.action) << " was refused";
        break;
      }
    }
  }
}

}  // namespace atout::bots::testing
