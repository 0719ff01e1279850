// The server's TLS settings: a certificate and key loaded into an OpenSSL context with modern
// defaults, and reloaded on demand (SIGHUP). New connections take the current context; a
// connection keeps the one it was made with for its whole life.
#pragma once

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "atout/server/net.hpp"

namespace atout::server {

namespace ssl = net::ssl;

// The stream of a connection over TLS.
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

class TlsContext {
 public:
  // A server context for `cert_file` (PEM, the certificate then any intermediates) and `key_file`
  // (PEM): TLS 1.2 at least, 1.3 preferred, ECDHE key exchange with AEAD ciphers only, no
  // compression, no renegotiation. Null, with the reason in `error`, when a file is missing,
  // unreadable or malformed, or the key does not match the certificate.
  static std::shared_ptr<ssl::context> make(const std::string& cert_file, const std::string& key_file,
                                            std::string& error);

  // Loads the files once; empty with the reason when they cannot be used.
  static std::optional<std::shared_ptr<TlsContext>> load(const std::string& cert_file, const std::string& key_file,
                                                         std::string& error);

  TlsContext(std::string cert_file, std::string key_file, std::shared_ptr<ssl::context> first);

  // The context for a new connection.
  std::shared_ptr<ssl::context> current() const;
  // Reads the files again (from the same paths). On success new connections use the new context;
  // open ones keep theirs. On failure the current context stays and `error` says why.
  bool reload(std::string& error);

 private:
  const std::string cert_file_;
  const std::string key_file_;
  mutable std::mutex mutex_;
  std::shared_ptr<ssl::context> current_;
};

}  // namespace atout::server
