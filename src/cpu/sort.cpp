// sort, argsort, top_k on the cpu. Each line along the axis becomes (key, index) items
// (sort_keys.h) sorted ascending by key then index: stable in both directions, NaN and
// -0.0 as NumPy. Long lines use an LSD radix sort on the key bytes, short ones std::sort;
// lines run in parallel.
#include <algorithm>
#include <vector>

#include "cpu/kernels.h"
#include "cpu/sort_keys.h"

namespace vkt::cpu_kernels {
namespace {

// Item for keys of up to 32 bits and lines shorter than 2^32: key in the high half, index
// in the low half, so plain u64 order is (key, index) order.
struct PackedItems {
  using Item = std::uint64_t;
  static Item make(std::uint64_t key, std::int64_t idx) {
    return (key << 32) | static_cast<std::uint64_t>(idx);
  }
  static std::uint64_t key(Item it) { return it >> 32; }
  static std::int64_t index(Item it) { return static_cast<std::int64_t>(it & 0xffffffffu); }
  static bool less(Item x, Item y) { return x < y; }
  static constexpr int key_bytes = 4;
};

struct WideItem {
  std::uint64_t key;
  std::int64_t idx;
};
struct WideItems {
  using Item = WideItem;
  static Item make(std::uint64_t key, std::int64_t idx) { return {key, idx}; }
  static std::uint64_t key(const Item& it) { return it.key; }
  static std::int64_t index(const Item& it) { return it.idx; }
  static bool less(const Item& x, const Item& y) {
    return x.key < y.key || (x.key == y.key && x.idx < y.idx);
  }
  static constexpr int key_bytes = 8;
};

// Below this length a comparison sort beats the radix sort's fixed passes.
constexpr std::int64_t kRadixMin = 512;

// Stable LSD radix sort by key (items arrive in index order, so equal keys stay in index
// order). One pass counts every byte's digits; passes whose byte is the same for every item
// are skipped.
template <class I>
void radix_sort(typename I::Item* a, typename I::Item* tmp, std::int64_t n) {
  using Item = typename I::Item;
  std::int64_t count[I::key_bytes][256] = {};
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t key = I::key(a[i]);
    for (int byte = 0; byte < I::key_bytes; ++byte) ++count[byte][(key >> (8 * byte)) & 0xff];
  }
  Item* src = a;
  Item* dst = tmp;
  for (int byte = 0; byte < I::key_bytes; ++byte) {
    std::int64_t* c = count[byte];
    if (c[(I::key(src[0]) >> (8 * byte)) & 0xff] == n) continue;
    std::int64_t offset = 0;
    for (int d = 0; d < 256; ++d) {
      const std::int64_t digits = c[d];
      c[d] = offset;
      offset += digits;
    }
    const int shift = 8 * byte;
    for (std::int64_t i = 0; i < n; ++i) dst[c[(I::key(src[i]) >> shift) & 0xff]++] = src[i];
    std::swap(src, dst);
  }
  if (src != a) std::copy(src, src + n, a);
}

struct LineGeometry {
  std::int64_t lines, len, inner;  // line l starts at (l / inner) * len * inner + l % inner
  std::int64_t start(std::int64_t l) const { return (l / inner) * len * inner + l % inner; }
};

LineGeometry geometry(const Shape& shape, std::int64_t axis) {
  if (shape.empty()) return {1, 1, 1};
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const std::int64_t len = shape[static_cast<std::size_t>(axis)];
  return {outer * inner, len, inner};
}

template <class T, class I>
void sort_lines(const OpCall& call, const Tensor& out, const LineGeometry& g, bool descending,
                std::int64_t k) {
  using Item = typename I::Item;
  const T* in = data<T>(call.inputs[0]);
  const std::uint64_t flip = descending ? ~std::uint64_t{0} >> (64 - 8 * I::key_bytes) : 0;
  const std::int64_t grain = std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(g.len, 1));
  parallel_for(g.lines, grain, [&](std::int64_t begin, std::int64_t end) {
    std::vector<Item> items(static_cast<std::size_t>(g.len)), tmp;
    for (std::int64_t l = begin; l < end; ++l) {
      const T* line = in + g.start(l);
      for (std::int64_t j = 0; j < g.len; ++j) {
        items[static_cast<std::size_t>(j)] = I::make(sort_key(line[j * g.inner]) ^ flip, j);
      }
      if (call.op == Op::top_k && k < g.len / 8) {
        // Only the k first of the order matter.
        std::nth_element(items.begin(), items.begin() + k, items.end(), I::less);
        std::sort(items.begin(), items.begin() + k, I::less);
      } else if (g.len >= kRadixMin) {
        tmp.resize(items.size());
        radix_sort<I>(items.data(), tmp.data(), g.len);
      } else {
        std::sort(items.begin(), items.end(), I::less);
      }
      switch (call.op) {
        case Op::sort: {
          T* o = mutable_data<T>(out) + g.start(l);
          for (std::int64_t j = 0; j < g.len; ++j) {
            o[j * g.inner] = line[I::index(items[static_cast<std::size_t>(j)]) * g.inner];
          }
          break;
        }
        case Op::argsort: {
          std::int64_t* o = mutable_data<std::int64_t>(out) + g.start(l);
          for (std::int64_t j = 0; j < g.len; ++j) {
            o[j * g.inner] = I::index(items[static_cast<std::size_t>(j)]);
          }
          break;
        }
        default: {  // top_k: the axis is the last one, the output line has k elements
          std::int64_t* o = mutable_data<std::int64_t>(out) + l * k;
          for (std::int64_t j = 0; j < k; ++j) o[j] = I::index(items[static_cast<std::size_t>(j)]);
          break;
        }
      }
    }
  });
}

}  // namespace

Tensor run_sort(const OpCall& call) {
  Tensor out = make_output(call);
  const Tensor& t = call.inputs[0];
  LineGeometry g;
  bool descending = true;
  std::int64_t k = 0;
  switch (call.op) {
    case Op::sort:
    case Op::argsort: {
      const SortParams& p = call.get<SortParams>();
      g = geometry(t.shape(), p.axis);
      descending = p.descending;
      break;
    }
    case Op::top_k:
      g = geometry(t.shape(), t.rank() - 1);
      k = call.get<TopKParams>().k;
      break;
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a sort op");
  }
  if (t.size() == 0 || out.size() == 0) return out;
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (sizeof(sort_key_t<T>) <= 4 && g.len <= (std::int64_t{1} << 32)) {
      sort_lines<T, PackedItems>(call, out, g, descending, k);
    } else {
      sort_lines<T, WideItems>(call, out, g, descending, k);
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
