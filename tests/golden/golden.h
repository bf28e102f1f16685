// Golden cases computed by NumPy (scripts/golden/gen_*.py) and committed as JSON under
// tests/golden/data/<family>.json.
// Format: {"cases": [{"name", "op", "params": {...}, "inputs": [T...], "expected": T}]}
// with T = {"dtype": "f32", "shape": [2, 3], "data": [...]}; NaN/Inf as "nan"/"inf"/"-inf";
// complex data interleaved: [re0, im0, re1, im1, ...].
#pragma once

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

struct GoldenCase {
  std::string name, op;
  nlohmann::json params;
  std::vector<Tensor> inputs;
  Tensor expected;
};

inline double golden_number(const nlohmann::json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    throw std::runtime_error("golden: bad number string " + s);
  }
  return v.get<double>();
}

// Builds a cpu tensor; 64-bit integers are read exactly.
inline Tensor golden_tensor(const nlohmann::json& j) {
  const DType dtype = dtype_from_name(j.at("dtype").get<std::string>());
  const Shape shape = j.at("shape").get<Shape>();
  const nlohmann::json& data = j.at("data");
  std::vector<std::byte> bytes(static_cast<std::size_t>(numel(shape)) * itemsize(dtype));
  // Complex data is interleaved (real, imaginary, ...): two numbers per element.
  const std::size_t numbers = is_complex(dtype) ? 2 : 1;
  if (data.size() * itemsize(dtype) != bytes.size() * numbers) {
    throw std::runtime_error("golden: data size does not match shape " + shape_str(shape));
  }
  if (is_complex(dtype)) {
    visit_complex_dtype(dtype, [&](auto tag) {
      using Z = typename decltype(tag)::type;
      using R = typename Z::value_type;
      for (std::size_t i = 0; i * 2 < data.size(); ++i) {
        const Z v(static_cast<R>(golden_number(data[2 * i])),
                  static_cast<R>(golden_number(data[2 * i + 1])));
        std::memcpy(bytes.data() + i * sizeof(Z), &v, sizeof(Z));
      }
    });
    return from_bytes(bytes, dtype, shape, &cpu());
  }
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < data.size(); ++i) {
      T v;
      if constexpr (std::is_same_v<T, std::uint64_t>) {
        v = data[i].get<std::uint64_t>();
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        v = data[i].get<std::int64_t>();
      } else {
        v = T(static_cast<compute_t<T>>(golden_number(data[i])));
      }
      std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
    }
  });
  return from_bytes(bytes, dtype, shape, &cpu());
}

// The folder of the golden data: VKT_GOLDEN_DIR in the environment wins (a build carried to
// another machine finds the data in its own checkout), else the checkout it was built from.
// Defined in golden_dir.cpp, the one file compiled with that path, so every other test
// compiles to the same object in any clone (and ccache reuses it).
std::string golden_dir();

inline std::vector<GoldenCase> load_golden(const std::string& family) {
  const std::string path = golden_dir() + "/" + family + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("golden: cannot open " + path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::vector<GoldenCase> cases;
  for (const auto& c : doc.at("cases")) {
    GoldenCase g;
    g.name = c.at("name").get<std::string>();
    g.op = c.at("op").get<std::string>();
    g.params = c.value("params", nlohmann::json::object());
    for (const auto& t : c.at("inputs")) g.inputs.push_back(golden_tensor(t));
    g.expected = golden_tensor(c.at("expected"));
    cases.push_back(std::move(g));
  }
  return cases;
}

}  // namespace vkt::testing
