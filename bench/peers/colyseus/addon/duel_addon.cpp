// atout_duel.node: Atout's engine and event writer as a Node-API addon, so that the Colyseus room
// of bench/peers/colyseus runs the very rules and writes the very event text of an Atout duel table.
// A match is an external value; every call is synchronous and cheap (one action, one view).
//
//   create(seed_hex, match_id, dealer) -> match        a duel match to 1001, dealt from the seed
//   current(match)                   -> seat or -1
//   act(match, seat, action_json)    -> ""             applied; else "bad_action", or
//                                                      "illegal_action:<refusal>" (not_your_turn ...)
//   event(match, seat, table_id, seq, kind, id)       the `event` text of atout-server for that seat
//   over(match)                      -> bool
#include <node_api.h>

#include <memory>
#include <optional>
#include <string>

#include "atout/fair_deal.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/protocol/server_messages.hpp"
#include "atout/state.hpp"

namespace {

using atout::protocol::json;

struct Match {
  std::unique_ptr<atout::State> state;
  std::string match_id;
  std::optional<atout::protocol::LastAction> last;
  std::optional<atout::HandResult> hand_ended;  // the hand the last action ended
  std::optional<atout::protocol::DealCommitment> deal;
  int deal_hand = -1;  // the hand `deal` commits to
};

void finalize_match(napi_env, void* data, void*) { delete static_cast<Match*>(data); }

napi_value throw_error(napi_env env, const std::string& message) {
  napi_throw_error(env, nullptr, message.c_str());
  return nullptr;
}

bool get_string(napi_env env, napi_value v, std::string& out) {
  std::size_t size = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &size) != napi_ok) return false;
  out.resize(size);
  return napi_get_value_string_utf8(env, v, out.data(), size + 1, &size) == napi_ok;
}

napi_value make_string(napi_env env, const std::string& s) {
  napi_value out = nullptr;
  napi_create_string_utf8(env, s.data(), s.size(), &out);
  return out;
}

Match* get_match(napi_env env, napi_value v) {
  void* data = nullptr;
  if (napi_get_value_external(env, v, &data) != napi_ok) return nullptr;
  return static_cast<Match*>(data);
}

template <std::size_t N>
bool args_of(napi_env env, napi_callback_info info, napi_value (&argv)[N]) {
  std::size_t argc = N;
  return napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) == napi_ok && argc == N;
}

// The commitment of the hand in progress, made once per hand as atout-server's table does.
void commit_deal(Match& m) {
  const atout::DealInfo d = m.state->deal();
  if (d.hand == m.deal_hand) return;
  m.deal_hand = d.hand;
  m.deal.reset();
  if (d.seed)
    m.deal = atout::protocol::DealCommitment{m.match_id, d.hand, atout::deal_commitment(*d.seed, m.match_id, d.hand)};
}

napi_value create(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  std::string seed_hex, match_id;
  int32_t dealer = -1;
  if (!args_of(env, info, argv) || !get_string(env, argv[0], seed_hex) || !get_string(env, argv[1], match_id) ||
      napi_get_value_int32(env, argv[2], &dealer) != napi_ok || dealer < 0 || dealer > 1)
    return throw_error(env, "create(seed_hex, match_id, first_dealer)");
  const std::optional<atout::Seed> seed = atout::Seed::parse(seed_hex);
  if (!seed) return throw_error(env, "create: the seed must be 32 hex digits");
  atout::Record header;
  header.variant = "duel";
  header.deal.seed = *seed;
  header.first_dealer = static_cast<atout::Seat>(dealer);
  if (auto error = atout::normalise_options(*atout::find_variant("duel"), header.options))
    return throw_error(env, error->message);
  atout::CreateResult made = atout::create_state(header);
  if (made.error) return throw_error(env, made.error->message);
  auto m = std::make_unique<Match>();
  m->state = std::move(made.state);
  m->match_id = std::move(match_id);
  commit_deal(*m);
  napi_value out = nullptr;
  if (napi_create_external(env, m.get(), finalize_match, nullptr, &out) != napi_ok)
    return throw_error(env, "create: no external");
  m.release();
  return out;
}

napi_value current(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  Match* m = args_of(env, info, argv) ? get_match(env, argv[0]) : nullptr;
  if (!m) return throw_error(env, "current(match)");
  napi_value out = nullptr;
  napi_create_int32(env, m->state->current_player() == atout::kNoSeat ? -1 : m->state->current_player(), &out);
  return out;
}

napi_value over(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  Match* m = args_of(env, info, argv) ? get_match(env, argv[0]) : nullptr;
  if (!m) return throw_error(env, "over(match)");
  napi_value out = nullptr;
  napi_get_boolean(env, m->state->is_terminal(), &out);
  return out;
}

// The checks of atout-server: the action's form (its request parser), then the engine's rules, the
// turn among them (a refusal names its reason, as atout-server's illegal_action error does).
napi_value act(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  int32_t seat = -1;
  std::string text;
  Match* m = args_of(env, info, argv) ? get_match(env, argv[0]) : nullptr;
  if (!m || napi_get_value_int32(env, argv[1], &seat) != napi_ok || !get_string(env, argv[2], text))
    return throw_error(env, "act(match, seat, action_json)");
  const json parsed = json::parse(text, nullptr, false);
  if (parsed.is_discarded()) return make_string(env, "bad_action");
  const atout::protocol::Parsed<atout::Action> action = atout::protocol::parse_action(parsed);
  if (!action) return make_string(env, "bad_action");
  const atout::Step step = m->state->step(static_cast<atout::Seat>(seat), *action.value);
  if (!step.applied()) return make_string(env, "illegal_action:" + atout::to_string(step.refusal));
  m->last = atout::protocol::LastAction{static_cast<atout::Seat>(seat), step.action, false, false, std::nullopt};
  m->hand_ended = step.hand_ended;
  commit_deal(*m);
  return make_string(env, "");
}

// The event atout-server sends `seat` after the last action (or at the start, kind "start").
napi_value event(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  int32_t seat = -1;
  int64_t seq = 0, id = -1;
  std::string table_id, kind;
  Match* m = args_of(env, info, argv) ? get_match(env, argv[0]) : nullptr;
  if (!m || napi_get_value_int32(env, argv[1], &seat) != napi_ok || !get_string(env, argv[2], table_id) ||
      napi_get_value_int64(env, argv[3], &seq) != napi_ok || !get_string(env, argv[4], kind) ||
      napi_get_value_int64(env, argv[5], &id) != napi_ok || seat < 0 || seat > 1)
    return throw_error(env, "event(match, seat, table_id, seq, kind, id)");
  const atout::State& st = *m->state;
  atout::protocol::Event e;
  e.table_id = std::move(table_id);
  e.seq = static_cast<std::uint64_t>(seq);
  e.kind = kind == "start" ? atout::protocol::EventKind::start : atout::protocol::EventKind::action;
  e.observation = st.observation(static_cast<atout::Seat>(seat));
  if (e.kind == atout::protocol::EventKind::action) {
    e.last = m->last;
    e.hand_result = m->hand_ended;
  }
  if (!st.is_terminal()) {
    e.deal = m->deal;
  } else {
    e.match_result = atout::protocol::MatchResult{st.winner().value_or(-1), st.match_score(), st.hand_results()};
  }
  if (id >= 0) e.id = id;
  return make_string(env, atout::protocol::serialize(e));
}

napi_value init(napi_env env, napi_value exports) {
  const napi_property_descriptor props[] = {
      {"create", nullptr, create, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"current", nullptr, current, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"over", nullptr, over, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"act", nullptr, act, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"event", nullptr, event, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
