// The table's bots: asking one for a seat's action on the bot workers, and applying its answer on
// the strand if the turn it was asked for is still the current one.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "atout/bots/bot.hpp"
#include "atout/fallback.hpp"
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

}  // namespace

void Table::ask_bot(Seat seat, protocol::BotLevel level, bool by_server) {
  if (bot_asked_ == seq_) return;
  bot_asked_ = seq_;
  const std::uint64_t seq = seq_;
  // The answer always comes back through the strand, never on this stack.
  auto answer = [self = shared_from_this(), seq, seat, level, by_server](std::optional<Action> chosen) {
    net::post(self->strand_, [self, seq, seat, level, by_server, chosen] {
      self->on_bot_decision(seq, seat, level, by_server, chosen);
    });
  };
  if (!bots_) return answer(std::nullopt);
  const auto budget = std::min(kBotBudget, std::chrono::milliseconds(std::max(1, settings_.turn_ms / 4)));
  auto job = [view = state_->observation(seat), options = state_->record().options, level, seed = random_seed().lo,
              budget, metrics = metrics_, answer] {
    std::optional<Action> chosen;
    try {
      const auto started = std::chrono::steady_clock::now();
      bots::Request r;
      r.level = level_of(level);
      r.view = &view;
      r.options = &options;
      r.seed = seed;
      r.budget.time = budget;
      chosen = bots::decide(r).action;
      if (metrics) metrics->bot_decided(level, std::chrono::steady_clock::now() - started);
    } catch (const std::exception& e) {
      spdlog::error("bot {}: no decision: {}", protocol::to_string(level), e.what());
    }
    answer(chosen);
  };
  if (!bots_->submit(std::move(job))) {
    // The pool counts and reports these (atout_bot_queue_full_total, one warning per interval).
    spdlog::debug("table {}: the bot workers are full; the server plays for seat {}", id_, seat);
    answer(std::nullopt);
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
