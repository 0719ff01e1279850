// Players, matches, hands, actions and ratings over PostgreSQL: the store itself, its writes through
// the batching writer and its reads (migrations and backups are in pg_admin.cpp, the fence
// against an earlier run of a table in pg_fence.cpp).
#include "atout/store/pg_store.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "pg_connection.hpp"
#include "pg_fence.hpp"
#include "pg_writer.hpp"
#include "store_errors.hpp"

namespace atout::store {

namespace {

std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

// A nullable parameter: pqxx sends a null `const char*` as SQL NULL.
struct Nullable {
  std::optional<std::string> text;
  const char* get() const { return text ? text->c_str() : nullptr; }
};
Nullable nullable(std::optional<int> v) { return v ? Nullable{std::to_string(*v)} : Nullable{}; }
Nullable nullable_text(const std::optional<std::string>& v) { return Nullable{v}; }

std::optional<int> opt_int(const pqxx::field& f) {
  if (f.is_null()) return std::nullopt;
  return f.as<int>();
}

std::optional<std::int64_t> match_id(PgTx& tx, const std::string& uid) {
  auto it = tx.ids().find(uid);
  if (it != tx.ids().end()) return it->second;
  const pqxx::result r = tx.t().exec_params("SELECT id FROM matches WHERE uid = $1", uid);
  if (r.empty()) return std::nullopt;
  const auto id = r[0][0].as<std::int64_t>();
  tx.ids().emplace(uid, id);
  return id;
}

RatingRow rating_row(const pqxx::row& r) {
  return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<double>(),
          r[4].as<double>(),      r[5].as<double>(),      r[6].as<int>()};
}

constexpr const char* kMatchColumns =
    "SELECT id, uid, table_id, variant, options, match_seed, first_dealer, rated, started_at, ended_at, score0, "
    "score1, winner, COALESCE(end_reason, ''), COALESCE(table_json, '') FROM matches ";

class PgStore final : public Store {
 public:
  PgStore(std::string url, int version, std::unique_ptr<pqxx::connection> reader,
          std::unique_ptr<pqxx::connection> writer, const OpenOptions& options)
      : url_(std::move(url)),
        reader_(std::move(reader)),
        writer_(
            [url = url_] {
              auto c = connect(url);
              prepare_append(*c);
              return c;
            },
            prepared(std::move(writer)), 8192, options.commit_window) {
    version_ = version;
    writer_.set_append(append_actions);
  }
  ~PgStore() override { writer_.stop(); }

  static std::unique_ptr<pqxx::connection> prepared(std::unique_ptr<pqxx::connection> c) {
    prepare_append(*c);
    return c;
  }

  void add_player(const std::string& id, const std::string& name, const std::string& token_hash,
                  std::int64_t now) override {
    writer_.post([=, h = hex(token_hash)](PgTx& tx) -> std::optional<std::string> {
      tx.t().exec_params(
          "INSERT INTO players (public_id, name, token_hash, created_at, last_seen) "
          "VALUES ($1, $2, decode($3, 'hex'), $4, $4)",
          id, name, h, now);
      return std::nullopt;
    });
  }

  void touch_player(const std::string& id, std::int64_t now) override {
    writer_.post([=](PgTx& tx) -> std::optional<std::string> {
      tx.t().exec_params("UPDATE players SET last_seen = $1 WHERE public_id = $2", now, id);
      return std::nullopt;
    });
  }

  void begin_match(const MatchStart& m) override {
    runs_.set(m.uid, 0);
    writer_.post([m](PgTx& tx) -> std::optional<std::string> {
      const pqxx::result r = tx.t().exec_params(
          "INSERT INTO matches (uid, table_id, variant, options, match_seed, first_dealer, rated, started_at, "
          "table_json, private) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
          m.uid, m.table_id, m.variant, m.options_json, nullable_text(m.match_seed).get(), m.first_dealer,
          m.rated ? 1 : 0, m.started_at,
          nullable_text(m.table_json.empty() ? std::nullopt : std::optional(m.table_json)).get(), m.is_private ? 1 : 0);
      const auto id = r[0][0].as<std::int64_t>();
      tx.ids()[m.uid] = id;
      for (const SeatRow& seat : m.seats)
        tx.t().exec_params(
            "INSERT INTO match_seats (match_id, seat, team, player_id) "
            "SELECT $1, $2, $3, id FROM players WHERE public_id = $4",
            id, seat.seat, seat.team, seat.player);
      return std::nullopt;
    });
  }

