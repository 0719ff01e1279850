// The SQLite store's reads: players, ratings, a player's history, a whole match (its actions
// merged from the action log and match_actions) and the matches left unfinished. They run on the
// reader connection, one at a time, beside the writer.
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "atout/store/sqlite_store.hpp"

namespace atout::store {

namespace {

std::optional<int> opt_int(const Statement& st, int col) {
  if (st.is_null(col)) return std::nullopt;
  return static_cast<int>(st.int64(col));
}

}  // namespace

std::optional<PlayerRow> SqliteStore::player_by_token_hash(const std::string& token_hash) {
  std::lock_guard lock(read_mu_);
  Statement st;
  if (reader_.prepare("SELECT public_id, name, created_at, last_seen FROM players WHERE token_hash = ?", st))
    return std::nullopt;
  st.bind_blob(1, token_hash.data(), token_hash.size());
  if (!st.step()) return std::nullopt;
  return PlayerRow{st.text(0), st.text(1), st.int64(2), st.int64(3)};
}

std::optional<PlayerRow> SqliteStore::player(const std::string& id) {
  std::lock_guard lock(read_mu_);
  Statement st;
  if (reader_.prepare("SELECT public_id, name, created_at, last_seen FROM players WHERE public_id = ?", st))
    return std::nullopt;
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return PlayerRow{st.text(0), st.text(1), st.int64(2), st.int64(3)};
}

std::vector<RatingRow> SqliteStore::ratings_of(const std::string& id) {
  std::lock_guard lock(read_mu_);
  std::vector<RatingRow> out;
  Statement st;
  if (reader_.prepare("SELECT p.public_id, p.name, r.ladder, r.mu, r.sigma, r.ordinal, r.matches FROM ratings r "
                      "JOIN players p ON p.id = r.player_id WHERE p.public_id = ? ORDER BY r.ladder",
                      st))
    return out;
  st.bind(1, id);
  while (st.step())
    out.push_back(
        {st.text(0), st.text(1), st.text(2), st.real(3), st.real(4), st.real(5), static_cast<int>(st.int64(6))});
  return out;
}

std::vector<RatingRow> SqliteStore::leaderboard(const std::string& ladder, int offset, int limit, int& total) {
  std::lock_guard lock(read_mu_);
  std::vector<RatingRow> out;
  total = 0;
  Statement count;
  if (!reader_.prepare("SELECT COUNT(*) FROM ratings WHERE ladder = ?", count)) {
    count.bind(1, ladder);
    if (count.step()) total = static_cast<int>(count.int64(0));
  }
  Statement st;
  if (reader_.prepare("SELECT p.public_id, p.name, r.ladder, r.mu, r.sigma, r.ordinal, r.matches FROM ratings r "
                      "JOIN players p ON p.id = r.player_id WHERE r.ladder = ? "
                      "ORDER BY r.ordinal DESC, p.public_id LIMIT ? OFFSET ?",
                      st))
    return out;
  st.bind(1, ladder).bind(2, limit).bind(3, offset);
  while (st.step())
    out.push_back(
        {st.text(0), st.text(1), st.text(2), st.real(3), st.real(4), st.real(5), static_cast<int>(st.int64(6))});
  return out;
}

std::vector<MatchSummary> SqliteStore::history(const std::string& player, int offset, int limit,
                                               const std::string& viewer) {
  std::lock_guard lock(read_mu_);
  std::vector<MatchSummary> out;
  Statement st;
  if (reader_.prepare(
          "SELECT m.uid, m.variant, m.started_at, m.ended_at, m.score0, m.score1, m.winner, "
          "COALESCE(m.end_reason, ''), s.seat, s.team FROM match_seats s "
          "JOIN matches m ON m.id = s.match_id JOIN players p ON p.id = s.player_id "
          "WHERE p.public_id = ? AND (m.private = 0 OR m.ended_at IS NOT NULL OR EXISTS (SELECT 1 FROM match_seats v "
          "JOIN players vp ON vp.id = v.player_id WHERE v.match_id = m.id AND vp.public_id = ?)) "
          "ORDER BY m.started_at DESC, m.id DESC LIMIT ? OFFSET ?",
          st))
    return out;
  st.bind(1, player).bind(2, viewer).bind(3, limit).bind(4, offset);
  while (st.step()) {
    MatchSummary m;
    m.uid = st.text(0);
    m.variant = st.text(1);
    m.started_at = st.int64(2);
    if (!st.is_null(3)) m.ended_at = st.int64(3);
    m.score0 = opt_int(st, 4);
    m.score1 = opt_int(st, 5);
    m.winner = opt_int(st, 6);
    m.end_reason = st.text(7);
    m.seat = static_cast<int>(st.int64(8));
    m.team = static_cast<int>(st.int64(9));
    out.push_back(m);
  }
  return out;
}

namespace {
constexpr const char* kMatchColumns =
    "SELECT id, uid, table_id, variant, options, match_seed, first_dealer, rated, started_at, ended_at, score0, "
    "score1, winner, COALESCE(end_reason, ''), COALESCE(table_json, ''), log_from, log_to FROM matches ";
}  // namespace

std::optional<MatchRow> SqliteStore::load_match(Statement& st, bool with_secrets, LogRead log) {
  MatchRow m;
  const std::int64_t id = st.int64(0);
  const std::int64_t from = st.is_null(15) ? -1 : st.int64(15);  // -1: nothing of it in the log
  m.start.uid = st.text(1);
  m.start.table_id = st.text(2);
  m.start.variant = st.text(3);
  m.start.options_json = st.text(4);
  if (!st.is_null(5) && with_secrets) m.start.match_seed = st.text(5);
  m.start.first_dealer = static_cast<int>(st.int64(6));
  m.start.rated = st.int64(7) != 0;
  m.start.started_at = st.int64(8);
  if (!st.is_null(9)) m.ended_at = st.int64(9);
  m.score0 = opt_int(st, 10);
  m.score1 = opt_int(st, 11);
  m.winner = opt_int(st, 12);
  m.end_reason = st.text(13);
  if (with_secrets) m.start.table_json = st.text(14);

  Statement seats;
  if (!reader_.prepare("SELECT s.seat, s.team, p.public_id, p.name FROM match_seats s JOIN players p ON "
                       "p.id = s.player_id WHERE s.match_id = ? ORDER BY s.seat",
                       seats)) {
    seats.bind(1, id);
    while (seats.step())
      m.start.seats.push_back(
          {static_cast<int>(seats.int64(0)), static_cast<int>(seats.int64(1)), seats.text(2), seats.text(3)});
  }
  Statement hands;
  if (!reader_.prepare("SELECT number, dealer, commitment, seed, revealed, first_seq, last_seq, "
                       "COALESCE(result, '') FROM hands WHERE match_id = ? ORDER BY number",
                       hands)) {
    hands.bind(1, id);
    while (hands.step()) {
      HandRow h;
      h.number = static_cast<int>(hands.int64(0));
      h.dealer = static_cast<int>(hands.int64(1));
      h.commitment = hands.text(2);
      h.revealed = hands.int64(4) != 0;
      if (h.revealed || with_secrets) h.seed = hands.text(3);
      h.first_seq = hands.int64(5);
      if (!hands.is_null(6)) h.last_seq = hands.int64(6);
      h.result_json = hands.text(7);
      m.hands.push_back(h);
    }
  }
  Statement actions;
  if (!reader_.prepare("SELECT seq, seat, action FROM match_actions WHERE match_id = ? ORDER BY seq", actions)) {
    actions.bind(1, id);
    while (actions.step()) m.actions.push_back({actions.int64(0), static_cast<int>(actions.int64(1)), actions.text(2)});
  }
  if (from >= 0 && log == LogRead::own) {
    // Without an index on the match, its rows are found by reading the log from its log_from: the
    // passes keep the log to its newest rows.
    Statement logged;
    std::vector<ActionRow> rows;
    if (!reader_.prepare(
            "SELECT seq, seat, action FROM action_log WHERE id >= ? AND id <= ? AND match_id = ? ORDER BY id",
            logged)) {
      // An ended match's rows end at its log_to.
      logged.bind(1, from)
          .bind(2, st.is_null(16) ? std::numeric_limits<std::int64_t>::max() : st.int64(16))
          .bind(3, id);
      while (logged.step()) rows.push_back({logged.int64(0), static_cast<int>(logged.int64(1)), logged.text(2)});
    }
    merge_logged(m.actions, std::move(rows));
  }
  return m;
}

std::optional<MatchRow> SqliteStore::match(const std::string& uid, bool with_secrets) {
  std::lock_guard lock(read_mu_);
  Statement st;
  if (reader_.prepare(std::string(kMatchColumns) + "WHERE uid = ?", st)) return std::nullopt;
  st.bind(1, uid);
  if (!st.step()) return std::nullopt;
  return load_match(st, with_secrets);
}

std::optional<bool> SqliteStore::match_over(const std::string& uid) {
  std::lock_guard lock(read_mu_);
  Statement st;
  if (reader_.prepare("SELECT ended_at IS NOT NULL FROM matches WHERE uid = ?", st)) return std::nullopt;
  st.bind(1, uid);
  if (!st.step()) return std::nullopt;
  return st.int64(0) != 0;
}

std::vector<MatchRef> SqliteStore::unfinished_refs() {
  std::lock_guard lock(read_mu_);
  std::vector<MatchRef> out;
  Statement st;
  if (reader_.prepare("SELECT uid, table_id FROM matches WHERE ended_at IS NULL ORDER BY id", st)) return out;
  while (st.step()) out.push_back({st.text(0), st.text(1)});
  return out;
}

std::vector<MatchRow> SqliteStore::unfinished_matches() {
  std::lock_guard lock(read_mu_);
  std::vector<MatchRow> out;
  Statement st;
  if (reader_.prepare(std::string(kMatchColumns) + "WHERE ended_at IS NULL ORDER BY id", st)) return out;
  // match row id -> its place in `out` and its log_from
  std::unordered_map<std::int64_t, std::pair<std::size_t, std::int64_t>> index;
  std::int64_t lowest = -1;
  while (st.step()) {
    const std::int64_t id = st.int64(0);
    const std::int64_t from = st.is_null(15) ? -1 : st.int64(15);  // the match's log_from
    if (auto m = load_match(st, true, LogRead::later)) {
      if (from >= 0) {
        index.emplace(id, std::pair(out.size(), from));
        lowest = lowest < 0 ? from : std::min(lowest, from);
      }
      out.push_back(std::move(*m));
    }
  }
  if (lowest < 0) return out;
  // One read of the log for every unfinished match together, from the oldest one's log_from.
  std::vector<std::vector<ActionRow>> logged(out.size());
  Statement log;
  if (!reader_.prepare("SELECT match_id, seq, seat, action, id FROM action_log WHERE id >= ? ORDER BY id", log)) {
    log.bind(1, lowest);
    while (log.step()) {
      auto it = index.find(log.int64(0));
      // Rows of ended matches, and rows already copied (below their match's log_from), are not read.
      if (it == index.end() || log.int64(4) < it->second.second) continue;
      logged[it->second.first].push_back({log.int64(1), static_cast<int>(log.int64(2)), log.text(3)});
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) merge_logged(out[i].actions, std::move(logged[i]));
  return out;
}

}  // namespace atout::store
