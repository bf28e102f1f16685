#include "vulkan/compile/glsl_prune.h"

#include <cctype>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace vkt::vk {
namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// A top-level function definition: its name and the text from its header to its closing brace.
struct Definition {
  std::string_view name;
  std::size_t begin, end;
};

// The name a function definition's header declares (`float f(float a, int b)`), or empty
// where the header is not one (a block, struct or initialiser ends otherwise).
std::string_view defined_name(std::string_view header) {
  std::size_t end = header.size();
  while (end > 0 && std::isspace(static_cast<unsigned char>(header[end - 1])) != 0) --end;
  if (end == 0 || header[end - 1] != ')') return {};
  int depth = 0;
  std::size_t open = end;
  while (open > 0) {
    const char c = header[--open];
    if (c == ')') ++depth;
    if (c == '(' && --depth == 0) break;
  }
  if (depth != 0) return {};
  std::size_t name_end = open;
  while (name_end > 0 && std::isspace(static_cast<unsigned char>(header[name_end - 1])) != 0) {
    --name_end;
  }
  std::size_t name_begin = name_end;
  while (name_begin > 0 && ident_char(header[name_begin - 1])) --name_begin;
  const std::string_view name = header.substr(name_begin, name_end - name_begin);
  if (name.empty() || !ident_start(name.front()) || name == "layout") return {};
  return name;
}

// Every identifier in `text` that is followed by '(' (calls, constructors, built-ins).
std::vector<std::string_view> called_names(std::string_view text) {
  std::vector<std::string_view> names;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {  // 1e5, 0x1fu: not identifiers
      while (i < text.size() && (ident_char(text[i]) || text[i] == '.')) ++i;
      continue;
    }
    if (!ident_start(c)) {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < text.size() && ident_char(text[i])) ++i;
    std::size_t next = i;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next])) != 0) ++next;
    if (next < text.size() && text[next] == '(') names.push_back(text.substr(begin, i - begin));
  }
  return names;
}

}  // namespace

std::optional<std::string> prune_unreached_functions(std::string_view src) {
  std::vector<Definition> definitions;
  std::vector<std::pair<std::size_t, std::size_t>> globals;  // top-level text outside them
  std::size_t item = 0;  // where the current top-level declaration or definition began
  std::size_t open = 0;
  std::string_view open_name;
  int depth = 0;
  bool line_start = true;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      while (i + 1 < src.size() && src[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      const std::size_t close = src.find("*/", i + 2);
      if (close == std::string_view::npos) return std::nullopt;
      i = close + 1;
      continue;
    }
    if (c == '#' && line_start) {  // a directive runs to its line's end (continuations too)
      while (i + 1 < src.size() && (src[i + 1] != '\n' || src[i] == '\\')) ++i;
      if (depth == 0) item = i + 1;
      continue;
    }
    if (c == '\n') {
      line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) == 0) line_start = false;
    if (c == '{') {
      if (depth == 0) {
        open = item;
        open_name = defined_name(src.substr(item, i - item));
      }
      ++depth;
    } else if (c == '}') {
      if (depth == 0) return std::nullopt;
      if (--depth == 0) {
        if (!open_name.empty()) {
          definitions.push_back({open_name, open, i + 1});
        } else {
          globals.emplace_back(open, i + 1);
        }
        item = i + 1;
      }
    } else if (c == ';' && depth == 0) {
      globals.emplace_back(item, i + 1);
      item = i + 1;
    }
  }
  if (depth != 0) return std::nullopt;

  std::map<std::string_view, std::vector<std::size_t>> by_name;
  for (std::size_t d = 0; d < definitions.size(); ++d) by_name[definitions[d].name].push_back(d);
  if (by_name.find("main") == by_name.end()) return std::nullopt;
  std::vector<bool> reached(definitions.size(), false);
  std::vector<std::string_view> pending{"main"};
  for (const auto& [begin, end] : globals) {
    for (std::string_view n : called_names(src.substr(begin, end - begin))) pending.push_back(n);
  }
  while (!pending.empty()) {
    const std::string_view name = pending.back();
    pending.pop_back();
    const auto it = by_name.find(name);
    if (it == by_name.end()) continue;
    for (std::size_t d : it->second) {
      if (reached[d]) continue;
      reached[d] = true;
      const Definition& def = definitions[d];
      for (std::string_view n : called_names(src.substr(def.begin, def.end - def.begin))) {
        pending.push_back(n);
      }
    }
  }
  std::string out;
  out.reserve(src.size());
  std::size_t copied = 0;
  for (std::size_t d = 0; d < definitions.size(); ++d) {  // in source order
    if (reached[d]) continue;
    out.append(src.substr(copied, definitions[d].begin - copied));
    for (std::size_t i = definitions[d].begin; i < definitions[d].end; ++i) {
      if (src[i] == '\n') out += '\n';
    }
    copied = definitions[d].end;
  }
  out.append(src.substr(copied));
  return out;
}

}  // namespace vkt::vk