  void add_action(const std::string& uid, std::int64_t seq, int seat, std::string action_json,
                  std::int64_t at) override {
    // The row-by-row insert is the fallback for a batch whose multi-row insert failed.
    PgJob row_by_row = [uid, seq, seat, a = action_json, at](PgTx& tx) -> std::optional<std::string> {
      const auto id = match_id(tx, uid);
      if (!id) return no_match(uid);
      if (auto e = check_fence(tx, uid, *id, run_of(seq), "action seq " + std::to_string(seq))) return e;
      tx.t().exec_params("INSERT INTO match_actions (match_id, seq, seat, action, at) VALUES ($1, $2, $3, $4, $5)", *id,
                         seq, seat, a, at);
      return std::nullopt;
    };
    writer_.post_action({uid, seq, seat, std::move(action_json), at}, std::move(row_by_row));
  }

  void begin_hand(const std::string& uid, const HandRow& h) override {
    // A table rebuilt from the log may write again a hand of an earlier run that the log lost: the
    // hand's seqs do not say which run writes it.
    writer_.post([uid, h, run = runs_.writing(uid)](PgTx& tx) -> std::optional<std::string> {
      const auto id = match_id(tx, uid);
      if (!id) return no_match(uid);
      if (auto e = check_fence(tx, uid, *id, run, "hand " + std::to_string(h.number))) return e;
      tx.t().exec_params(
          "INSERT INTO hands (match_id, number, dealer, commitment, seed, first_seq) VALUES ($1, $2, $3, $4, $5, $6)",
          *id, h.number, h.dealer, h.commitment, h.seed, h.first_seq);
      return std::nullopt;
    });
  }

  void end_hand(const std::string& uid, int number, std::int64_t last_seq, std::string result_json) override {
    writer_.post([uid, number, last_seq, r = std::move(result_json),
                  run = runs_.writing(uid)](PgTx& tx) -> std::optional<std::string> {
      const auto id = match_id(tx, uid);
      if (!id) return no_match(uid);
      if (auto e = check_fence(tx, uid, *id, run, "the end of hand " + std::to_string(number))) return e;
      tx.t().exec_params(
          "UPDATE hands SET last_seq = $1, result = $2, revealed = 1 WHERE match_id = $3 AND number = $4", last_seq, r,
          *id, number);
      return std::nullopt;
    });
  }

  void change_seat(const std::string& uid, int seat, const std::string& player) override {
    writer_.post([uid, seat, player, run = runs_.writing(uid)](PgTx& tx) -> std::optional<std::string> {
      const auto id = match_id(tx, uid);
      if (!id) return no_match(uid);
      if (auto e = check_fence(tx, uid, *id, run, "a change of seat " + std::to_string(seat))) return e;
      tx.t().exec_params(
          "UPDATE match_seats SET player_id = p.id FROM players p WHERE p.public_id = $1 AND match_id = $2 AND "
          "seat = $3",
          player, *id, seat);
      return std::nullopt;
    });
  }

  void end_match(const std::string& uid, std::int64_t ended_at, std::optional<int> score0, std::optional<int> score1,
                 std::optional<int> winner, const std::string& reason) override {
    writer_.post([=, run = runs_.forget(uid)](PgTx& tx) -> std::optional<std::string> {
      const auto id = match_id(tx, uid);
      if (!id) return no_match(uid);
      if (auto e = check_fence(tx, uid, *id, run, "the match's end")) return e;
      const pqxx::result ended = tx.t().exec_params(
          "UPDATE matches SET ended_at = $1, score0 = $2, score1 = $3, winner = $4, end_reason = $5 "
          "WHERE id = $6 AND ended_at IS NULL RETURNING rated, variant",
          ended_at, nullable(score0).get(), nullable(score1).get(), nullable(winner).get(), reason, *id);
      if (ended.empty()) return std::nullopt;  // ended before: never rate twice
      const bool rated = ended[0][0].as<int>() != 0;
      const auto ladder = ended[0][1].as<std::string>();
      if (!rated || reason == "aborted") return std::nullopt;

      // Another node may be rating the same players now: their rows are locked (in id order, so
      // two such transactions queue instead of deadlocking) before their ratings are read, and
      // what is read is then what the other committed.
      tx.t().exec_params(
          "SELECT p.id FROM players p WHERE p.id IN (SELECT player_id FROM match_seats WHERE match_id = $1) "
          "ORDER BY p.id FOR UPDATE",
          *id);
      // Numbered once the players are locked: after every update this one reads from.
      tx.t().exec_params("UPDATE matches SET rated_seq = nextval('matches_rated_seq') WHERE id = $1", *id);
      std::vector<SeatRating> seats;
      const pqxx::result q = tx.t().exec_params(
          "SELECT s.team, s.player_id, r.mu, r.sigma, COALESCE(r.matches, 0) FROM match_seats s "
          "LEFT JOIN ratings r ON r.player_id = s.player_id AND r.ladder = $1 WHERE s.match_id = $2 ORDER BY s.seat",
          ladder, *id);
      for (const pqxx::row& row : q) {
        SeatRating x{row[0].as<int>(), row[1].as<std::int64_t>(), Rating{}, row[4].as<int>()};
        if (!row[2].is_null()) x.rating = Rating{row[2].as<double>(), row[3].as<double>()};
        seats.push_back(x);
      }
      std::vector<Rating> after;
      if (auto e = rate_match(seats, winner, after)) return "rated match " + uid + " " + *e;
      const std::vector<bool> write = seats_to_write(seats);
      for (std::size_t i = 0; i < seats.size(); ++i) {
        if (!write[i]) continue;
        const SeatRating& x = seats[i];
        const Rating& r = after[i];
        tx.t().exec_params(
            "INSERT INTO ratings (player_id, ladder, mu, sigma, ordinal, matches, updated_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id, ladder) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
            "matches = excluded.matches, updated_at = excluded.updated_at",
            x.player, ladder, r.mu, r.sigma, r.ordinal(), x.matches + 1, ended_at);
      }
      return std::nullopt;
    });
  }

