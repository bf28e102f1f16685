// Golden cases holding complex tensors (scripts/golden/gen_complex_data.py): a c64/c128
// tensor's "data" is its parts interleaved (re, im, re, im, ...); real tensors as golden.h.
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "golden/golden.h"

namespace vkt::testing {

inline Tensor complex_golden_tensor(const nlohmann::json& j) {
  const DType dtype = dtype_from_name(j.at("dtype").get<std::string>());
  if (!is_complex(dtype)) return golden_tensor(j);
  const Shape shape = j.at("shape").get<Shape>();
  const nlohmann::json& data = j.at("data");
  if (data.size() != 2 * static_cast<std::size_t>(numel(shape))) {
    throw std::runtime_error("golden: complex data size does not match shape " + shape_str(shape));
  }
  return visit_complex_dtype(dtype, [&](auto tag) {
    using C = typename decltype(tag)::type;
    using R = typename C::value_type;
    std::vector<C> v(static_cast<std::size_t>(numel(shape)));
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i] = C(static_cast<R>(golden_number(data[2 * i])),
               static_cast<R>(golden_number(data[2 * i + 1])));
    }
    return from_vector(v, shape, &cpu());
  });
}

inline std::vector<GoldenCase> load_complex_golden(const std::string& family) {
  const char* env_dir = std::getenv("VKT_GOLDEN_DIR");
  const std::string dir = env_dir != nullptr ? env_dir : VKT_GOLDEN_DIR;
  const std::string path = dir + "/" + family + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("golden: cannot open " + path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::vector<GoldenCase> cases;
  for (const auto& c : doc.at("cases")) {
    GoldenCase g;
    g.name = c.at("name").get<std::string>();
    g.op = c.at("op").get<std::string>();
    g.params = c.value("params", nlohmann::json::object());
    for (const auto& t : c.at("inputs")) g.inputs.push_back(complex_golden_tensor(t));
    g.expected = complex_golden_tensor(c.at("expected"));
    cases.push_back(std::move(g));
  }
  return cases;
}

}  // namespace vkt::testing
