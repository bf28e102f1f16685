#include "csv.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vkt::bench {

std::string csv_escape(const std::string& f) {
  if (f.find_first_of(",\"\n") == std::string::npos) return f;
  std::string out = "\"";
  for (char c : f) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw std::runtime_error("cannot write '" + path + "': folder '" + dir.string() +
                             "' does not exist");
  }
  const fs::path probe = dir / (".vkt-bench-probe-" + std::to_string(::getpid()));
  {
    std::ofstream f(probe);
    if (!f) throw std::runtime_error("cannot write '" + path + "': folder is not writable");
  }
  fs::remove(probe, ec);
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  if (rows.empty()) throw std::runtime_error("no rows to write to '" + path + "'");
  const std::string tmp = path + ".partial";
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error("cannot write '" + tmp + "'");
    for (std::size_t i = 0; i < rows[0].size(); ++i)
      f << (i ? "," : "") << csv_escape(rows[0][i].first);
    f << "\n";
    for (const Row& r : rows) {
      for (std::size_t i = 0; i < r.size(); ++i) f << (i ? "," : "") << csv_escape(r[i].second);
      f << "\n";
    }
    if (!f) throw std::runtime_error("write to '" + tmp + "' failed");
  }
  std::filesystem::rename(tmp, path);
}

namespace {
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}
}  // namespace

std::vector<Row> read_csv(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read '" + path + "'");
  std::string line;
  if (!std::getline(f, line)) throw std::runtime_error("'" + path + "' is empty");
  const std::vector<std::string> header = split_csv_line(line);
  std::vector<Row> rows;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = split_csv_line(line);
    Row r;
    for (std::size_t i = 0; i < header.size(); ++i)
      r.emplace_back(header[i], i < cells.size() ? cells[i] : "");
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string field(const Row& row, const std::string& key) {
  for (const auto& [k, v] : row) {
    if (k == key) return v;
  }
  return "";
}

std::string fmt_num(double v, int precision) {
  std::ostringstream s;
  s.precision(precision);
  s << std::fixed << v;
  return s.str();
}

}  // namespace vkt::bench
