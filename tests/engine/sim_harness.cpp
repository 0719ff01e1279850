// The seeded random-game harness (see sim_harness.hpp).
#include "sim_harness.hpp"

#include <algorithm>
#include <memory>

namespace atout::sim {

void collect_cards(const nlohmann::json& j, CardSet& out) {
  if (j.is_string()) {
    if (auto c = parse_card(j.get<std::string>())) out.insert(*c);
  } else if (j.is_array() || j.is_object()) {
    for (const auto& x : j) collect_cards(x, out);
  }
}

namespace {

CardSet played_cards(const Observation& pub) {
  CardSet s = pub.trick.as_set();
  for (const Trick& t : pub.tricks) s |= t.as_set();
  return s;
}

class Checker {
 public:
  Checker(State& s, bool scan_json) : s_(s), scan_json_(scan_json) {}

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
    // Cards are conserved: hands and played cards are disjoint, and during play they make up
    // exactly the cards that were in the hands when play began.
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
      ASSERT_EQ(all, deal().dealt);
      if (pub.turn_up) {
        ASSERT_TRUE(all.contains(*pub.turn_up));
      }
    }

    // Hidden information: each seat's and a spectator's observation.
    for (Seat seat = kNoSeat; seat < s_.players(); ++seat) check_observation(seat, hands, played);
  }

  std::vector<DealFacts> deals_;

 private:
  DealFacts& deal() { return deals_[static_cast<std::size_t>(deal_)]; }

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
      // Shown combinations come from the seat's hand at the start of play, and are shown only
      // once the first trick is over.
      ASSERT_FALSE(o.tricks.empty());
      ASSERT_TRUE((d.cards - deal().start_hands[static_cast<std::size_t>(d.seat)]).empty());
      auto& by = deal().shown_by;
      if (std::find(by.begin(), by.end(), d.seat) == by.end()) by.push_back(d.seat);
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

  // Remembers per-deal facts the observations must respect.
  void track_deal(const Observation& pub) {
    if (pub.hand == deal_ && pub.phase == last_phase_) return;
    if (pub.hand != deal_) turn_up_.reset();
    deal_ = pub.hand;
    last_phase_ = pub.phase;
    if (deals_.size() <= static_cast<std::size_t>(deal_)) deals_.resize(static_cast<std::size_t>(deal_) + 1);
    if (pub.turn_up) turn_up_ = pub.turn_up;
    if (pub.phase != Phase::playing) return;
    DealFacts& d = deal();
    d.hand = deal_;
    d.contract = *pub.contract;
    d.leader = pub.current;
    const auto hands = s_.hands();
    for (std::size_t i = 0; i < hands.size(); ++i) {
      d.start_hands[i] = hands[i];
      d.dealt |= hands[i];
    }
  }

  State& s_;
  bool scan_json_;
  int deal_ = -1;
  Phase last_phase_ = Phase::match_over;
  std::optional<Card> turn_up_;
};

std::string observations_json(const State& s) {
  std::string out;
  for (Seat seat = kNoSeat; seat < s.players(); ++seat) out += protocol::to_json(s.observation(seat)).dump();
  return out + protocol::to_json(s.record()).dump();
}

}  // namespace

void run_random_sim(const SimCase& c, const Oracle& oracle) { run_random_sim(c, oracle, Policy()); }

void run_random_sim(const SimCase& c, const Oracle& oracle, const Policy& choose) {
  Record header;
  header.variant = c.variant;
  if (!c.options_json.empty()) {
    auto parsed = protocol::parse_options(nlohmann::json::parse(c.options_json));
    ASSERT_TRUE(parsed.value) << parsed.error;
    header.options = *parsed.value;
  }
  Rng policy(Seed{0xA70u, static_cast<std::uint64_t>(c.shard)});
  std::vector<Action> legal;
  for (int g = 0; g < c.games; ++g) {
    header.deal.seed = Seed{static_cast<std::uint64_t>(c.shard), static_cast<std::uint64_t>(g)};
    header.first_dealer = static_cast<Seat>(g % 2);
    CreateResult created = create_state(header);
    ASSERT_TRUE(created.state) << created.error->message;
    State& s = *created.state;
    Checker checker(s, g < 25);
    const std::size_t midpoint = policy.below(120);
    std::unique_ptr<State> twin;
    for (std::size_t step = 0;; ++step) {
      checker.step_checks();
      if (::testing::Test::HasFatalFailure()) return;
      if (s.is_terminal()) break;
      s.legal_actions(legal);
      // A Policy argument wins over the case's Chooser; neither: uniform.
      const std::size_t pick = choose    ? choose(s, legal, policy)
                               : c.choose ? c.choose(legal, policy)
                                          : policy.below(static_cast<std::uint32_t>(legal.size()));
      const Action a = legal[pick];
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
    checker.deals_.resize(s.hand_results().size());
    oracle(s, checker.deals_);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace atout::sim
