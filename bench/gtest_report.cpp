// A small JSON reader for googletest's reports: the bench links no JSON library, and the
// reports need only objects, arrays, strings and bare literals.
#include "gtest_report.h"

#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace vkt::bench {
namespace {

struct Json {
  enum class Kind { object, array, string, literal } kind = Kind::literal;
  std::string text;                                                    // string or literal
  std::vector<std::pair<std::string, std::shared_ptr<Json>>> members;  // object
  std::vector<std::shared_ptr<Json>> items;                            // array

  const Json* get(const std::string& key) const {
    for (const auto& [k, v] : members) {
      if (k == key) return v.get();
    }
    return nullptr;
  }
};

class Parser {
 public:
  Parser(std::string text, std::string file) : s_(std::move(text)), file_(std::move(file)) {}

  std::shared_ptr<Json> value() {
    skip();
    auto v = std::make_shared<Json>();
    const char c = peek();
    if (c == '{') {
      v->kind = Json::Kind::object;
      ++i_;
      if (next_is('}')) return v;
      do {
        skip();
        std::string key = string();
        skip();
        expect(':');
        v->members.emplace_back(std::move(key), value());
      } while (next_is(','));
      expect('}');
    } else if (c == '[') {
      v->kind = Json::Kind::array;
      ++i_;
      if (next_is(']')) return v;
      do {
        v->items.push_back(value());
      } while (next_is(','));
      expect(']');
    } else if (c == '"') {
      v->kind = Json::Kind::string;
      v->text = string();
    } else {
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) != 0 ||
                                s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.')) {
        v->text += s_[i_++];
      }
      if (v->text.empty()) fail("unexpected character");
    }
    return v;
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])) != 0) ++i_;
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool next_is(char c) {
    skip();
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  void expect(char c) {
    if (!next_is(c)) fail(std::string("expected '") + c + "'");
  }
  // Escapes are kept as written: test names and outcomes have none, and messages are unread.
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) out += s_[i_++];
      out += s_[i_++];
    }
    expect('"');
    return out;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("[coverage] '" + file_ + "' is not a googletest JSON report: " + what +
                             " at byte " + std::to_string(i_));
  }

  std::string s_, file_;
  std::size_t i_ = 0;
};

std::string text_of(const Json* j) {
  return j != nullptr ? j->text : std::string();
}

// googletest writes status RUN or NOTRUN, result COMPLETED, SKIPPED or SUPPRESSED, and a
// "failures" array only when an expectation failed.
std::string outcome(const Json& test) {
  if (test.get("failures") != nullptr) return "failed";
  if (text_of(test.get("status")) == "RUN" && text_of(test.get("result")) == "COMPLETED") {
    return "passed";
  }
  return "skipped";
}

int rank(const std::string& outcome) {
  return outcome == "failed" ? 2 : outcome == "passed" ? 1 : 0;
}

}  // namespace

std::map<std::string, std::string> read_gtest_reports(const std::vector<std::string>& files) {
  std::map<std::string, std::string> out;
  for (const std::string& file : files) {
    std::ifstream f(file);
    if (!f) throw std::runtime_error("[coverage] cannot read '" + file + "'");
    std::stringstream text;
    text << f.rdbuf();
    const std::shared_ptr<Json> root = Parser(text.str(), file).value();
    const Json* suites = root->get("testsuites");
    if (suites == nullptr || suites->kind != Json::Kind::array) {
      throw std::runtime_error("[coverage] '" + file + "' has no \"testsuites\" array");
    }
    for (const auto& suite : suites->items) {
      const Json* tests = suite->get("testsuite");
      if (tests == nullptr) continue;
      for (const auto& test : tests->items) {
        const std::string name = text_of(test->get("classname")) + "." + text_of(test->get("name"));
        const std::string result = outcome(*test);
        auto [it, fresh] = out.emplace(name, result);
        if (!fresh && rank(result) > rank(it->second)) it->second = result;
      }
    }
  }
  return out;
}

}  // namespace vkt::bench