  std::optional<PlayerRow> player_by_token_hash(const std::string& token_hash) override {
    std::optional<PlayerRow> out;
    read([&](pqxx::work& w) {
      const pqxx::result r = w.exec_params(
          "SELECT public_id, name, created_at, last_seen FROM players WHERE token_hash = decode($1, 'hex')",
          hex(token_hash));
      if (!r.empty()) out = player_row(r[0]);
    });
    return out;
  }

  std::optional<PlayerRow> player(const std::string& id) override {
    std::optional<PlayerRow> out;
    read([&](pqxx::work& w) {
      const pqxx::result r =
          w.exec_params("SELECT public_id, name, created_at, last_seen FROM players WHERE public_id = $1", id);
      if (!r.empty()) out = player_row(r[0]);
    });
    return out;
  }

  std::vector<RatingRow> ratings_of(const std::string& id) override {
    std::vector<RatingRow> out;
    read([&](pqxx::work& w) {
      out.clear();
      for (const pqxx::row& r :
           w.exec_params("SELECT p.public_id, p.name, r.ladder, r.mu, r.sigma, r.ordinal, r.matches FROM ratings r "
                         "JOIN players p ON p.id = r.player_id WHERE p.public_id = $1 ORDER BY r.ladder",
                         id))
        out.push_back(rating_row(r));
    });
    return out;
  }

  std::vector<RatingRow> leaderboard(const std::string& ladder, int offset, int limit, int& total) override {
    std::vector<RatingRow> out;
    total = 0;
    read([&](pqxx::work& w) {
      out.clear();
      total = w.exec_params("SELECT COUNT(*) FROM ratings WHERE ladder = $1", ladder)[0][0].as<int>();
      for (const pqxx::row& r :
           w.exec_params("SELECT p.public_id, p.name, r.ladder, r.mu, r.sigma, r.ordinal, r.matches FROM ratings r "
                         "JOIN players p ON p.id = r.player_id WHERE r.ladder = $1 "
                         "ORDER BY r.ordinal DESC, p.public_id LIMIT $2 OFFSET $3",
                         ladder, limit, offset))
        out.push_back(rating_row(r));
    });
    return out;
  }

  std::vector<MatchSummary> history(const std::string& player, int offset, int limit,
                                    const std::string& viewer = {}) override {
    std::vector<MatchSummary> out;
    read([&](pqxx::work& w) {
      out.clear();
      for (const pqxx::row& r : w.exec_params(
               "SELECT m.uid, m.variant, m.started_at, m.ended_at, m.score0, m.score1, m.winner, "
               "COALESCE(m.end_reason, ''), s.seat, s.team FROM match_seats s "
               "JOIN matches m ON m.id = s.match_id JOIN players p ON p.id = s.player_id "
               "WHERE p.public_id = $1 AND (m.private = 0 OR m.ended_at IS NOT NULL OR EXISTS (SELECT 1 FROM "
               "match_seats v JOIN players vp ON vp.id = v.player_id WHERE v.match_id = m.id AND vp.public_id = $2)) "
               "ORDER BY m.started_at DESC, m.id DESC LIMIT $3 OFFSET $4",
               player, viewer, limit, offset)) {
        MatchSummary m;
        m.uid = r[0].as<std::string>();
        m.variant = r[1].as<std::string>();
        m.started_at = r[2].as<std::int64_t>();
        if (!r[3].is_null()) m.ended_at = r[3].as<std::int64_t>();
        m.score0 = opt_int(r[4]);
        m.score1 = opt_int(r[5]);
        m.winner = opt_int(r[6]);
        m.end_reason = r[7].as<std::string>();
        m.seat = r[8].as<int>();
        m.team = r[9].as<int>();
        out.push_back(m);
      }
    });
    return out;
  }

