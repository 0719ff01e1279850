// Fuzz target: a stored match, as the store hands it to start-up recovery, possibly damaged
// (truncated or reordered logs, repeated or missing seqs, wrong seats, garbage JSON, illegal
// actions). Input, one field per line:
//   variant / options JSON / match seed (an empty line: none) / first dealer /
//   seat numbers of the seat rows, separated by spaces / table JSON /
//   then one line per logged action: `<seq> <seat> <action JSON>`.
// Checked: rebuild_match (stored_match.hpp, what recovery runs) never crashes; it fails exactly
// when an independent check of the rows finds damage, with a typed fault that check also found;
// when it succeeds, its state equals the engine's own step-by-step replay of the rows, its log
// keeps every seq in order, and every seat of a match that goes on has its stored player.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "atout/protocol/engine_json.hpp"
#include "atout/server/seat_view.hpp"
#include "atout/server/stored_match.hpp"
#include "fuzz_check.hpp"

namespace {

using atout::fuzz::require;
using namespace atout;
using server::StoredMatchFault;

// The next line of `rest` (without its '\n'), or empty past the end.
std::string_view next_line(std::string_view& rest) {
  const auto newline = rest.find('\n');
  const std::string_view line = rest.substr(0, newline);
  rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
  return line;
}

// A decimal number at the start of `text` (0 when there is none), and `text` past it and one space.
template <typename Int>
Int number(std::string_view& text) {
  Int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{}) v = 0;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return v;
}

store::MatchRow decode(std::string_view input) {
  store::MatchRow m;
  m.start.uid = "m-fuzz";
  m.start.table_id = "t1";
  m.start.variant = std::string(next_line(input));
  m.start.options_json = std::string(next_line(input));
  if (const std::string_view seed = next_line(input); !seed.empty()) m.start.match_seed = std::string(seed);
  std::string_view dealer = next_line(input);
  m.start.first_dealer = number<int>(dealer);
  std::string_view seats = next_line(input);
  for (int team = 0; !seats.empty() && m.start.seats.size() < 8; ++team) {
    const std::size_t before = seats.size();
    const int seat = number<int>(seats);
    m.start.seats.push_back({seat, team % 2, "p" + std::to_string(team), "Player " + std::to_string(team)});
    if (seats.size() == before) break;  // not a number: stop
  }
  m.start.table_json = std::string(next_line(input));
  while (!input.empty() && m.actions.size() < 2000) {
    std::string_view line = next_line(input);
    store::ActionRow a;
    a.seq = number<std::int64_t>(line);
    a.seat = number<int>(line);
    a.action_json = std::string(line);
    m.actions.push_back(std::move(a));
  }
  return m;
}

// The rows checked without rebuild_match: every fault they have, and the engine's replay of them.
struct Oracle {
  std::set<StoredMatchFault> faults;
  std::unique_ptr<State> state;  // the replay, when the header makes a match and every action applies
};

