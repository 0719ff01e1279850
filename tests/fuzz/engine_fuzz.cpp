// Fuzz target: the engine driven by a sequence of actions, for every variant. The bytes choose
// the variant, its options, the match seed, the first dealer and a hand limit, then one action per
// step: mostly one of the legal actions, sometimes an arbitrary one for an arbitrary seat. Every
// action is applied or refused with a typed reason; a legal one is never refused, a refused one
// changes nothing. After every step the invariants of tests/support/invariants.hpp hold (cards
// conserved, no seat sees a card it may not), and replaying the applied actions from the start
// gives the same state.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"
#include "fuzz_check.hpp"
#include "invariants.hpp"

namespace {

using atout::fuzz::require;
namespace sim = atout::sim;
using namespace atout;

// The input as a stream of choices; past its end, every choice is 0.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | byte();
    return v;
  }
  // A number below `n` (n > 0), from one or two bytes.
  std::uint32_t below(std::size_t n) {
    std::uint32_t v = byte();
    if (n > 256) v = (v << 8) | byte();
    return static_cast<std::uint32_t>(v % n);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

Options fuzz_options(const VariantInfo& info, Bytes& in) {
  Options options;
  for (const OptionSpec& spec : info.options) {
    const std::uint8_t b = in.byte();
    if (b % 4 == 0) continue;  // the default
    switch (spec.type) {
      case OptionType::boolean:
        options[spec.name] = (b & 8) != 0;
        break;
      case OptionType::integer:
        if (b == 0xFF) {
          options[spec.name] = -1 - static_cast<int>(in.byte());  // out of range: must be refused
        } else if (!spec.allowed_integers.empty()) {
          options[spec.name] = spec.allowed_integers[in.below(spec.allowed_integers.size())];
        } else {
          options[spec.name] = spec.min + static_cast<int>(in.below(static_cast<std::size_t>(spec.max - spec.min) + 1));
        }
        break;
      case OptionType::choice:
        options[spec.name] = b == 0xFF ? std::string("no such choice") : spec.choices[in.below(spec.choices.size())];
        break;
    }
  }
  return options;
}

// Any action at all, in its wire form: a type, then the fields that type carries, from the bytes.
Action arbitrary_action(Bytes& in) {
  const auto type = static_cast<ActionType>(in.byte() % (static_cast<int>(ActionType::concede) + 1));
  auto trump = [&] {
    const int mode = in.byte() % 6;  // the four suits, No Trumps, All Trumps
    return mode < 4 ? Trump::of(static_cast<Suit>(mode)) : mode == 4 ? Trump::no_trumps() : Trump::all_trumps();
  };
  auto cards = [&] {
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = (bits << 8) | in.byte();
    return CardSet(bits);
  };
  switch (type) {
    case ActionType::take:
      return in.byte() & 1 ? Action::take(trump()) : Action::take();
    case ActionType::bid: {
      const int value = in.byte() * 10 % 520;
      const bool capot = (in.byte() & 1) != 0;
      return Action::bid(value, trump(), capot);
    }
    case ActionType::play:
      return Action::play(Card::from_index(in.byte() % 32));
    case ActionType::announce:
      return Action::announce(cards());
    case ActionType::show:
      return Action::show(cards());
    default:
      return Action{type};
  }
}

constexpr std::size_t kEveryStep = 32;

void check_replay(const State& s, const Record& applied) {
  ReplayResult replayed = replay(applied);
  require(replayed.state && replayed.refusal == Refusal::none, "the applied actions do not replay");
  require(sim::observations_json(*replayed.state) == sim::observations_json(s),
          "a replay of the applied actions differs from the state");
}

// One spelling the legal list does not show is accepted on purpose, and tested as such: a take
// that names the trump a listed plain take gives (the turned-up card's suit in French belote, the
// offered card's in simple belote). It is recorded as spelled; what follows must be what the
// plain take leads to: the same seat to act with the same legal actions.
bool names_the_trump_of_a_listed_take(const State& pre, Seat seat, const std::vector<Action>& legal,
                                      const Action& action, const State& after) {
  if (action.type != ActionType::take || !action.has_trump) return false;
  Action plain = action;
  plain.has_trump = false;
  plain.trump = Action::take().trump;
  if (std::find(legal.begin(), legal.end(), plain) == legal.end()) return false;
  std::unique_ptr<State> copy = pre.clone();
  if (copy->apply(seat, plain) != Refusal::none) return false;
  return copy->current_player() == after.current_player() && copy->legal_actions() == after.legal_actions();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  const auto& all = variants();
  const VariantInfo& info = all[in.below(all.size())];
  Record header;
  header.variant = info.id;
  header.options = fuzz_options(info, in);
  header.deal.seed = Seed{in.u64(), in.u64()};
  header.first_dealer = static_cast<Seat>(in.below(static_cast<std::size_t>(info.players)));
  if (const std::uint8_t h = in.byte(); h & 0x80) header.hand_limit = 1 + h % 3;

  CreateResult created = create_state(header);
  if (!created.state) {
    require(created.error.has_value() && !created.error->code.empty(), "a match refused without a reason");
    return 0;
  }
  State& s = *created.state;
  Record applied = s.record();  // the header as completed by the engine, and the actions applied so far
  require(applied.actions.empty(), "a new match with actions");
  sim::InvariantChecker checker(s, true);
  std::vector<Action> legal;

  for (;;) {
    const std::string failure = checker.step_checks();
    require(failure.empty(), failure);
    if (s.is_terminal() || in.empty()) break;
    s.legal_actions(legal);
    const std::uint8_t kind = in.byte();
    Seat seat = s.current_player();
    Action action;
    bool is_legal = true;
    if (kind < 0xE0) {
      action = legal[in.below(legal.size())];
    } else {
      action = arbitrary_action(in);
      if (kind >= 0xF8)
        seat = static_cast<Seat>(static_cast<int>(in.below(static_cast<std::size_t>(info.players) + 1)) - 1);
      is_legal = seat == s.current_player() && std::find(legal.begin(), legal.end(), action) != legal.end();
    }
    // Refused actions change nothing: only arbitrary ones can be refused, so only they pay for a
    // snapshot.
    const std::string before = is_legal ? std::string() : sim::observations_json(s);
    const std::unique_ptr<State> pre = is_legal ? nullptr : s.clone();
    const Refusal r = s.apply(seat, action);
    if (r != Refusal::none) {
      if (is_legal) require(false, "a legal action refused: " + to_string(action) + ": " + to_string(r));
      require(sim::observations_json(s) == before, "a refused action changed the state");
      continue;
    }
    if (!is_legal) {
      require(seat == pre->current_player(), "an action accepted from a seat not to act: " + to_string(action));
      require(names_the_trump_of_a_listed_take(*pre, seat, legal, action, s),
              "an action accepted that is not among the legal ones: " + to_string(action));
    }
    applied.actions.push_back(RecordedAction{seat, action});
    const RecordedAction& kept = s.record().actions.back();
    require(s.record().actions.size() == applied.actions.size() && kept.seat == seat,
            "the record is not the actions applied");

    // Replaying what was applied, from the start, gives this state: after every one of the first
    // kEveryStep actions, then every kEveryStep-th (a replay costs the whole log, and matches run
    // to hundreds of actions), and at the end.
    const std::size_t n = applied.actions.size();
    if (n <= kEveryStep || n % kEveryStep == 0 || s.is_terminal() || in.empty()) check_replay(s, applied);
  }
  require(protocol::to_json(s.record()) == protocol::to_json(applied), "the record is not the actions applied");
  return 0;
}
