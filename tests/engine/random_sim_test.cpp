// Seeded random games with every invariant checked at every step (after OpenSpiel's
// RandomSimTest): cards conserved, 162 per hand, legal actions non-empty exactly until the end,
// replay and clone reproduce the state, and no observation shows a card its seat may not see.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "atout/protocol/json.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"
#include "variants/taking.hpp"

namespace atout {
namespace {

struct SimCase {
  std::string variant;
  int shard;
  int games;
  int hand_total;  // card points plus last trick in every played hand
  std::string options_json;
};

void PrintTo(const SimCase& c, std::ostream* os) { *os << c.variant << "/" << c.shard; }

// Every card string anywhere in a JSON value.
void collect_cards(const nlohmann::json& j, CardSet& out) {
  if (j.is_string()) {
    if (auto c = parse_card(j.get<std::string>())) out.insert(*c);
  } else if (j.is_array() || j.is_object()) {
    for (const auto& x : j) collect_cards(x, out);
  }
}

CardSet played_cards(const Observation& pub) {
  CardSet s = pub.trick.as_set();
  for (const Trick& t : pub.tricks) s |= t.as_set();
  return s;
}

class Checker {
 public:
  Checker(const SimCase& c, State& s, bool scan_json) : case_(c), s_(s), scan_json_(scan_json) {}

  void step_checks() {
    const Observation pub = s_.observation(kNoSeat);
    std::vector<Action> legal;
    s_.legal_actions(legal);
    // Legal actions are non-empty exactly when the match is not over.
    ASSERT_EQ(legal.empty(), s_.is_terminal());
    ASSERT_EQ(s_.current_player() == kNoSeat, s_.is_terminal());
    if (s_.is_terminal()) return;

    track_deal(pub);
    const std::vector<CardSet> hands = s_.hands();
    // Cards are conserved: hands and played cards are disjoint, and in the play phase of a
    // four-player deal they make up the whole deck.
    CardSet all;
    int count = 0;
    for (const CardSet& h : hands) {
      ASSERT_TRUE((all & h).empty());
      all |= h;
      count += h.size();
    }
    const CardSet played = played_cards(pub);
    ASSERT_TRUE((all & played).empty());
    all |= played;
    count += played.size();
    ASSERT_EQ(all.size(), count);
    if (pub.phase == Phase::playing) {
      ASSERT_EQ(count, static_cast<int>(play_start_total_));
      if (pub.turn_up) {
        ASSERT_TRUE(all.contains(*pub.turn_up));
      }
    }

    // Hidden information: each seat's and a spectator's observation.
    for (Seat seat = kNoSeat; seat < s_.players(); ++seat) check_observation(seat, hands, played);
  }

  void check_observation(Seat seat, const std::vector<CardSet>& hands, CardSet played) {
    const Observation o = s_.observation(seat);
    CardSet allowed = played;
    if (seat != kNoSeat) allowed |= hands[static_cast<std::size_t>(seat)];
    if (turn_up_) allowed.insert(*turn_up_);
    for (const DeclarationView& d : o.declarations) {
      if (!d.shown) {
        ASSERT_TRUE(d.cards.empty());
        continue;
      }
      // Shown combinations come from the seat's hand at the start of play, only after the
      // first trick, and only for the side whose combinations count.
      ASSERT_FALSE(o.tricks.empty());
      ASSERT_TRUE((d.cards - play_start_hands_[static_cast<std::size_t>(d.seat)]).empty());
      ASSERT_TRUE(decl_team_.has_value());
      ASSERT_EQ(d.seat % 2, *decl_team_);
      allowed |= d.cards;
    }
    ASSERT_EQ(o.own, seat == kNoSeat ? CardSet() : hands[static_cast<std::size_t>(seat)]);
    CardSet mentioned = o.own | o.trick.as_set();
    if (o.turn_up) mentioned.insert(*o.turn_up);
    for (const Trick& t : o.tricks) mentioned |= t.as_set();
    for (const DeclarationView& d : o.declarations) mentioned |= d.cards;
    for (const Action& a : o.legal) {
      if (a.type == ActionType::play) mentioned.insert(a.card);
      mentioned |= a.cards;
    }
    ASSERT_TRUE((mentioned - allowed).empty()) << "seat " << int(seat) << " sees " << to_string(mentioned - allowed);
    ASSERT_TRUE((o.visible - allowed).empty());
    // Only the seat to act gets legal actions.
    ASSERT_EQ(!o.legal.empty(), seat != kNoSeat && seat == s_.current_player());
    if (scan_json_) {
      CardSet in_json;
      collect_cards(protocol::to_json(o), in_json);
      ASSERT_TRUE((in_json - allowed).empty())
          << "seat " << int(seat) << " JSON shows " << to_string(in_json - allowed);
    }
  }

