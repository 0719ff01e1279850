// A strict reader of the Prometheus text exposition format 0.0.4, for the metrics tests: every
// line is a HELP, a TYPE or a sample of a declared family; histograms are checked for shape.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace atout::server::testing {

struct MetricsPage {
  std::string error;                      // empty when the page is well formed
  std::map<std::string, double> samples;  // "name" or "name{labels}" exactly as written
  std::map<std::string, std::string> types;
};

// Hand-written rather than std::regex, which GCC 12 warns about under the sanitizers.
inline bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
inline bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

// Reads a metric name at `i`; empty when there is none.
inline std::string read_name(const std::string& line, std::size_t& i, bool colons = true) {
  const std::size_t start = i;
  if (i >= line.size() || !name_start(line[i]) || (!colons && line[i] == ':')) return {};
  while (i < line.size() && name_char(line[i]) && (colons || line[i] != ':')) ++i;
  return line.substr(start, i - start);
}

// Reads `{name="value",...}` at `i` (when there is one); false when malformed.
inline bool read_labels(const std::string& line, std::size_t& i) {
  if (i >= line.size() || line[i] != '{') return true;
  ++i;
  for (;;) {
    if (read_name(line, i, false).empty()) return false;
    if (line.compare(i, 2, "=\"") != 0) return false;
    i += 2;
    for (;;) {
      if (i >= line.size()) return false;
      if (line[i] == '\\') {
        if (i + 1 >= line.size() || (line[i + 1] != '\\' && line[i + 1] != '"' && line[i + 1] != 'n')) return false;
        i += 2;
        continue;
      }
      if (line[i] == '"') break;
      ++i;
    }
    ++i;
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    if (i < line.size() && line[i] == '}') {
      ++i;
      return true;
    }
    return false;
  }
}

inline MetricsPage parse_metrics(const std::string& text) {
  MetricsPage page;
  auto fail = [&](const std::string& line, const std::string& why) {
    page.error = why + ": '" + line + "'";
    return page;
  };
  if (text.empty() || text.back() != '\n') return fail(text.substr(0, 40), "the page must end with a newline");
  static const std::set<std::string> kTypes = {"counter", "gauge", "histogram", "summary", "untyped"};
  std::set<std::string> helped;
  std::istringstream in(text);
  std::string line;
  // Histogram state: the last bucket count per family.
  std::map<std::string, double> last_bucket;
  std::map<std::string, std::string> counts;  // histogram family -> its _count line
  while (std::getline(in, line)) {
    if (line.empty()) return fail(line, "empty line");
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      std::size_t i = 7;
      const std::string name = read_name(line, i);
      if (name.empty() || i >= line.size() || line[i] != ' ') return fail(line, "bad comment");
      const std::string rest = line.substr(i + 1);
      if (line[2] == 'H') {
        if (!helped.insert(name).second) return fail(line, "second HELP");
        continue;
      }
      if (!kTypes.count(rest)) return fail(line, "unknown type");
      if (page.types.count(name)) return fail(line, "second TYPE");
      page.types[name] = rest;
      continue;
    }
    if (line[0] == '#') return fail(line, "unknown comment");
    std::size_t i = 0;
    const std::string name = read_name(line, i);
    if (name.empty()) return fail(line, "not a sample");
    const std::size_t labels_start = i;
    if (!read_labels(line, i)) return fail(line, "bad labels");
    const std::string labels = line.substr(labels_start, i - labels_start);
    if (i >= line.size() || line[i] != ' ') return fail(line, "no value");
    const std::string value_text = line.substr(i + 1);
    if (value_text.empty() || value_text.find(' ') != std::string::npos) return fail(line, "bad value");
    double value = 0;
    if (value_text == "+Inf") {
      value = INFINITY;
    } else if (value_text == "-Inf") {
      value = -INFINITY;
    } else if (value_text == "NaN") {
      value = NAN;
    } else {
      char* end = nullptr;
      value = std::strtod(value_text.c_str(), &end);
      if (end != value_text.c_str() + value_text.size()) return fail(line, "bad value");
    }
    std::string family = name;
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
        const std::string base = name.substr(0, name.size() - s.size());
        if (page.types.count(base) && page.types[base] == "histogram") family = base;
      }
    }
    if (!page.types.count(family)) return fail(line, "sample of an undeclared family");
    if (page.types[family] == "counter" && !(value >= 0)) return fail(line, "negative counter");
    const std::string key = name + labels;
    if (!page.samples.emplace(key, value).second) return fail(line, "duplicate sample");
    if (name == family + "_bucket") {
      if (labels.find("le=\"") == std::string::npos) return fail(line, "bucket without le");
      if (value < last_bucket[family]) return fail(line, "buckets must not decrease");
      last_bucket[family] = value;
    }
    if (name == family + "_count" && page.types[family] == "histogram") counts[family] = line;
  }
  // A histogram's count may come before or after its buckets (prometheus-cpp writes it first), but
  // it must equal the +Inf bucket, which must be there.
  for (const auto& [family, count_line] : counts) {
    const auto inf = page.samples.find(family + "_bucket{le=\"+Inf\"}");
    if (inf == page.samples.end() || inf->second != page.samples[family + "_count"])
      return fail(count_line, "count differs from the +Inf bucket");
  }
  return page;
}

}  // namespace atout::server::testing
