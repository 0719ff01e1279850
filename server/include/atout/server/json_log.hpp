// Logs as JSON lines (--log-format json): one object a line, for log collectors that read a
// container's standard output.
#pragma once

#include <spdlog/formatter.h>

#include <memory>

namespace atout::server {

// A formatter that writes each record as
// {"time":"2026-11-26T06:00:00.123456Z","level":"info","thread":123,"message":"..."}
// with the time in UTC and the message escaped as a JSON string (quotes, backslashes, control
// characters; bytes that are not UTF-8 pass through as they are, and JSON readers replace them).
std::unique_ptr<spdlog::formatter> make_json_log_formatter();

}  // namespace atout::server
