// Reading the other seats' cards from how they bid (see bid_inference.hpp).
#include "atout/bots/bid_inference.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include "atout/rng.hpp"
#include "levels.hpp"

namespace atout::bots {

namespace {

bool is_bid(ActionType t) {
  return t == ActionType::pass || t == ActionType::take || t == ActionType::bid || t == ActionType::double_ ||
         t == ActionType::redouble;
}

// A fresh match of the view's variant and options whose first deal turns up the view's card, so
// that the auction replays with the same legal actions (they depend on nothing else: not on the
// scores, and not on the cards in the hands). The turned-up card's place in the pack depends on
// the variant's deal; the place found last is tried first.
std::unique_ptr<State> fresh_match(const Observation& view, const Options& options) {
  Record header;
  header.variant = view.variant;
  header.options = options;
  header.first_dealer = view.dealer;
  header.hand_limit = 1;
  std::vector<Card> deck;
  for (Card c : deck_of(view.variant)) deck.push_back(c);
  auto with_turn_up_at = [&](std::size_t place) -> std::unique_ptr<State> {
    std::vector<Card> order = deck;
    if (view.turn_up) {
      const auto it = std::find(order.begin(), order.end(), *view.turn_up);
      if (it == order.end()) return nullptr;
      std::iter_swap(it, order.begin() + static_cast<std::ptrdiff_t>(place));
    }
    header.deal.decks = {std::move(order)};
    CreateResult created = create_state(header);
    if (created.error || !created.state || created.state->phase() != Phase::bidding) return nullptr;
    if (view.turn_up && created.state->observation(view.seat).turn_up != view.turn_up) return nullptr;
    return std::move(created.state);
  };
  if (!view.turn_up) return with_turn_up_at(0);
  thread_local std::size_t last_place = 0;
  if (last_place < deck.size())
    if (auto s = with_turn_up_at(last_place)) return s;
  for (std::size_t place = 0; place < deck.size(); ++place)
    if (auto s = with_turn_up_at(place)) {
      last_place = place;
      return s;
    }
  return nullptr;
}

}  // namespace

BidInference::BidInference(const Observation& view, const Options& options) : options_(options) {
  if (view.phase != Phase::playing || view.bids.empty()) return;
  if (view.turn_up) turn_up_ = CardSet::of(*view.turn_up);
  std::unique_ptr<State> match = fresh_match(view, options);
  if (!match) return;
  for (const RecordedAction& b : view.bids) {
    if (b.seat != view.seat && is_bid(b.action.type)) {
      Observation then = match->observation(b.seat);
      // The legal action the engine records as the one said (a take names the trump it took, and
      // the cards it took): what the rules bot's choice is compared with.
      const auto said = std::find_if(then.legal.begin(), then.legal.end(), [&](const Action& a) {
        if (a == b.action) return true;
        if (a.type != b.action.type) return false;
        const std::unique_ptr<State> trial = match->clone();
        return trial->step(b.seat, a).action == b.action;
      });
      if (said == then.legal.end()) {
        bids_.clear();
        return;
      }
      const Action as_legal = *said;
      const int held = then.own.size();
      then.own = CardSet{};
      bids_.push_back({std::move(then), as_legal, held});
    }
    if (match->apply(b.seat, b.action) != Refusal::none) {
      bids_.clear();  // not the same auction: read nothing rather than something wrong
      return;
    }
  }
  for (const Trick& t : view.tricks)
    for (int i = 0; i < t.count; ++i)
      played_.emplace_back(seat_of(t, i, view.players), t.cards[static_cast<std::size_t>(i)]);
  for (int i = 0; i < view.trick.count; ++i)
    played_.emplace_back(seat_of(view.trick, i, view.players), view.trick.cards[static_cast<std::size_t>(i)]);
}

int BidInference::misses(const World& w) {
  if (bids_.empty()) return 0;
  // Each seat's cards after the deal: its cards now and every card it played.
  std::array<CardSet, 4> dealt = w.hands;
  for (const auto& [seat, card] : played_) dealt[static_cast<std::size_t>(seat)].insert(card);
  // Which of a seat's cards came after the auction: drawn once for this world, from its cards,
  // the same for every bid of the seat.
  Rng rng(Seed{(std::uint64_t{w.hands[0].bits()} << 32) | w.hands[1].bits(),
               (std::uint64_t{w.hands[2].bits()} << 32) | w.hands[3].bits()});
  std::array<std::optional<CardSet>, 4> at_auction;
  int missed = 0;
  for (Bid& b : bids_) {
    auto& hand = at_auction[static_cast<std::size_t>(b.then.seat)];
    if (!hand) {
      CardSet cards = dealt[static_cast<std::size_t>(b.then.seat)] - turn_up_;
      while (cards.size() > b.held)
        cards -= CardSet::of(cards.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(cards.size())))));
      hand = cards;
    }
    if (hand->size() != b.held) continue;  // fewer cards than it held: not a world to read
    // Many worlds give a bidder the same hand (all of them, where it spoke with its whole hand and
    // has played most of it): each bid is weighed once per hand.
    const std::uint64_t key = (std::uint64_t{static_cast<std::uint32_t>(&b - bids_.data())} << 32) | hand->bits();
    auto [known, fresh] = explained_.try_emplace(key, false);
    if (fresh) {
      b.then.own = *hand;
      known->second = decide_rules_bid(b.then, options_).action == b.said;
    }
    if (!known->second) ++missed;
  }
  return missed;
}

}  // namespace atout::bots