Oracle check_rows(const store::MatchRow& m) {
  Oracle o;
  std::uint64_t previous = 1;
  for (const store::ActionRow& a : m.actions) {
    const bool next = a.seq >= 0 && static_cast<std::uint64_t>(a.seq) == previous + 1;
    const bool new_run = a.seq >= 0 && static_cast<std::uint64_t>(a.seq) > previous + 1 &&
                         static_cast<std::uint64_t>(a.seq) % server::SeatView::kSeqsPerRun == 1;
    if (!next && !new_run) {
      o.faults.insert(StoredMatchFault::seq_out_of_order);
      break;
    }
    previous = static_cast<std::uint64_t>(a.seq);
  }
  Record header;
  header.variant = m.start.variant;
  bool header_read = true;
  if (const auto options = protocol::parse_text(m.start.options_json); !options) {
    o.faults.insert(StoredMatchFault::bad_options);
    header_read = false;
  } else if (auto parsed = protocol::parse_options(*options.value); !parsed) {
    o.faults.insert(StoredMatchFault::bad_options);
    header_read = false;
  } else {
    header.options = std::move(*parsed.value);
  }
  if (m.start.match_seed) {
    header.deal.seed = Seed::parse(*m.start.match_seed);
    if (!header.deal.seed) {
      o.faults.insert(StoredMatchFault::bad_seed);
      header_read = false;
    }
  }
  header.first_dealer = static_cast<Seat>(m.start.first_dealer);
  std::vector<std::optional<Action>> actions;
  for (const store::ActionRow& a : m.actions) {
    const auto text = protocol::parse_text(a.action_json);
    auto action = text ? protocol::parse_action(*text.value) : protocol::Parsed<Action>{};
    if (!text || !action) o.faults.insert(StoredMatchFault::bad_action);
    actions.push_back(text && action ? std::optional<Action>(*action.value) : std::nullopt);
  }
  if (!header_read) return o;
  CreateResult created = create_state(header);
  if (!created.state) {
    o.faults.insert(StoredMatchFault::bad_header);
    return o;
  }
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (!actions[i]) return o;  // the replay stops at the first action that does not read
    if (!created.state->step(static_cast<Seat>(m.actions[i].seat), *actions[i]).applied()) {
      o.faults.insert(StoredMatchFault::refused_action);
      return o;
    }
  }
  const auto players = static_cast<std::size_t>(created.state->players());
  if (m.start.seats.size() != players) {
    o.faults.insert(StoredMatchFault::seat_count);
  } else if (!created.state->is_terminal()) {
    std::set<int> seen;
    for (const store::SeatRow& s : m.start.seats)
      if (s.seat < 0 || static_cast<std::size_t>(s.seat) >= players || !seen.insert(s.seat).second)
        o.faults.insert(StoredMatchFault::bad_seat);
  }
  o.state = std::move(created.state);
  return o;
}

// Two states of one match are the same position: record, hands, seat to act, scores and what each
// seat sees.
void require_same(const State& a, const State& b) {
  require(protocol::to_json(a.record()) == protocol::to_json(b.record()), "the rebuilt record differs");
  require(a.phase() == b.phase() && a.current_player() == b.current_player(), "the rebuilt turn differs");
  require(a.hands() == b.hands(), "the rebuilt hands differ");
  require(a.match_score() == b.match_score() && a.winner() == b.winner(), "the rebuilt score differs");
  require(a.hand_results().size() == b.hand_results().size(), "the rebuilt hand results differ");
  for (int seat = 0; seat < a.players(); ++seat)
    require(protocol::to_json(a.observation(static_cast<Seat>(seat))) ==
                protocol::to_json(b.observation(static_cast<Seat>(seat))),
            "a seat's rebuilt observation differs");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const store::MatchRow m = decode(std::string_view(reinterpret_cast<const char*>(data), size));
  const server::RebuiltMatch r = server::rebuild_match(m);
  require((r.state == nullptr) != !r.error.has_value(), "not exactly one of a state and an error");
  const Oracle o = check_rows(m);

  if (r.error) {
    require(to_string(r.error->fault) != "unknown", "a fault outside the enum");
    require(!r.error->message.empty(), "a fault without a message");
    require(o.faults.contains(r.error->fault), "a fault the rows do not have");
    return 0;
  }
  require(o.faults.empty(), "damaged rows rebuilt into a match");
  require(o.state != nullptr, "rows rebuilt that the engine does not replay");
  require_same(*r.state, *o.state);
  require(r.log.seqs.size() == m.actions.size() && r.log.by_server.size() == m.actions.size() &&
              r.log.by_bot.size() == m.actions.size(),
          "the rebuilt log misses actions");
  for (std::size_t i = 0; i < m.actions.size(); ++i)
    require(r.log.seqs[i] == static_cast<std::uint64_t>(m.actions[i].seq), "the rebuilt log changes a seq");
  require(r.last_seq == (m.actions.empty() ? 1 : static_cast<std::uint64_t>(m.actions.back().seq)),
          "the rebuilt log's last seq");
  if (!r.state->is_terminal()) {
    require(r.seats.size() == static_cast<std::size_t>(r.state->players()), "the rebuilt seats");
    for (std::size_t seat = 0; seat < r.seats.size(); ++seat)
      require(r.seats[seat] && r.seats[seat]->seat == static_cast<int>(seat), "a seat without its stored player");
  }
  return 0;
}
