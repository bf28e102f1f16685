#include "vulkan/compile/compiled_rows_variant.h"

#include <initializer_list>
#include <optional>
#include <string_view>

#include "vkt/error.h"
#include "vulkan/runtime/test_override.h"

namespace vkt::vk {
namespace {

constexpr const char* kChoices =
    "wg=64|128|256|512|1024, lanes=32|64|128|256, loop=unrolled|rolled, shuffle=1|0, "
    "hold=registers|shared, max=bits|combine, divide=row|plain, exp=proven|bits|plain, "
    "bounds=static|always, rare=once|inline, split=1|2|4, first=2|4, "
    "first_loop=unrolled|rolled, first_rare=flag|once, first_opt=driver|none";

[[noreturn]] void bad(std::string_view item, const std::string& why) {
  throw Error("[compile] row variant: '" + std::string(item) + "' " + why +
              " (choices: " + kChoices + ")");
}

std::uint32_t choice(std::string_view item, std::string_view value,
                     std::initializer_list<std::uint32_t> allowed) {
  for (std::uint32_t a : allowed) {
    if (value == std::to_string(a)) return a;
  }
  bad(item, "is not one of the choices");
}

void set(RowVariant& v, std::string_view item) {
  const std::size_t eq = item.find('=');
  if (eq == std::string_view::npos) bad(item, "has no '='");
  const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
  if (key == "wg") {
    v.workgroup = choice(item, value, {64, 128, 256, 512, 1024});
  } else if (key == "lanes") {
    v.max_lanes = choice(item, value, {32, 64, 128, 256});
  } else if (key == "loop") {
    if (value != "unrolled" && value != "rolled") bad(item, "is not loop=unrolled or loop=rolled");
    v.unrolled = value == "unrolled";
  } else if (key == "shuffle") {
    if (value != "1" && value != "0") bad(item, "is not shuffle=1 or shuffle=0");
    v.shuffle_only = value == "1";
  } else if (key == "hold") {
    if (value != "registers" && value != "shared")
      bad(item, "is not hold=registers or hold=shared");
    v.hold_shared = value == "shared";
  } else if (key == "max") {
    if (value != "bits" && value != "combine") bad(item, "is not max=bits or max=combine");
    v.bits_minmax = value == "bits";
  } else if (key == "divide") {
    if (value != "row" && value != "plain") bad(item, "is not divide=row or divide=plain");
    v.row_divisor = value == "row";
  } else if (key == "exp") {
    if (value == "proven") {
      v.exp = RowVariant::Exp::proven;
    } else if (value == "bits") {
      v.exp = RowVariant::Exp::bits;
    } else if (value == "plain") {
      v.exp = RowVariant::Exp::plain;
    } else {
      bad(item, "is not exp=proven, exp=bits or exp=plain");
    }
  } else if (key == "bounds") {
    if (value != "static" && value != "always") bad(item, "is not bounds=static or bounds=always");
    v.static_bounds = value == "static";
  } else if (key == "split") {
    v.split = choice(item, value, {1, 2, 4});
  } else if (key == "first") {
    v.first_split = choice(item, value, {2, 4});
  } else if (key == "first_loop") {
    if (value != "unrolled" && value != "rolled") {
      bad(item, "is not first_loop=unrolled or first_loop=rolled");
    }
    v.first_unrolled = value == "unrolled";
  } else if (key == "first_rare") {
    if (value != "flag" && value != "once") bad(item, "is not first_rare=flag or first_rare=once");
    v.first_rare_flag = value == "flag";
  } else if (key == "first_opt") {
    if (value != "driver" && value != "none")
      bad(item, "is not first_opt=driver or first_opt=none");
    v.first_optimized = value == "driver";
  } else if (key == "rare") {
    if (value != "once" && value != "inline") bad(item, "is not rare=once or rare=inline");
    v.rare_once = value == "once";
  } else {
    bad(item, "names no known key");
  }
}

}  // namespace

std::string RowVariant::text() const {
  return "wg=" + std::to_string(workgroup) + ",lanes=" + std::to_string(max_lanes) +
         ",loop=" + (unrolled ? "unrolled" : "rolled") + ",shuffle=" + (shuffle_only ? "1" : "0") +
         ",hold=" + (hold_shared ? "shared" : "registers") +
         ",max=" + (bits_minmax ? "bits" : "combine") +
         ",divide=" + (row_divisor ? "row" : "plain") + ",exp=" +
         (exp == Exp::proven ? "proven"
          : exp == Exp::bits ? "bits"
                             : "plain") +
         ",bounds=" + (static_bounds ? "static" : "always") +
         ",rare=" + (rare_once ? "once" : "inline") + ",split=" + std::to_string(split) +
         ",first=" + std::to_string(first_split) +
         ",first_loop=" + (first_unrolled ? "unrolled" : "rolled") +
         ",first_rare=" + (first_rare_flag ? "flag" : "once") +
         ",first_opt=" + (first_optimized ? "driver" : "none");
}

// Eager's geometry, today's kernel (the default each variant is measured against):
// one row of 4096 per 256-invocation workgroup, 16 values per lane, unrolled. Kept until the
// H200 sweep says otherwise: more rows per workgroup tie rows to each other's barriers,
// fewer lanes double the registers a lane holds (occupancy), and rolled loops put the row
// in local memory; each may still win there (fewer trees, less code), which is what
// vkt-bench chain --rows measures. Shuffles alone where a row is one subgroup
// (rows of 64 to 256 on the H200) are on: the same result with no barrier or shared memory.
// The arithmetic keys are on too: each is the same function with less work per element
// (softmax {4096, 4096} took much longer than layer norm on the H200; with them it ran
// markedly faster on the device than with none).
RowVariant default_row_variant() {
  return RowVariant{};
}

RowVariant parse_row_variant(const char* text) {
  RowVariant v = default_row_variant();
  if (text == nullptr) return v;
  std::string_view rest(text);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (!item.empty()) set(v, item);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return v;
}

namespace {
TestOverride<RowVariant> g_override;
}  // namespace

RowVariant row_variant() {
  return g_override.get().value_or(default_row_variant());
}

void testing::set_row_variant(const std::optional<RowVariant>& variant) {
  g_override.set(variant);
}

}  // namespace vkt::vk
