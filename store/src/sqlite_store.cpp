// Players, matches, hands, actions and ratings over SQLite: opening the store and every write (the
// reads are in sqlite_store_reads.cpp, the action log's passes in sqlite_action_log.cpp).
#include "atout/store/sqlite_store.hpp"

#include <algorithm>
#include <array>
#include <filesystem>

#include "store_errors.hpp"

namespace atout::store {

namespace {

std::optional<std::int64_t> match_id(Tx& tx, const std::string& uid) {
  auto it = tx.ids().find(uid);
  if (it != tx.ids().end()) return it->second;
  Statement& st = tx.stmt("SELECT id FROM matches WHERE uid = ?");
  st.bind(1, uid);
  if (!st.step()) return std::nullopt;
  const std::int64_t id = st.int64(0);
  st.reset();
  tx.ids().emplace(uid, id);
  return id;
}

}  // namespace

std::unique_ptr<SqliteStore> SqliteStore::open(const std::string& path, const OpenOptions& options,
                                               std::string& error) {
  Opened opened = open_database(path, options);
  if (opened.error) {
    error = *opened.error;
    return nullptr;
  }
  std::unique_ptr<SqliteStore> s(new SqliteStore());
  s->version_ = opened.version_after;
  if (auto e = Db::open(path, false, true, s->reader_)) {
    error = "cannot open a reading connection to " + path + ": " + *e;
    return nullptr;
  }
  s->pass_rows_ = std::max<std::int64_t>(1, options.log_pass_rows);
  s->keep_rows_ = std::max<std::int64_t>(0, options.log_keep_rows);
  s->writer_ = std::make_unique<Writer>(std::move(opened.db), 8192, options.commit_window);
  return s;
}

SqliteStore::~SqliteStore() {
  if (writer_) writer_->stop();
}

void SqliteStore::add_player(const std::string& id, const std::string& name, const std::string& token_hash,
                             std::int64_t now) {
  writer_->post([=](Tx& tx) {
    return tx.stmt("INSERT INTO players (public_id, name, token_hash, created_at, last_seen) VALUES (?, ?, ?, ?, ?)")
        .bind(1, id)
        .bind(2, name)
        .bind_blob(3, token_hash.data(), token_hash.size())
        .bind(4, now)
        .bind(5, now)
        .run();
  });
}

void SqliteStore::touch_player(const std::string& id, std::int64_t now) {
  writer_->post([=](Tx& tx) {
    return tx.stmt("UPDATE players SET last_seen = ? WHERE public_id = ?").bind(1, now).bind(2, id).run();
  });
}

void SqliteStore::begin_match(const MatchStart& m) {
  writer_->post([m](Tx& tx) -> std::optional<std::string> {
    Statement& st = tx.stmt(
        "INSERT INTO matches (uid, table_id, variant, options, match_seed, first_dealer, rated, started_at, "
        "table_json, private, log_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'action_log'), 0) + 1)");
    st.bind(1, m.uid).bind(2, m.table_id).bind(3, m.variant).bind(4, m.options_json);
    if (m.match_seed) {
      st.bind(5, *m.match_seed);
    } else {
      st.bind_null(5);
    }
    st.bind(6, m.first_dealer).bind(7, m.rated ? 1 : 0).bind(8, m.started_at);
    if (m.table_json.empty()) {
      st.bind_null(9);
    } else {
      st.bind(9, m.table_json);
    }
    st.bind(10, m.is_private ? 1 : 0);
    if (auto e = st.run()) return e;
    const std::int64_t id = tx.db().last_insert_rowid();
    tx.ids()[m.uid] = id;
    for (const SeatRow& seat : m.seats) {
      if (auto e = tx.stmt("INSERT INTO match_seats (match_id, seat, team, player_id) "
                           "SELECT ?, ?, ?, id FROM players WHERE public_id = ?")
                       .bind(1, id)
                       .bind(2, seat.seat)
                       .bind(3, seat.team)
                       .bind(4, seat.player)
                       .run())
        return e;
    }
    return std::nullopt;
  });
}

void SqliteStore::add_action(const std::string& uid, std::int64_t seq, int seat, std::string action_json,
                             std::int64_t at) {
  writer_->post([this, uid, seq, seat, a = std::move(action_json), at](Tx& tx) -> std::optional<std::string> {
    const auto id = match_id(tx, uid);
    if (!id) return no_match(uid);
    // The log has no (match, seq) key to refuse a seq written twice, so the writer remembers each
    // live match's last seq and refuses anything not after it (a table writes its seqs in order).
    const auto last = last_logged_.find(*id);
    if (last != last_logged_.end() && seq <= last->second)
      return "action " + std::to_string(seq) + " of match " + uid + " refused: the log already has its seq " +
             std::to_string(last->second);
    if (auto e = tx.stmt("INSERT INTO action_log (match_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)")
                     .bind(1, *id)
                     .bind(2, seq)
                     .bind(3, seat)
                     .bind(4, a)
                     .bind(5, at)
                     .run())
      return e;
    last_logged_[*id] = seq;
    if (++appended_since_pass_ < pass_rows_) return std::nullopt;
    return compact_log(tx);
  });
}

void SqliteStore::begin_hand(const std::string& uid, const HandRow& h) {
  writer_->post([uid, h](Tx& tx) -> std::optional<std::string> {
    const auto id = match_id(tx, uid);
    if (!id) return no_match(uid);
    return tx
        .stmt("INSERT INTO hands (match_id, number, dealer, commitment, seed, first_seq) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(1, *id)
        .bind(2, h.number)
        .bind(3, h.dealer)
        .bind(4, h.commitment)
        .bind(5, h.seed)
        .bind(6, h.first_seq)
        .run();
  });
}

void SqliteStore::end_hand(const std::string& uid, int number, std::int64_t last_seq, std::string result_json) {
  writer_->post([uid, number, last_seq, r = std::move(result_json)](Tx& tx) -> std::optional<std::string> {
    const auto id = match_id(tx, uid);
    if (!id) return no_match(uid);
    return tx.stmt("UPDATE hands SET last_seq = ?, result = ?, revealed = 1 WHERE match_id = ? AND number = ?")
        .bind(1, last_seq)
        .bind(2, r)
        .bind(3, *id)
        .bind(4, number)
        .run();
  });
}

void SqliteStore::change_seat(const std::string& uid, int seat, const std::string& player) {
  writer_->post([uid, seat, player](Tx& tx) -> std::optional<std::string> {
    const auto id = match_id(tx, uid);
    if (!id) return no_match(uid);
    return tx
        .stmt(
            "UPDATE match_seats SET player_id = (SELECT id FROM players WHERE public_id = ?) "
            "WHERE match_id = ? AND seat = ? AND EXISTS (SELECT 1 FROM players WHERE public_id = ?)")
        .bind(1, player)
        .bind(2, *id)
        .bind(3, seat)
        .bind(4, player)
        .run();
  });
}

void SqliteStore::end_match(const std::string& uid, std::int64_t ended_at, std::optional<int> score0,
                            std::optional<int> score1, std::optional<int> winner, const std::string& reason) {
  writer_->post([=, this](Tx& tx) -> std::optional<std::string> {
    const auto id = match_id(tx, uid);
    if (!id) return no_match(uid);
    last_logged_.erase(*id);
    Statement& st = tx.stmt(
        "UPDATE matches SET ended_at = ?, score0 = ?, score1 = ?, winner = ?, end_reason = ?, "
        "log_to = COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'action_log'), 0) WHERE id = ? AND ended_at "
        "IS NULL");
    st.bind(1, ended_at);
    auto bind_opt = [&](int i, std::optional<int> v) {
      if (v) {
        st.bind(i, *v);
      } else {
        st.bind_null(i);
      }
    };
    bind_opt(2, score0);
    bind_opt(3, score1);
    bind_opt(4, winner);
    st.bind(5, reason).bind(6, *id);
    if (auto e = st.run()) return e;
    if (tx.db().changes() == 0) return std::nullopt;  // ended before: never rate twice

    Statement& info = tx.stmt("SELECT rated, variant FROM matches WHERE id = ?");
    info.bind(1, *id);
    if (!info.step()) return info.error().value_or("match vanished");
    const bool rated = info.int64(0) != 0;
    const std::string ladder = info.text(1);
    info.reset();
    if (!rated || reason == "aborted") return std::nullopt;
    // Write transactions on one SQLite file run one at a time (BEGIN IMMEDIATE), so the next number
    // is the order of the updates, even with several stores on the file.
    if (auto e = tx.stmt("UPDATE matches SET rated_seq = (SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM matches) "
                         "WHERE id = ?")
                     .bind(1, *id)
                     .run())
      return e;

    // Each player's rating on the ladder (new players start at the model's defaults).
    std::vector<SeatRating> seats;
    Statement& q = tx.stmt(
        "SELECT s.team, s.player_id, r.mu, r.sigma, COALESCE(r.matches, 0) FROM match_seats s "
        "LEFT JOIN ratings r ON r.player_id = s.player_id AND r.ladder = ? WHERE s.match_id = ? ORDER BY s.seat");
    q.bind(1, ladder).bind(2, *id);
    while (q.step()) {
      SeatRating x{static_cast<int>(q.int64(0)), q.int64(1), Rating{}, static_cast<int>(q.int64(4))};
      if (!q.is_null(2)) x.rating = Rating{q.real(2), q.real(3)};
      seats.push_back(x);
    }
    if (q.error()) return q.error();
    q.reset();
    std::vector<Rating> after;
    if (auto e = rate_match(seats, winner, after)) return "rated match " + uid + " " + *e;
    const std::vector<bool> write = seats_to_write(seats);
    for (std::size_t i = 0; i < seats.size(); ++i) {
      if (!write[i]) continue;
      const SeatRating& x = seats[i];
      const Rating& r = after[i];
      if (auto e = tx.stmt("INSERT INTO ratings (player_id, ladder, mu, sigma, ordinal, matches, updated_at) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, ladder) DO UPDATE SET "
                           "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
                           "matches = excluded.matches, updated_at = excluded.updated_at")
                       .bind(1, x.player)
                       .bind(2, ladder)
                       .bind(3, r.mu)
                       .bind(4, r.sigma)
                       .bind(5, r.ordinal())
                       .bind(6, x.matches + 1)
                       .bind(7, ended_at)
                       .run())
        return e;
    }
    return std::nullopt;
  });
}

std::optional<std::uint64_t> SqliteStore::reserve_ids(const std::string& kind, std::uint64_t count) {
  // The job runs on the writer's thread; flush() returns once it is committed (or failed).
  auto first = std::make_shared<std::optional<std::uint64_t>>();
  writer_->post([kind, count, first](Tx& tx) -> std::optional<std::string> {
    if (auto e = tx.stmt("INSERT INTO id_blocks (kind, next) VALUES (?, 1) ON CONFLICT (kind) DO NOTHING")
                     .bind(1, kind)
                     .run())
      return e;
    Statement& read = tx.stmt("SELECT next FROM id_blocks WHERE kind = ?");
    read.bind(1, kind);
    if (!read.step()) return "no id block for " + kind;
    const std::int64_t next = read.int64(0);
    read.reset();
    if (auto e = tx.stmt("UPDATE id_blocks SET next = ? WHERE kind = ?")
                     .bind(1, next + static_cast<std::int64_t>(count))
                     .bind(2, kind)
                     .run())
      return e;
    *first = static_cast<std::uint64_t>(next);
    return std::nullopt;
  });
  writer_->flush();
  if (!*first) return std::nullopt;
  // The job ran, but its batch could still have failed to commit: the block counts only once the
  // database shows it.
  std::lock_guard lock(read_mu_);
  Statement st;
  if (reader_.prepare("SELECT next FROM id_blocks WHERE kind = ?", st)) return std::nullopt;
  st.bind(1, kind);
  if (!st.step() || static_cast<std::uint64_t>(st.int64(0)) < **first + count) return std::nullopt;
  return *first;
}

std::optional<TakenMatch> SqliteStore::take_over(const std::string& uid) {
  // No fence is checked on SQLite (nodes sharing a file on one host rely on their leases): the
  // take-over only numbers its run past the earlier ones. What this store queued is committed
  // first; the fence is raised only if no other take-over raised it meanwhile.
  writer_->flush();
  auto m = match(uid, true);
  if (!m || m->ended_at) return std::nullopt;
  std::int64_t fence = 0;
  {
    std::lock_guard lock(read_mu_);
    Statement st;
    if (reader_.prepare("SELECT run FROM matches WHERE uid = ?", st)) return std::nullopt;
    st.bind(1, uid);
    if (!st.step()) return std::nullopt;
    fence = st.int64(0);
  }
  std::int64_t run = fence + 1;
  for (const ActionRow& a : m->actions) run = std::max(run, run_of(a.seq) + 1);
  for (const HandRow& h : m->hands) run = std::max(run, run_of(std::max(h.first_seq, h.last_seq.value_or(0))) + 1);
  writer_->post([uid, run, fence](Tx& tx) -> std::optional<std::string> {
    return tx.stmt("UPDATE matches SET run = ? WHERE uid = ? AND run = ? AND ended_at IS NULL")
        .bind(1, run)
        .bind(2, uid)
        .bind(3, fence)
        .run();
  });
  writer_->flush();
  // Taken only once the database shows the new fence (the batch could have failed to commit).
  {
    std::lock_guard lock(read_mu_);
    Statement st;
    if (reader_.prepare("SELECT run FROM matches WHERE uid = ? AND ended_at IS NULL", st)) return std::nullopt;
    st.bind(1, uid);
    if (!st.step() || st.int64(0) != run) return std::nullopt;
  }
  return TakenMatch{std::move(*m), run * kSeqsPerRun};
}

std::optional<std::string> SqliteStore::backup(const std::string& target) {
  std::error_code ec;
  if (std::filesystem::exists(target, ec)) return target + " already exists; a backup never overwrites a file";
  std::lock_guard lock(read_mu_);
  Statement st;
  if (auto e = reader_.prepare("VACUUM INTO ?", st)) return e;
  st.bind(1, target);
  return st.run();
}

}  // namespace atout::store
