// The per-step invariants of a match (see invariants.hpp).
#include "invariants.hpp"

#include <algorithm>

#include "atout/protocol/engine_json.hpp"

namespace atout::sim {

void collect_cards(const nlohmann::json& j, CardSet& out) {
  if (j.is_string()) {
    if (auto c = parse_card(j.get<std::string>())) out.insert(*c);
  } else if (j.is_array() || j.is_object()) {
    for (const auto& x : j) collect_cards(x, out);
  }
}

std::string observations_json(const State& s) {
  std::string out;
  for (Seat seat = kNoSeat; seat < s.players(); ++seat) out += protocol::to_json(s.observation(seat)).dump();
  return out + protocol::to_json(s.record()).dump();
}

namespace {

CardSet played_cards(const Observation& pub) {
  CardSet s = pub.trick.as_set();
  for (const Trick& t : pub.tricks) s |= t.as_set();
  return s;
}

}  // namespace

std::string InvariantChecker::step_checks() {
  const Observation pub = s_.observation(kNoSeat);
  std::vector<Action> legal;
  s_.legal_actions(legal);
  // Legal actions are non-empty exactly when the match is not over.
  if (legal.empty() != s_.is_terminal()) return "legal actions are empty but the match is not over, or the reverse";
  if ((s_.current_player() == kNoSeat) != s_.is_terminal())
    return "no seat is to act but the match is not over, or the reverse";
  if (s_.is_terminal()) return {};

  track_deal(pub);
  const std::vector<CardSet> hands = s_.hands();
  // Cards are conserved: hands and played cards are disjoint, and during play they make up
  // exactly the cards that were in the hands when play began.
  CardSet all;
  int count = 0;
  for (const CardSet& h : hands) {
    if (!(all & h).empty()) return "two hands hold " + to_string(all & h);
    all |= h;
    count += h.size();
  }
  const CardSet played = played_cards(pub);
  if (!(all & played).empty()) return "a hand still holds the played " + to_string(all & played);
  all |= played;
  count += played.size();
  if (all.size() != count) return "cards are counted twice";
  if (pub.phase == Phase::playing) {
    if (all != deal().dealt)
      return "cards in play " + to_string(all) + " are not the cards dealt " + to_string(deal().dealt);
    if (pub.turn_up && !all.contains(*pub.turn_up)) return "the turned-up card is nowhere";
  }

  // Hidden information: each seat's and a spectator's observation.
  for (Seat seat = kNoSeat; seat < s_.players(); ++seat) {
    if (std::string failure = check_observation(seat, hands, played); !failure.empty()) return failure;
  }
  return {};
}

std::string InvariantChecker::check_observation(Seat seat, const std::vector<CardSet>& hands, CardSet played) {
  const std::string who = "seat " + std::to_string(seat);
  const Observation o = s_.observation(seat);
  CardSet allowed = played;
  if (seat != kNoSeat) allowed |= hands[static_cast<std::size_t>(seat)];
  if (turn_up_) allowed.insert(*turn_up_);
  for (const DeclarationView& d : o.declarations) {
    if (!d.shown) {
      if (!d.cards.empty()) return who + " sees the cards of a combination not shown";
      continue;
    }
    // Shown combinations come from the seat's hand at the start of play, and are shown only
    // once the first trick is over.
    if (o.tricks.empty()) return who + " sees a combination shown before the first trick is over";
    if (!(d.cards - deal().start_hands[static_cast<std::size_t>(d.seat)]).empty())
      return who + " sees a combination its owner did not hold";
    auto& by = deal().shown_by;
    if (std::find(by.begin(), by.end(), d.seat) == by.end()) by.push_back(d.seat);
    allowed |= d.cards;
  }
  if (o.own != (seat == kNoSeat ? CardSet() : hands[static_cast<std::size_t>(seat)]))
    return who + "'s own cards are not its hand";
  CardSet mentioned = o.own | o.trick.as_set();
  if (o.turn_up) mentioned.insert(*o.turn_up);
  for (const Trick& t : o.tricks) mentioned |= t.as_set();
  for (const DeclarationView& d : o.declarations) mentioned |= d.cards;
  for (const Action& a : o.legal) {
    if (a.type == ActionType::play) mentioned.insert(a.card);
    mentioned |= a.cards;
  }
  if (!(mentioned - allowed).empty()) return who + " sees " + to_string(mentioned - allowed);
  if (!(o.visible - allowed).empty()) return who + " is shown as visible " + to_string(o.visible - allowed);
  // Only the seat to act gets legal actions.
  if (!o.legal.empty() != (seat != kNoSeat && seat == s_.current_player()))
    return who + " gets legal actions out of turn, or none in turn";
  if (scan_json_) {
    CardSet in_json;
    collect_cards(protocol::to_json(o), in_json);
    if (!(in_json - allowed).empty()) return who + " JSON shows " + to_string(in_json - allowed);
  }
  return {};
}

// Remembers per-deal facts the observations must respect.
void InvariantChecker::track_deal(const Observation& pub) {
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

}  // namespace atout::sim