  // Remembers per-deal facts the observation must respect.
  void track_deal(const Observation& pub) {
    if (pub.hand != deal_ || pub.phase != last_phase_) {
      if (pub.hand != deal_) {
        turn_up_.reset();
        decl_team_.reset();
      }
      deal_ = pub.hand;
      last_phase_ = pub.phase;
      if (pub.turn_up) turn_up_ = pub.turn_up;
      if (pub.phase == Phase::playing) {
        const auto hands = s_.hands();
        play_start_total_ = 0;
        CardSet dealt;
        for (std::size_t i = 0; i < hands.size(); ++i) {
          play_start_hands_[i] = hands[i];
          play_start_total_ += static_cast<std::size_t>(hands[i].size());
          dealt |= hands[i];
        }
        hand_totals_.resize(static_cast<std::size_t>(pub.hand) + 1, -1);
        hand_totals_[static_cast<std::size_t>(pub.hand)] = french_points().sum(pub.contract->trump, dealt) + 10;
        if (s_.players() == 4) {
          EXPECT_EQ(hand_totals_[static_cast<std::size_t>(pub.hand)], case_.hand_total);
        }
        // Independent reckoning of whose combinations count (seed 000 lines 69-71).
        if (case_.variant == "french" || case_.variant == "duel") {
          const bool on =
              !s_.record().options.count("declarations") || std::get<bool>(s_.record().options.at("declarations"));
          const DeclarationRules rules = french_declarations(on);
          std::vector<std::vector<Combo>> by_seat;
          std::vector<Seat> order;
          for (int k = 0; k < s_.players(); ++k) {
            by_seat.push_back(best_combos(hands[static_cast<std::size_t>(k)], pub.contract->trump, rules));
            order.push_back(static_cast<Seat>((pub.current + k) % s_.players()));
          }
          decl_team_ = declaration_winner(by_seat, order, pub.contract->trump, rules);
        }
      }
    }
  }

 public:
  std::vector<int> hand_totals_;  // by deal: card points dealt plus the last trick

