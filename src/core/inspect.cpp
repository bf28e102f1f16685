// inspect: a tensor printed as Nx prints it (Nx.Tensor's Inspect and Nx.Backend.inspect):
// type and shape, the backend of a device tensor, then the values nested per axis, elided
// with "..." after `limit` values.
// Only the first limit + 1 elements are read (a partial read from a device).
#include <charconv>
#include <cmath>
#include <complex>
#include <cstring>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/checks.h"
#include "core/narrow.h"
#include "vkt/tensor.h"

namespace vkt {
namespace {

// The shortest decimal digits that read back as `v` in its own type T (which may be a half
// type): digits without trailing zeros and the power of ten of the last digit.
// `reads_back(d)` says whether the decimal d reads back as |v|.
template <class ReadsBack>
std::pair<std::string, int> shortest_digits_of(double x, const ReadsBack& reads_back) {
  char buf[64];
  for (int precision = 0; precision < 17; ++precision) {
    const auto res =
        std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific, precision);
    double back = 0;
    std::from_chars(buf, res.ptr, back, std::chars_format::scientific);
    if (!reads_back(back) && precision < 16) continue;
    // buf: d[.ddd]e[+-]XX
    std::string mantissa, exponent;
    const char* p = buf;
    for (; p < res.ptr && *p != 'e'; ++p) {
      if (*p != '.') mantissa += *p;
    }
    exponent.assign(p + 1, static_cast<const char*>(res.ptr));
    int exp10 = std::stoi(exponent) - static_cast<int>(mantissa.size() - 1);
    while (mantissa.size() > 1 && mantissa.back() == '0') {
      mantissa.pop_back();
      ++exp10;
    }
    return {mantissa, exp10};
  }
  return {"0", 0};
}

template <class T>
std::pair<std::string, int> shortest_digits(T v) {
  const double x = std::fabs(static_cast<double>(v));
  return shortest_digits_of(x, [&](double back) {
    if constexpr (std::is_same_v<T, double>) {
      return back == x;
    } else {
      return static_cast<double>(static_cast<float>(T(static_cast<float>(back)))) == x;
    }
  });
}

// Nx.Ryu's insert_decimal (Erlang's short float format): plain digits or scientific,
// whichever is shorter. Single-digit scientific is "1e30" for Nx's Ryu (f16, bf16, f32) and
// "1.0e30" for f64 (Erlang's Float.to_string).
std::string insert_decimal(int place, const std::string& s, bool f64) {
  const int l = static_cast<int>(s.size());
  const int exp = place + l - 1;
  const std::string exp_l = std::to_string(exp);
  const int exp_cost = static_cast<int>(exp_l.size()) + 2;
  auto insert_exp = [&] {
    if (l == 1) return s + (f64 ? ".0e" : "e") + exp_l;
    return s.substr(0, 1) + "." + s.substr(1) + "e" + exp_l;
  };
  if (place < 0) {
    if (exp >= 0) {
      const int split = l + place;
      if (split > 0 && split < l) return s.substr(0, split) + "." + s.substr(split);
      return insert_exp();
    }
    if (2 - place - l <= exp_cost) return "0." + std::string(-place - l, '0') + s;
    return insert_exp();
  }
  const int dot = l == 1 ? 1 : 0;
  if (exp_cost + dot >= place + 2) return s + std::string(place, '0') + ".0";
  return insert_exp();
}

template <class T>
std::string number_str(T v) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    const float f = static_cast<float>(v);
    const double d = std::is_same_v<T, double> ? static_cast<double>(v) : static_cast<double>(f);
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d < 0 ? "-Inf" : "Inf";
    const std::string sign = std::signbit(d) ? "-" : "";
    if (d == 0) return sign + "0.0";
    const auto [digits, place] = shortest_digits(v);
    return sign + insert_decimal(place, digits, std::is_same_v<T, double>);
  }
}

