// The table's bots: asking one for a seat's action on the bot workers (or, when they have no room,
// a quick bot on the strand), and applying its answer on the strand if the turn it was asked for
// is still the current one.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>

#include "atout/bots/bot.hpp"
#include "atout/fallback.hpp"
#include "atout/server/metrics.hpp"
#include "atout/server/random.hpp"
#include "atout/server/table.hpp"

namespace atout::server {

using protocol::TableStatus;

namespace {

// The most a bot may think for one action, whatever the turn time.
constexpr std::chrono::milliseconds kBotBudget{300};

bots::Level level_of(protocol::BotLevel level) {
  switch (level) {
    case protocol::BotLevel::random:
      return bots::Level::random;
    case protocol::BotLevel::rules:
      return bots::Level::rules;
    case protocol::BotLevel::sampling:
      return bots::Level::sampling;
  }
  return bots::Level::rules;
}

// The level that stands in, on the strand, when the bot workers have no room: a level that
// decides in microseconds (the rules bot's p99 is a few tens of microseconds) stands for itself,
// and the sampling bot, whose cards are searched, gives way to the rules bot (whose bids it uses).
protocol::BotLevel quick_level(protocol::BotLevel level) {
  return level == protocol::BotLevel::random ? protocol::BotLevel::random : protocol::BotLevel::rules;
}

// What a bot decides from: the seat's own view and the match's options.
struct BotInput {
  Observation view;
  Options options;
};

// One decision by the bot at `level`, or nothing if it failed (the error is logged).
std::optional<Action> decide_now(const BotInput& input, protocol::BotLevel level, std::uint64_t seed,
                                 std::chrono::milliseconds budget, Metrics* metrics) {
  try {
    const auto started = std::chrono::steady_clock::now();
    bots::Request r;
    r.level = level_of(level);
    r.view = &input.view;
    r.options = &input.options;
    r.seed = seed;
    r.budget.time = budget;
    Action chosen = bots::decide(r).action;
    if (metrics) metrics->bot_decided(level, std::chrono::steady_clock::now() - started);
    return chosen;
  } catch (const std::exception& e) {
    spdlog::error("bot {}: no decision: {}", protocol::to_string(level), e.what());
    return std::nullopt;
  }
}

}  // namespace

void Table::ask_bot(Seat seat, protocol::BotLevel level, bool by_server) {
  if (bot_asked_ == seq_) return;
  bot_asked_ = seq_;
  const std::uint64_t seq = seq_;
  // The answer always comes back through the strand, never on this stack. `chosen_by` is the
  // level that chose it: the seat's, or the quick stand-in's when the workers had no room.
  auto answer = [self = shared_from_this(), seq, seat, by_server](std::optional<Action> chosen,
                                                                  protocol::BotLevel chosen_by) {
    net::post(self->strand_, [self, seq, seat, chosen_by, by_server, chosen] {
      self->on_bot_decision(seq, seat, chosen_by, by_server, chosen);
    });
  };
  if (!bots_) return answer(std::nullopt, level);
  // The seat's view and the options, copied once: the job reads them on a worker, or the quick
  // bot here if the workers refuse the job.
  const auto input = std::make_shared<const BotInput>(BotInput{state_->observation(seat), state_->record().options});
  const std::uint64_t seed = random_seed().lo;
  const auto budget = std::min(kBotBudget, std::chrono::milliseconds(std::max(1, settings_.turn_ms / 4)));
  auto job = [input, level, seed, budget, metrics = metrics_, answer] {
    answer(decide_now(*input, level, seed, budget, metrics.get()), level);
  };
  if (!bots_->submit(std::move(job))) {
    // The pool counts and reports these (atout_bot_queue_full_total, one warning per interval).
    // The rules and random bots decide in microseconds, so one of them chooses here, on the
    // strand, rather than the cautious fallback: a sampling seat plays as the rules bot would.
    const protocol::BotLevel quick = quick_level(level);
    spdlog::debug("table {}: the bot workers are full; the {} bot chooses for seat {}", id_, protocol::to_string(quick),
                  seat);
    answer(decide_now(*input, quick, random_seed().lo, kBotBudget, metrics_.get()), quick);
  }
}

void Table::on_bot_decision(std::uint64_t seq, Seat seat, protocol::BotLevel level, bool by_server,
                            std::optional<Action> chosen) {
  if (bot_asked_ == seq) bot_asked_.reset();
  // Someone acted, the match paused or ended, or the seat changed hands since the bot was asked.
  if (!running() || seq != seq_ || state_->current_player() != seat || status() != TableStatus::playing) {
    // The current turn, if it is a bot's, was asked for when it began (or is when play resumes).
    return;
  }
  if (!by_server && !seating_.at(seat).bot) return;
  if (!leased()) return wait_for_lease();
  const Observation view = state_->observation(seat);
  if (view.legal.empty()) {
    spdlog::error("table {}: seat {} is to act but has no legal action", id_, seat);
    return;
  }
  // Without the bot's answer the server plays its fallback, and says so (by_server).
  std::optional<protocol::BotLevel> by_bot = level;
  Action action = chosen.value_or(fallback_action(view));
  if (!chosen) {
    by_bot.reset();
    by_server = true;
  }
  Step step = state_->step(seat, action);
  if (!step.applied() && chosen) {
    spdlog::error("table {}: the engine refused bot {}'s '{}' for seat {}: {}", id_, protocol::to_string(level),
                  to_string(action), seat, to_string(step.refusal));
    action = fallback_action(view);
    by_bot.reset();
    by_server = true;
    step = state_->step(seat, action);
  }
  if (!step.applied()) {
    spdlog::error("table {}: the engine refused the fallback '{}' for seat {}: {}", id_, to_string(action), seat,
                  to_string(step.refusal));
    return;
  }
  after_action(seat, action, step, by_server, by_bot);
}

}  // namespace atout::server
