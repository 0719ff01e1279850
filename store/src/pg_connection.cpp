// Opening a PostgreSQL connection (pg_connection.hpp).
#include "pg_connection.hpp"

namespace atout::store {

std::string with_timeout(const std::string& url, std::chrono::seconds timeout) {
  if (url.find("connect_timeout=") != std::string::npos) return url;
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=" + std::to_string(timeout.count());
}

std::unique_ptr<pqxx::connection> connect(const std::string& url) {
  auto c = std::make_unique<pqxx::connection>(url);
  // Every write is durable once its batch commits, whatever the server's default.
  pqxx::nontransaction n(*c);
  n.exec("SET synchronous_commit = on");
  return c;
}

std::string clean(std::string what) {
  while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.pop_back();
  return what;
}

}  // namespace atout::store
