// Loading and reloading the certificate and key, with the TLS settings every connection gets.
#include "atout/server/tls_context.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <filesystem>
#include <fstream>

namespace atout::server {

namespace {

// TLS 1.2's suites (1.3 picks its own, all AEAD with ephemeral keys): forward secrecy and
// authenticated encryption only.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
constexpr const char* kGroups = "X25519:P-256:P-384";

// Why a file cannot be used before OpenSSL tries it: its own words are less plain.
std::optional<std::string> check_readable(const std::string& what, const std::string& path) {
  if (path.empty()) return what + ": no file given";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return what + " " + path + ": no such file";
  if (!std::filesystem::is_regular_file(path, ec)) return what + " " + path + ": not a regular file";
  std::ifstream in(path);
  if (!in) return what + " " + path + ": cannot be read (permissions?)";
  return std::nullopt;
}

// The first OpenSSL error queued, then the queue cleared.
std::string openssl_reason() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

}  // namespace

std::shared_ptr<ssl::context> TlsContext::make(const std::string& cert_file, const std::string& key_file,
                                               std::string& error) {
  if (auto e = check_readable("TLS certificate", cert_file)) {
    error = *e;
    return nullptr;
  }
  if (auto e = check_readable("TLS key", key_file)) {
    error = *e;
    return nullptr;
  }
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  SSL_CTX* native = ctx->native_handle();
  ERR_clear_error();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  // No compression (CRIME), no renegotiation, and the server's order of suites (strongest first).
  // Key exchange is always ephemeral ECDH, over the groups below.
  SSL_CTX_set_options(native, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_set_cipher_list(native, kTls12Ciphers) != 1 || SSL_CTX_set1_groups_list(native, kGroups) != 1) {
    error = "TLS settings refused by OpenSSL: " + openssl_reason();
    return nullptr;
  }
  if (SSL_CTX_use_certificate_chain_file(native, cert_file.c_str()) != 1) {
    error = "TLS certificate " + cert_file + ": not a PEM certificate (" + openssl_reason() + ")";
    return nullptr;
  }
  if (SSL_CTX_use_PrivateKey_file(native, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    const unsigned long code = ERR_peek_last_error();
    if (ERR_GET_LIB(code) == ERR_LIB_X509 && ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH) {
      ERR_clear_error();
      error = "TLS key " + key_file + " does not match the certificate " + cert_file;
    } else {
      error = "TLS key " + key_file + ": not a PEM private key (" + openssl_reason() + ")";
    }
    return nullptr;
  }
  if (SSL_CTX_check_private_key(native) != 1) {
    error = "TLS key " + key_file + " does not match the certificate " + cert_file;
    ERR_clear_error();
    return nullptr;
  }
  return ctx;
}

std::optional<std::shared_ptr<TlsContext>> TlsContext::load(const std::string& cert_file, const std::string& key_file,
                                                            std::string& error) {
  auto first = make(cert_file, key_file, error);
  if (!first) return std::nullopt;
  return std::make_shared<TlsContext>(cert_file, key_file, std::move(first));
}

TlsContext::TlsContext(std::string cert_file, std::string key_file, std::shared_ptr<ssl::context> first)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)), current_(std::move(first)) {}

std::shared_ptr<ssl::context> TlsContext::current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

bool TlsContext::reload(std::string& error) {
  auto next = make(cert_file_, key_file_, error);
  if (!next) return false;
  std::lock_guard lock(mutex_);
  current_ = std::move(next);
  return true;
}

}  // namespace atout::server
