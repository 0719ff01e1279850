// Keeps every log line a server test run writes, its own and its child servers', next to the
// messages it saw, so that one check at the end of the run can look for secrets in them.
#pragma once

#include <string>

namespace atout::server::testing {

// Writes a child server's whole output into the run's record directory (ATOUT_SCHEMA_LOG_DIR),
// when there is one. Called once per child, when it is gone; the output of other programs (the
// `atout` tool prints records, seeds included, by design) is not a log and is not kept.
void keep_child_log(const std::string& program, const std::string& output);

}  // namespace atout::server::testing
