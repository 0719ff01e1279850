// Opening a PostgreSQL connection the way every part of the PostgreSQL store needs it: the URL with
// a connection timeout, the session settings that make every commit durable, and libpq's error
// text without its trailing newline.
#pragma once

#include <chrono>
#include <memory>
#include <pqxx/pqxx>
#include <string>

namespace atout::store {

// `url` with a connection timeout, unless it names one.
std::string with_timeout(const std::string& url, std::chrono::seconds timeout);

// A new connection to `url`, or pqxx's error thrown.
std::unique_ptr<pqxx::connection> connect(const std::string& url);

// An error message as libpq writes it, without the trailing newline and spaces.
std::string clean(std::string what);

}  // namespace atout::store
