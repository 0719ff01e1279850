// Per-test databases for both backends.
#include "test_db.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <pqxx/pqxx>

#include "atout/store/sqlite.hpp"

namespace atout::store::test {

namespace fs = std::filesystem;

namespace {

std::atomic<int> counter{0};

std::string base_url() {
  const char* url = std::getenv("ATOUT_TEST_PG_URL");
  return url ? url : "";
}

std::string with_schema(const std::string& url, const std::string& schema) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
}

}  // namespace

void OnEachBackend::SetUp() {
  if (GetParam() == Backend::postgres) ATOUT_NEEDS_POSTGRES();
  db_ = std::make_unique<TestDb>(GetParam());
}

std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::sqlite ? "sqlite" : "postgres";
}

MatchStart duel_match(const std::string& uid) {
  MatchStart m;
  m.uid = uid;
  m.table_id = "t_" + uid;
  m.variant = "duel";
  m.options_json = "{}";
  m.started_at = 1;
  m.seats = {{0, 0, "p_a", ""}, {1, 1, "p_b", ""}};
  return m;
}

std::optional<std::string> postgres_missing() {
  if (base_url().empty()) return "ATOUT_TEST_PG_URL is not set (scripts/pg_test_server.sh start prints one)";
  return std::nullopt;
}

bool postgres_required() {
#ifdef ATOUT_PG_TESTS
  return true;
#else
  return false;
#endif
}

TestDb::TestDb(Backend backend) : backend_(backend) {
  const std::string unique = std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" +
                             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000);
  dir_ = fs::temp_directory_path() / ("atout_store_db_" + unique);
  fs::remove_all(dir_);
  fs::create_directories(dir_);
  if (backend_ == Backend::sqlite) {
    url_ = (dir_ / "s.db").string();
    return;
  }
  schema_ = "t_" + unique;
  pqxx::connection c(base_url());
  pqxx::nontransaction n(c);
  n.exec("CREATE SCHEMA " + schema_);
  url_ = with_schema(base_url(), schema_);
}

TestDb::~TestDb() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
  if (schema_.empty()) return;
  try {
    pqxx::connection c(base_url());
    pqxx::nontransaction n(c);
    n.exec("DROP SCHEMA " + schema_ + " CASCADE");
  } catch (const std::exception&) {
    // A test that stopped the server leaves its schema; the cluster is thrown away anyway.
  }
}

std::optional<std::string> TestDb::exec(const std::string& sql) const {
  if (backend_ == Backend::sqlite) {
    Db db;
    if (auto e = Db::open(url_, false, false, db)) return e;
    return db.exec(sql);
  }
  try {
    pqxx::connection c(url_);
    pqxx::work w(c);
    w.exec(sql);
    w.commit();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::string TestDb::query(const std::string& sql) const {
  if (backend_ == Backend::sqlite) {
    Db db;
    if (Db::open(url_, false, true, db)) return "";
    Statement st;
    if (db.prepare(sql, st) || !st.step() || st.is_null(0)) return "";
    return st.text(0);
  }
  try {
    pqxx::connection c(url_);
    pqxx::read_transaction r(c);
    const pqxx::result res = r.exec(sql);
    if (res.empty() || res[0][0].is_null()) return "";
    return res[0][0].as<std::string>();
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace atout::store::test