// A narrow dtype's elements from Nx's binary: integers, or the shortest decimals that read
// back as the same 8-bit float.
std::vector<std::string> narrow_values(DType d, std::span<const std::byte> binary, std::size_t n) {
  std::vector<std::uint8_t> codes(n);
  detail::unpack_narrow(d, binary, codes);
  std::vector<std::string> out;
  for (std::uint8_t c : codes) {
    if (is_integer(d)) {
      out.push_back(std::to_string(narrow_to_int(d, c)));
      continue;
    }
    const double v = narrow_to_double(d, c);
    if (std::isnan(v) || std::isinf(v) || v == 0) {
      out.push_back(number_str(v));
      continue;
    }
    const std::uint8_t magnitude = c & 0x7f;
    const auto [digits, place] = shortest_digits_of(
        std::fabs(v), [&](double back) { return narrow_from_double(d, back) == magnitude; });
    out.push_back((std::signbit(v) ? "-" : "") + insert_decimal(place, digits, false));
  }
  return out;
}

// Complex numbers as Nx's Complex prints them: "1.0+2.0i", "1.0-2.0i", "NaN+Infi".
template <class R>
std::string number_str(std::complex<R> v) {
  const std::string im = number_str(v.imag());
  const bool has_sign = !im.empty() && im[0] == '-';
  return number_str(v.real()) + (has_sign ? "" : "+") + im + "i";
}

// Builds the nested lists the way Nx's chunk/chunk_each do: `budget` counts the values
// still to print; when it reaches 0 with entries left, "..." closes the list.
struct Printer {
  const std::vector<std::string>& values;
  const Shape& shape;
  std::size_t next = 0;
  std::int64_t budget;
  std::string out;

  void newline(int indent) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent), ' ');
  }

  void chunk(std::size_t axis, int indent) {
    if (axis == shape.size()) {
      out += values[next++];
      --budget;
      return;
    }
    const bool innermost = axis + 1 == shape.size();
    out += '[';
    if (!innermost) newline(indent + 2);
    for (std::int64_t i = 0; i < shape[axis]; ++i) {
      if (i > 0) {
        out += ',';
        if (innermost) {
          out += ' ';
        } else {
          newline(indent + 2);
        }
      }
      if (budget == 0) {
        out += "...";
        break;
      }
      chunk(axis + 1, indent + 2);
    }
    if (!innermost) newline(indent);
    out += ']';
  }
};

}  // namespace

std::string inspect(const Tensor& t, std::int64_t limit) {
  detail::check_defined("inspect", t);
  if (limit < 0) detail::fail<ShapeError>("inspect", "limit " + std::to_string(limit) + " < 0");
  std::string header = "#Nx.Tensor<\n  " + std::string(dtype_name(t.dtype()));
  for (std::int64_t d : t.shape()) header += "[" + std::to_string(d) + "]";
  // A device tensor names its backend on a line of its own, as EXLA's inspect does; the
  // cpu, like Nx.BinaryBackend, adds nothing.
  if (!t.backend().is_cpu()) header += "\n  vktensor.Backend<" + t.backend().name() + ">";
  // Nx reads limit + 1 values: enough to know whether "..." follows.
  const std::int64_t wanted = limit < t.size() ? limit + 1 : t.size();
  const std::vector<std::byte> bytes = t.to_bytes(wanted);
  std::vector<std::string> values(static_cast<std::size_t>(wanted));
  if (is_narrow(t.dtype())) {
    values = narrow_values(t.dtype(), bytes, values.size());
  } else {
    visit_any_dtype(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (std::size_t i = 0; i < values.size(); ++i) {
        T v;
        std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
        values[i] = number_str(v);
      }
    });
  }
  Printer printer{values, t.shape(), 0, limit, {}};
  printer.chunk(0, 2);
  return header + "\n  " + printer.out + "\n>";
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  return os << inspect(t);
}

}  // namespace vkt
