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

// A fresh match of the view's variant, options and dealer whose first deal turns up the view's
// card (or none, where the view shows none), so that the auction replays with the same legal
// actions: they depend on nothing else, not on the scores and not on the cards in the hands. The
// turned-up card's place in the pack is the variant's: a match dealt from the pack as it is shows
// which card lies there, and the view's card is swapped into that place.
std::unique_ptr<State> fresh_match(const Observation& view, const Options& options) {
  Record header;
  header.variant = view.variant;
  header.options = options;
  header.first_dealer = view.dealer;
  header.hand_limit = 1;
  std::vector<Card> deck;
  for (Card c : deck_of(view.variant)) deck.push_back(c);
  auto deal = [&](std::vector<Card> order) -> std::unique_ptr<State> {
    header.deal.decks = {std::move(order)};
    CreateResult created = create_state(header);
    if (created.error || !created.state || created.state->phase() != Phase::bidding) return nullptr;
    return std::move(created.state);
  };
  std::unique_ptr<State> match = deal(deck);
  if (!match) return nullptr;
  const std::optional<Card> shown = match->observation(view.seat).turn_up;
  if (shown == view.turn_up) return match;
  // No turned-up card in the view while the deal turns one up (in Simple, a trump chosen without
  // the offered card sets it aside): the auction's card is not known, so nothing is replayed.
  if (!shown || !view.turn_up) return nullptr;
  const auto from = std::find(deck.begin(), deck.end(), *view.turn_up);
  const auto to = std::find(deck.begin(), deck.end(), *shown);
  if (from == deck.end() || to == deck.end()) return nullptr;
  std::iter_swap(from, to);
  match = deal(deck);
  if (!match || match->observation(view.seat).turn_up != view.turn_up) return nullptr;
  return match;
}

}  // namespace

bool BidInference::reads(ActionType t) {
  return t == ActionType::pass || t == ActionType::take || t == ActionType::bid || t == ActionType::double_ ||
         t == ActionType::redouble;
}

BidInference::BidInference(const Observation& view, const Options& options) : options_(options) {
  if (view.phase != Phase::playing || view.bids.empty()) return;
  if (view.turn_up) turn_up_ = CardSet::of(*view.turn_up);
  std::unique_ptr<State> match = fresh_match(view, options);
  if (!match) return;
  for (const RecordedAction& b : view.bids) {
    if (b.seat != view.seat && reads(b.action.type)) {
      Observation then = match->observation(b.seat);
      // The legal action the engine records as the one said (a take names the trump it took, and
      // the cards it took): what the rules bot's choice is compared with.
      auto said = std::find(then.legal.begin(), then.legal.end(), b.action);
      if (said == then.legal.end() && b.action.type == ActionType::take)
        said = std::find_if(then.legal.begin(), then.legal.end(), [&](const Action& a) {
          if (a.type != ActionType::take) return false;
          const std::unique_ptr<State> trial = match->clone();
          return trial->step(b.seat, a).action == b.action;
        });
      if (said == then.legal.end()) {
        bids_.clear();
        return;
      }
      const Action as_legal = *said;
      const int held = then.own.size();
      then.own = CardSet{};  // set per world; the fresh match's cards are not the deal's
      then.visible = CardSet{};
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
