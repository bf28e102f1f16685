// The row kernel's shape (compiled_rows.cpp): the default, or a variant that tests set
// (testing.h set_row_variant) and vkt-bench chain --rows "key=value,key=value" sweeps, with
//   wg=64|128|...|1024      invocations per workgroup (whole rows per workgroup; below 256
//                           it also caps the invocations per row, as lanes= does)
//   lanes=32|64|128|256     invocations per row at most: each then holds the elements of
//                           eager's lanes / lanes of eager's lanes (more values per lane)
//   loop=unrolled|rolled    the per-lane loops unrolled, or kept as loops ([[dont_unroll]]:
//                           less code for the driver to compile, the row in local memory)
//   shuffle=1|0             a row whose invocations are one subgroup combined by shuffles
//                           alone (no shared memory, no barrier), or by eager's tree
//   hold=registers|shared   where the values read again later live: each invocation's
//                           arrays (registers, or local memory when rolled), or shared
//                           memory (rolled loops without local memory; where they fit)
// and the per-element arithmetic (compiled_rows_math.glsl), each the same function:
//   max=bits|combine        reduce_max/min of a float row: each lane's elements from the
//                           integer extremes of their bits (a lane holding a NaN redoes
//                           eager's combine, which decides which NaN wins), or eager's combine
//   divide=row|plain        x / (a per-row value): the divisor's tests and reciprocal once
//                           per row, or div_f32 per element
//   exp=proven|bits|plain   exp: er 2^n on the exponent bits where normal, without the
//                           overflow test where the argument is x - max(x) (<= 0 or NaN);
//                           bits: the scaling only; plain: exp_f32
//   bounds=static|always    the row and column tests left out where the grid and the lanes
//                           divide the rows evenly, or always written
//   split=1|2|4             invocations per one of eager's lanes: 2 halves the elements each
//                           holds (and the code the driver compiles), the second half folding
//                           on from the first's value through shared memory; where each part
//                           gets whole steps of four and a row's lanes fill whole subgroups
//   first=2|4               the split of the kernel a tiered first call runs
//                           (compile_tiers()): 4 gives the driver a quarter of the
//                           per-element code, its sums folding through four parts, yet its
//                           first calls were slower on the H200
//   first_loop=unrolled|rolled  that kernel's loops (rolled: less code still, the row in
//                           local memory; no clear gain on the H200)
//   first_rare=flag|once    the first tier's rare paths (rare=once's three): each only sets
//                           a flag that the host reads after the run, which then runs the
//                           full kernel again where one was met (the driver spends much less
//                           time compiling the kernel on the H200); or written once
//   first_opt=driver|none   that kernel's pipeline optimized by the driver, or created with
//                           VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT (less driver time
//                           for a kernel run a few times; the same SPIR-V, so eager's bits)
//   rare=once|inline        the rare paths written once per lane, not once per held element:
//                           a row divide's slow operands redone by one rolled loop after the
//                           last phase's, a NaN lane's max/min as its first NaN, exp's
//                           underflow scaling selected without a branch; or each inline
//                           (the driver's compile time grows with the copies on the H200)
// Today's kernel before the variants: wg=256,lanes=256,loop=unrolled,shuffle=0, and before
// the arithmetic ones: max=combine,divide=plain,exp=plain,bounds=always,rare=inline.
// Every variant keeps eager's combine order and functions, so results stay eager's bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace vkt::vk {

struct RowVariant {
  std::uint32_t workgroup = 256;
  std::uint32_t max_lanes = 256;
  bool unrolled = true;
  bool shuffle_only = true;
  bool hold_shared = false;
  enum class Exp { plain, bits, proven };
  bool bits_minmax = true;
  bool row_divisor = true;
  Exp exp = Exp::proven;
  bool static_bounds = true;
  bool rare_once = true;
  std::uint32_t split = 1;
  std::uint32_t first_split = 2;
  bool first_unrolled = true;
  bool first_rare_flag = true;
  bool first_optimized = true;
  // Set on the first tier's variant only (not a key): rare paths set `rare_` instead, and the
  // kernel writes it to one more buffer (compiled_rows.cpp). Its results are then not eager's.
  bool rare_flag = false;
  bool operator==(const RowVariant&) const = default;
  // "wg=256,lanes=256,loop=unrolled,shuffle=1,hold=registers,max=bits,divide=row,exp=proven,
  // bounds=static,rare=once,split=1,first=2,first_loop=unrolled,first_rare=flag,first_opt=driver"
  std::string text() const;
};

// The default, reasoned in compiled_rows_variant.cpp.
RowVariant default_row_variant();

// `text` ("" or null: the default) as a variant; a key given twice takes the later value.
// An unknown key, a missing '=' or a value out of the key's choices throws vkt::Error
// naming the row variant, the item and the choices.
RowVariant parse_row_variant(const char* text);

// The variant set_row_variant installed, else the default.
RowVariant row_variant();

namespace testing {
// vkt::compile's row kernels compiled from now on take `variant` in place of the default
// (nullopt: back to it); kernels compiled before keep theirs. Tests and vkt-bench chain --rows.
void set_row_variant(const std::optional<RowVariant>& variant);
}  // namespace testing

}  // namespace vkt::vk