 private:
  const SimCase& case_;
  State& s_;
  bool scan_json_;
  int deal_ = -1;
  Phase last_phase_ = Phase::match_over;
  std::optional<Card> turn_up_;
  std::optional<int> decl_team_;
  std::array<CardSet, 4> play_start_hands_{};
  std::size_t play_start_total_ = 0;
};

// The scoring oracle for the taking variants, written from RULES-NOTES.md rather than from the
// engine's code: made / failed / litige, capot, belote kept, held points, cumulative scores.
void check_taking_results(const State& s, const std::vector<int>& hand_totals) {
  const Options& o = s.record().options;
  const int capot_value = std::get<int>(o.at("capot"));
  const bool tie_loses = std::get<std::string>(o.at("tie")) == "tie_loses";
  std::array<int, 2> running{};
  int held = 0;
  for (const HandResult& r : s.hand_results()) {
    ASSERT_EQ(r.held_before, held);
    if (r.outcome == Outcome::all_passed) {
      ASSERT_EQ(r.match_score, running);
      continue;
    }
    const TeamTally& a = r.teams[0];
    const TeamTally& b = r.teams[1];
    // 162 in four-player hands; in head-to-head, the points of the 18 cards dealt, plus 10.
    const int in_play = a.card_points + b.card_points + a.last_trick + b.last_trick;
    ASSERT_EQ(in_play, hand_totals.at(static_cast<std::size_t>(r.hand)));
    ASSERT_TRUE(a.declarations == 0 || b.declarations == 0);  // only one side's count
    ASSERT_EQ(r.capot, a.tricks == 0 || b.tricks == 0);
    for (const TeamTally& t : r.teams) {
      ASSERT_EQ(t.raw, t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote);
    }
    if (r.capot) {
      const TeamTally& c = r.teams[static_cast<std::size_t>(r.capot_team)];
      ASSERT_EQ(c.card_points + c.last_trick + c.capot_bonus, capot_value);
    }
    const int taker = r.contract->taker % 2;
    const TeamTally& t = r.teams[static_cast<std::size_t>(taker)];
    const TeamTally& d = r.teams[static_cast<std::size_t>(1 - taker)];
    int t_score = 0, d_score = 0, winner = -1;
    if (t.raw > d.raw) {
      ASSERT_EQ(r.outcome, Outcome::made);
      t_score = t.raw;
      d_score = d.raw;
      winner = taker;
    } else if (t.raw < d.raw || tie_loses) {
      ASSERT_EQ(r.outcome, Outcome::failed);
      const int cards = (r.capot && r.capot_team != taker) ? capot_value : in_play;
      d_score = cards + t.declarations + d.declarations + d.belote;
      t_score = t.belote;
      winner = 1 - taker;
    } else {
      ASSERT_EQ(r.outcome, Outcome::tie_held);
      d_score = d.raw;
      t_score = t.belote;
      held += t.raw - t.belote;
    }
    if (winner == taker) t_score += held;
    if (winner == 1 - taker) d_score += held;
    if (winner >= 0) held = 0;
    ASSERT_EQ(t.score, t_score);
    ASSERT_EQ(d.score, d_score);
    running[static_cast<std::size_t>(taker)] += t_score;
    running[static_cast<std::size_t>(1 - taker)] += d_score;
    ASSERT_EQ(r.match_score, running);
    ASSERT_EQ(r.held_after, held);
  }
  const int target = std::get<int>(o.at("target"));
  ASSERT_TRUE(s.winner().has_value());
  const int w = *s.winner();
  ASSERT_GE(running[static_cast<std::size_t>(w)], target);
  ASSERT_GT(running[static_cast<std::size_t>(w)], running[static_cast<std::size_t>(1 - w)]);
  // The match ended at the first hand that produced a winner.
  for (std::size_t i = 0; i + 1 < s.hand_results().size(); ++i) {
    const auto& ms = s.hand_results()[i].match_score;
    ASSERT_FALSE((ms[0] >= target || ms[1] >= target) && ms[0] != ms[1]) << "match should have ended at hand " << i;
  }
}

std::string observations_json(const State& s) {
  std::string out;
  for (Seat seat = kNoSeat; seat < s.players(); ++seat) out += protocol::to_json(s.observation(seat)).dump();
  return out + protocol::to_json(s.record()).dump();
}

class RandomSim : public ::testing::TestWithParam<SimCase> {};

TEST_P(RandomSim, InvariantsHoldAtEveryStep) {
  const SimCase& c = GetParam();
  Record header;
  header.variant = c.variant;
  if (!c.options_json.empty()) header.options = *protocol::parse_options(nlohmann::json::parse(c.options_json)).value;
  Rng policy(Seed{0xA70u, static_cast<std::uint64_t>(c.shard)});
  std::vector<Action> legal;
  for (int g = 0; g < c.games; ++g) {
    header.deal.seed = Seed{static_cast<std::uint64_t>(c.shard), static_cast<std::uint64_t>(g)};
    header.first_dealer = static_cast<Seat>(g % 2);
    CreateResult created = create_state(header);
    ASSERT_TRUE(created.state) << created.error->message;
    State& s = *created.state;
    Checker checker(c, s, g < 25);
    const std::size_t midpoint = policy.below(120);
    std::unique_ptr<State> twin;
    for (std::size_t step = 0;; ++step) {
      checker.step_checks();
      if (HasFatalFailure()) return;
      if (s.is_terminal()) break;
      s.legal_actions(legal);
      const Action a = legal[policy.below(static_cast<std::uint32_t>(legal.size()))];
      if (step == midpoint) {
        // A clone follows the same actions and must stay identical.
        twin = s.clone();
        // Replaying the record so far reproduces the state.
        ReplayResult rr = replay(s.record());
        ASSERT_EQ(rr.refusal, Refusal::none);
        ASSERT_EQ(observations_json(*rr.state), observations_json(s));
      }
      ASSERT_EQ(s.apply(a), Refusal::none) << to_string(a);
      if (twin) {
        ASSERT_EQ(twin->apply(a), Refusal::none);
      }
    }
    ReplayResult rr = replay(s.record());
    ASSERT_EQ(rr.refusal, Refusal::none);
    ASSERT_EQ(observations_json(*rr.state), observations_json(s));
    ASSERT_EQ(protocol::to_json(rr.state->hand_results().back()), protocol::to_json(s.hand_results().back()));
    if (twin) {
      ASSERT_EQ(observations_json(*twin), observations_json(s));
    }
    checker.hand_totals_.resize(s.hand_results().size(), -1);
    check_taking_results(s, checker.hand_totals_);
    if (HasFatalFailure()) return;
  }
}

std::vector<SimCase> sim_cases() {
  std::vector<SimCase> v;
  // 10 shards x 1,000 matches of each variant (each match is several hands).
  for (int shard = 0; shard < 10; ++shard) {
    v.push_back({"french", shard, 1000, 162,
                 shard % 2
                     ? R"({"declarations": false, "tie": "tie_loses", "capot": 252, "deal": "cut", "target": 701})"
                     : ""});
    v.push_back({"duel", shard, 1000, 162,
                 shard % 2 ? R"({"second_round": "any_suit", "declarations": false, "deal": "cut"})" : ""});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Variants, RandomSim, ::testing::ValuesIn(sim_cases()),
                         [](const auto& p) { return p.param.variant + "_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