  std::optional<MatchRow> match(const std::string& uid, bool with_secrets) override {
    std::optional<MatchRow> out;
    read([&](pqxx::work& w) {
      const pqxx::result r = w.exec_params(std::string(kMatchColumns) + "WHERE uid = $1", uid);
      out = r.empty() ? std::nullopt : std::optional(load_match(w, r[0], with_secrets));
    });
    return out;
  }

  std::optional<bool> match_over(const std::string& uid) override {
    std::optional<bool> out;
    read([&](pqxx::work& w) {
      const pqxx::result r = w.exec_params("SELECT ended_at IS NOT NULL FROM matches WHERE uid = $1", uid);
      out = r.empty() ? std::nullopt : std::optional(r[0][0].as<bool>());
    });
    return out;
  }

  std::vector<MatchRow> unfinished_matches() override {
    std::vector<MatchRow> out;
    read([&](pqxx::work& w) {
      out.clear();
      for (const pqxx::row& r : w.exec(std::string(kMatchColumns) + "WHERE ended_at IS NULL ORDER BY id"))
        out.push_back(load_match(w, r, true));
    });
    return out;
  }

  std::vector<MatchRef> unfinished_refs() override {
    std::vector<MatchRef> out;
    read([&](pqxx::work& w) {
      out.clear();
      for (const pqxx::row& r : w.exec("SELECT uid, table_id FROM matches WHERE ended_at IS NULL ORDER BY id"))
        out.push_back({r[0].as<std::string>(), r[1].as<std::string>()});
    });
    return out;
  }

  std::optional<TakenMatch> take_over(const std::string& uid) override {
    std::optional<TakenMatch> out;
    read([&](pqxx::work& w) {
      out.reset();
      // The match's row is locked to the commit first (FOR UPDATE, which waits for every write
      // under way: each holds a key-share lock on the row until its batch commits), and a write
      // that comes later waits for the commit and then sees the raised fence. The reads below,
      // each a new snapshot, see every write committed before.
      const pqxx::result f =
          w.exec_params("SELECT id, run FROM matches WHERE uid = $1 AND ended_at IS NULL FOR UPDATE", uid);
      if (f.empty()) return;
      const pqxx::result r = w.exec_params(std::string(kMatchColumns) + "WHERE uid = $1", uid);
      TakenMatch t{load_match(w, r[0], true), 0};
      // Past the fence, and past every run the log shows too: a server restarted on its own starts
      // a new run without raising the fence.
      std::int64_t run = f[0][1].as<std::int64_t>() + 1;
      for (const ActionRow& a : t.match.actions) run = std::max(run, run_of(a.seq) + 1);
      for (const HandRow& h : t.match.hands)
        run = std::max(run, run_of(std::max(h.first_seq, h.last_seq.value_or(0))) + 1);
      w.exec_params("UPDATE matches SET run = $1 WHERE id = $2", run, f[0][0].as<std::int64_t>());
      w.commit();
      t.start_seq = run * kSeqsPerRun;
      out = std::move(t);
    });
    if (out) runs_.set(uid, run_of(out->start_seq));
    return out;
  }

  std::optional<std::uint64_t> reserve_ids(const std::string& kind, std::uint64_t count) override {
    auto first = std::make_shared<std::optional<std::uint64_t>>();
    const auto n = static_cast<std::int64_t>(count);
    writer_.post([kind, n, first](PgTx& tx) -> std::optional<std::string> {
      // One statement: two nodes reserving at once get two blocks, one after the other.
      const pqxx::result r = tx.t().exec_params(
          "INSERT INTO id_blocks (kind, next) VALUES ($1, 1 + $2) ON CONFLICT (kind) DO UPDATE SET "
          "next = id_blocks.next + $2 RETURNING next - $2",
          kind, n);
      *first = r[0][0].as<std::uint64_t>();
      return std::nullopt;
    });
    writer_.flush();
    if (!*first) return std::nullopt;
    // The job ran, but its batch could still have failed to commit: the block counts only once the
    // database shows it.
    bool shown = false;
    read([&](pqxx::work& w) {
      const pqxx::result r = w.exec_params("SELECT next FROM id_blocks WHERE kind = $1", kind);
      shown = !r.empty() && r[0][0].as<std::uint64_t>() >= **first + count;
    });
    if (!shown) return std::nullopt;
    return *first;
  }

