// Appending a batch's actions to PostgreSQL in one statement (the PostgreSQL writer's PgAppend).
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "atout/store/store.hpp"
#include "pg_writer.hpp"
#include "store_errors.hpp"

namespace atout::store {

namespace {

// A PostgreSQL array literal of text elements, each quoted ("{"a","b\\"c"}").
std::string text_array(const std::vector<std::string_view>& items) {
  std::string out = "{";
  for (const std::string_view item : items) {
    if (out.size() > 1) out.push_back(',');
    out.push_back('"');
    for (const char c : item) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    out.push_back('"');
  }
  out.push_back('}');
  return out;
}

template <typename T>
std::string number_array(const std::vector<T>& items) {
  std::string out = "{";
  for (const T item : items) {
    if (out.size() > 1) out.push_back(',');
    out += std::to_string(item);
  }
  out.push_back('}');
  return out;
}

// The statements of a batch's actions, prepared once per connection.
constexpr const char* kFences = "atout_action_fences";
constexpr const char* kAppend = "atout_append_actions";

}  // namespace

void prepare_append(pqxx::connection& c) {
  c.prepare(kFences, "SELECT id, run FROM matches WHERE id = ANY($1::bigint[]) FOR KEY SHARE");
  c.prepare(kAppend,
            "INSERT INTO match_actions (match_id, seq, seat, action, at) "
            "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::text[], $5::bigint[])");
}

// A batch's actions in three statements at most, whatever their number: one looks up the ids of
// the matches this writer has not seen yet; one reads their fences (Store::take_over) under a
// key-share lock on each match's row held to the commit, so that a take-over (which locks the row
// FOR UPDATE) waits for this batch, or this batch waits for the take-over and reads its fence;
// one inserts every row whose run is not below its match's fence (arrays unnested server-side).
void append_actions(PgTx& tx, const std::vector<const PgActionRow*>& rows, std::vector<std::string>& errors) {
  std::vector<std::string_view> unknown;
  std::unordered_set<std::string_view> asked;
  for (const PgActionRow* r : rows)
    if (tx.ids().find(r->uid) == tx.ids().end() && asked.insert(r->uid).second) unknown.emplace_back(r->uid);
  if (!unknown.empty()) {
    const pqxx::result found =
        tx.t().exec_params("SELECT uid, id FROM matches WHERE uid = ANY($1::text[])", text_array(unknown));
    for (const pqxx::row& f : found) tx.ids().emplace(f[0].as<std::string>(), f[1].as<std::int64_t>());
  }
  std::vector<std::int64_t> known;
  std::unordered_set<std::int64_t> listed;
  for (const PgActionRow* r : rows)
    if (const auto it = tx.ids().find(r->uid); it != tx.ids().end() && listed.insert(it->second).second)
      known.push_back(it->second);
  std::unordered_map<std::int64_t, std::int64_t> fences;
  if (!known.empty())
    for (const pqxx::row& f : tx.t().exec_prepared(kFences, number_array(known)))
      fences.emplace(f[0].as<std::int64_t>(), f[1].as<std::int64_t>());
  std::vector<std::int64_t> ids, seqs, ats;
  std::vector<int> seats;
  std::vector<std::string_view> actions;
  for (const PgActionRow* r : rows) {
    const auto it = tx.ids().find(r->uid);
    if (it == tx.ids().end()) {
      errors.push_back(no_match(r->uid));
      continue;
    }
    if (const auto f = fences.find(it->second); f != fences.end() && run_of(r->seq) < f->second) {
      errors.push_back(fenced(r->uid, run_of(r->seq), f->second, "action seq " + std::to_string(r->seq)));
      continue;
    }
    ids.push_back(it->second);
    seqs.push_back(r->seq);
    seats.push_back(r->seat);
    actions.emplace_back(r->action);
    ats.push_back(r->at);
  }
  if (ids.empty()) return;
  tx.t().exec_prepared(kAppend, number_array(ids), number_array(seqs), number_array(seats), text_array(actions),
                       number_array(ats));
}

}  // namespace atout::store
