// The built web client, held in memory: index.html for the page and each of its client routes, the
// files beside it with their content type, cache policy and precompressed gzip twin, and a refusal
// of any path that is not a plain one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace atout::server {

class StaticFiles {
 public:
  // Sent with every file: scripts and styles only from this origin, none inline; sockets to it.
  static constexpr std::string_view kContentSecurityPolicy =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
      "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
  static constexpr std::string_view kImmutable = "public, max-age=31536000, immutable";
  static constexpr std::string_view kNoCache = "no-cache";
  // The whole client must fit in this; a bigger web root is refused at start-up.
  static constexpr std::size_t kMaxBytes = 64u * 1024u * 1024u;

  struct Reply {
    unsigned status = 404;              // 200, 400 (not a plain path) or 404 (no such file)
    const std::string* body = nullptr;  // set when status is 200
    std::string_view content_type;      // of the file, not of its encoding
    std::string_view cache_control;
    bool gzip = false;      // body is the precompressed twin: Content-Encoding: gzip
    bool has_gzip = false;  // a twin exists: the answer varies by Accept-Encoding
  };

  // Reads every regular file under `root` (symbolic links are skipped). Empty with `error` set
  // when the root cannot be read, has no index.html or is over kMaxBytes.
  static std::optional<StaticFiles> load(const std::filesystem::path& root, std::string& error);

  // `target` is the request target's path (no query). The page's routes ("/", "/t/<invite>",
  // "/replay/<match>", "/players/<id>", "/leaderboard") give index.html; files under assets/ are
  // content-hashed and cached for good; everything else must be revalidated.
  Reply resolve(std::string_view target, std::string_view accept_encoding) const;

  // Whether Accept-Encoding admits gzip (a "gzip" or "*" token whose q is not 0).
  static bool accepts_gzip(std::string_view accept_encoding);
  // The percent-decoded path, or empty for one that must be refused: not starting with '/', a bad
  // escape, an encoded '/', NUL or another control byte, a backslash, an empty, "." or ".."
  // segment.
  static std::optional<std::string> clean_path(std::string_view target);
  static std::string_view content_type(std::string_view path);

 private:
  struct File {
    std::string body;
    std::optional<std::string> gzip;
  };
  std::map<std::string, File, std::less<>> files_;  // by path relative to the root, with '/'
};

}  // namespace atout::server