  std::optional<std::string> backup(const std::string& target) override { return backup_postgres(url_, target); }

  void flush() override { writer_.flush(); }
  WriterStats writer_stats() const override { return writer_.stats(); }
  void on_write_error(std::function<void(const std::string&)> f) override { writer_.on_error(std::move(f)); }

 private:
  static PlayerRow player_row(const pqxx::row& r) {
    return PlayerRow{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::int64_t>(), r[3].as<std::int64_t>()};
  }

  // Runs `f` in a read transaction on the reading connection, reconnecting once if the server went
  // away since the last read. A read that still fails leaves `f`'s results empty.
  template <typename F>
  void read(F&& f) {
    std::lock_guard lock(read_mu_);
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        if (!reader_ || !reader_->is_open()) reader_ = connect(url_);
        pqxx::work w(*reader_);
        f(w);
        return;
      } catch (const std::exception&) {
        // A server that restarted shows as a broken connection or as an error of the session it
        // ended: either way the next try starts on a new connection.
        reader_.reset();
      }
    }
  }

  static MatchRow load_match(pqxx::work& w, const pqxx::row& r, bool with_secrets) {
    MatchRow m;
    const auto id = r[0].as<std::int64_t>();
    m.start.uid = r[1].as<std::string>();
    m.start.table_id = r[2].as<std::string>();
    m.start.variant = r[3].as<std::string>();
    m.start.options_json = r[4].as<std::string>();
    if (!r[5].is_null() && with_secrets) m.start.match_seed = r[5].as<std::string>();
    m.start.first_dealer = r[6].as<int>();
    m.start.rated = r[7].as<int>() != 0;
    m.start.started_at = r[8].as<std::int64_t>();
    if (!r[9].is_null()) m.ended_at = r[9].as<std::int64_t>();
    m.score0 = opt_int(r[10]);
    m.score1 = opt_int(r[11]);
    m.winner = opt_int(r[12]);
    m.end_reason = r[13].as<std::string>();
    if (with_secrets) m.start.table_json = r[14].as<std::string>();
    for (const pqxx::row& s : w.exec_params("SELECT s.seat, s.team, p.public_id, p.name FROM match_seats s JOIN "
                                            "players p ON p.id = s.player_id WHERE s.match_id = $1 ORDER BY s.seat",
                                            id))
      m.start.seats.push_back({s[0].as<int>(), s[1].as<int>(), s[2].as<std::string>(), s[3].as<std::string>()});
    for (const pqxx::row& x : w.exec_params("SELECT number, dealer, commitment, seed, revealed, first_seq, last_seq, "
                                            "COALESCE(result, '') FROM hands WHERE match_id = $1 ORDER BY number",
                                            id)) {
      HandRow h;
      h.number = x[0].as<int>();
      h.dealer = x[1].as<int>();
      h.commitment = x[2].as<std::string>();
      h.revealed = x[4].as<int>() != 0;
      if (h.revealed || with_secrets) h.seed = x[3].as<std::string>();
      h.first_seq = x[5].as<std::int64_t>();
      if (!x[6].is_null()) h.last_seq = x[6].as<std::int64_t>();
      h.result_json = x[7].as<std::string>();
      m.hands.push_back(h);
    }
    for (const pqxx::row& a :
         w.exec_params("SELECT seq, seat, action FROM match_actions WHERE match_id = $1 ORDER BY seq", id))
      m.actions.push_back({a[0].as<std::int64_t>(), a[1].as<int>(), a[2].as<std::string>()});
    return m;
  }

  std::string url_;
  MatchRuns runs_;
  std::mutex read_mu_;
  std::unique_ptr<pqxx::connection> reader_;
  PgWriter writer_;
};

}  // namespace

std::unique_ptr<Store> open_postgres(const std::string& url, const OpenOptions& options, std::string& error) {
  Opened opened = migrate_postgres(url, options);
  if (opened.error) {
    error = *opened.error;
    return nullptr;
  }
  const std::string full = with_timeout(url, options.connect_timeout);
  std::unique_ptr<pqxx::connection> reader, writer;
  try {
    reader = connect(full);
    writer = connect(full);
  } catch (const std::exception& e) {
    error = "cannot connect to " + redact_url(url) + ": " + clean(e.what());
    return nullptr;
  }
  return std::make_unique<PgStore>(full, opened.version_after, std::move(reader), std::move(writer), options);
}

}  // namespace atout::store
