// Fuzz target: what an HTTP client controls, the request target (path and query) and its
// Accept-Encoding. Input: the target, then optionally '\n' and the Accept-Encoding value. Checked:
// static-file path resolution never answers a path that is not plain, query fields keep only their
// keys and bounded values, and every API route's request parses or is refused with a code its
// type documents.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "atout/protocol/request_errors.hpp"
#include "atout/protocol/requests.hpp"
#include "atout/server/api_routes.hpp"
#include "atout/server/query_fields.hpp"
#include "atout/server/static_files.hpp"
#include "fuzz_check.hpp"

namespace {

using atout::fuzz::require;
namespace protocol = atout::protocol;
using atout::server::StaticFiles;
namespace fs = std::filesystem;

// A small built client, written once to a temporary directory and held in memory.
const StaticFiles& web_root() {
  static const StaticFiles files = [] {
    const fs::path root = fs::temp_directory_path() / ("atout-http-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(root / "assets");
    auto put = [&](const std::string& rel, const std::string& body) { std::ofstream(root / rel) << body; };
    put("index.html", "<!doctype html><title>atout</title>");
    put("assets/app-1234.js", "console.log(1)");
    put("assets/app-1234.js.gz", "gz");
    put("favicon.ico", "ico");
    put("robots.txt", "User-agent: *");
    std::string error;
    auto loaded = StaticFiles::load(root, error);
    fs::remove_all(root);
    require(loaded.has_value(), "the fuzz web root does not load");
    return std::move(*loaded);
  }();
  return files;
}

// A request built from a route parses, or is refused with a code its type may be answered with.
void check_route_request(const protocol::json& request) {
  const auto parsed = protocol::parse_request(request.dump(-1, ' ', false, protocol::json::error_handler_t::replace));
  const std::string type = request.at("type").get<std::string>();
  if (const auto* e = std::get_if<protocol::Error>(&parsed.body)) {
    const auto& any = protocol::any_request_errors();
    const auto own = protocol::errors_of(type);
    require(std::find(any.begin(), any.end(), e->code) != any.end() ||
                std::find(own.begin(), own.end(), e->code) != own.end(),
            "a route's request refused with a code its type does not document");
    return;
  }
  require(protocol::type_of(std::get<protocol::Request>(parsed.body)) == type, "a route's request changes type");
}

void check_clean_path(std::string_view target) {
  const auto path = StaticFiles::clean_path(target);
  if (!path) return;
  require(!path->empty() && path->front() == '/', "a clean path that is not absolute");
  for (const char c : *path) {
    const auto byte = static_cast<unsigned char>(c);
    require(byte >= 0x20 && byte != 0x7f && c != '\\', "a clean path with a control byte or a backslash");
  }
  std::string_view rest = std::string_view(*path).substr(1);
  for (;;) {
    const auto slash = rest.find('/');
    const std::string_view segment = rest.substr(0, slash);
    require(segment != "." && segment != "..", "a clean path with a dot segment");
    if (slash == std::string_view::npos) break;
    require(!segment.empty(), "a clean path with an empty segment");
    rest = rest.substr(slash + 1);
  }
  if (target.find('%') == std::string_view::npos) require(*path == target, "a path without escapes changed");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const std::string_view target = input.substr(0, newline);
  const std::string_view accept = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
  const auto q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? std::string_view{} : target.substr(q + 1);

  // Static files.
  check_clean_path(path);
  const StaticFiles::Reply file = web_root().resolve(path, accept);
  require(file.status == 200 || file.status == 400 || file.status == 404, "a static reply of another status");
  require((file.status == 400) == !StaticFiles::clean_path(path), "a refused path that was plain, or the reverse");
  if (file.status == 200) {
    require(file.body != nullptr && !file.content_type.empty() && !file.cache_control.empty(), "an empty 200");
    require(!file.gzip || (file.has_gzip && StaticFiles::accepts_gzip(accept)), "gzip sent unasked");
  } else {
    require(file.body == nullptr, "a body with a refusal");
  }

  // Query fields: only the named keys, each a whole number (numeric keys) or a bounded string.
  protocol::json fields = protocol::json::object();
  atout::server::add_query_fields(query, {"offset", "limit"}, {"variant"}, fields, 8);
  for (const auto& [key, value] : fields.items()) {
    require(key == "offset" || key == "limit" || key == "variant", "a query field that was not asked for");
    require(value.is_number_integer() ? key != "variant" : value.is_string() && value.get<std::string>().size() <= 8,
            "a query field of the wrong form");
  }

  // API routes.
  if (const auto request = atout::server::archive_request(target)) {
    require(target.rfind("/api/", 0) == 0, "an archive route outside /api/");
    check_route_request(*request);
  }
  check_route_request(atout::server::tables_request(query));
  return 0;
}
