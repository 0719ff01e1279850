// A strict reader of the Prometheus text exposition format 0.0.4, for the metrics tests: every
// line is a HELP, a TYPE or a sample of a declared family; histograms are checked for shape.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace atout::server::testing {

struct metrics_page {
  std::string error;                      // empty when the page is well formed
  std::map<std::string, double> samples;  // "name" or "name{labels}" exactly as written
  std::map<std::string, std::string> types;
};

inline metrics_page parse_metrics(const std::string& text) {
  metrics_page page;
  auto fail = [&](const std::string& line, const std::string& why) {
    page.error = why + ": '" + line + "'";
    return page;
  };
  if (text.empty() || text.back() != '\n') return fail(text.substr(0, 40), "the page must end with a newline");
  static const std::regex kHelp(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*))");
  static const std::regex kType(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped))");
  static const std::regex kSample(
      R"(([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*\})? ([^ ]+))");
  std::set<std::string> helped;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  // Histogram state: the last bucket count per family and label set without `le`.
  std::map<std::string, double> last_bucket;
  while (std::getline(in, line)) {
    if (line.empty()) return fail(line, "empty line");
    if (std::regex_match(line, m, kHelp)) {
      if (!helped.insert(m[1]).second) return fail(line, "second HELP");
      continue;
    }
    if (std::regex_match(line, m, kType)) {
      if (page.types.count(m[1])) return fail(line, "second TYPE");
      page.types[m[1]] = m[2];
      continue;
    }
    if (line[0] == '#') return fail(line, "unknown comment");
    if (!std::regex_match(line, m, kSample)) return fail(line, "not a sample");
    const std::string name = m[1];
    const std::string labels = m[2];
    const std::string value_text = m[3];
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
    if (name == family + "_count" && page.types[family] == "histogram") {
      const auto inf = page.samples.find(family + "_bucket{le=\"+Inf\"}");
      if (inf == page.samples.end() || inf->second != value) return fail(line, "count differs from the +Inf bucket");
    }
  }
  return page;
}

}  // namespace atout::server::testing
