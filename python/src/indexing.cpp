// x[key]: each key entry becomes a slice (with strides), a reverse for negative steps, a
// squeeze for integers, a reshape for None and a take for an integer array.
#include "indexing.h"

#include <algorithm>
#include <vector>

namespace vkt::python {
namespace {

std::int64_t index_at(py::handle i, std::int64_t size, std::size_t axis) {
  const auto v = i.cast<std::int64_t>();
  const std::int64_t k = v < 0 ? v + size : v;
  if (k < 0 || k >= size) {
    throw AxisError("[getitem] index " + std::to_string(v) + " is out of range for axis " +
                    std::to_string(axis) + " of size " + std::to_string(size));
  }
  return k;
}

bool is_index_array(py::handle k) {
  return py::isinstance<Tensor>(k) || py::isinstance<py::array>(k) || py::isinstance<py::list>(k);
}

bool is_boolean_array(py::handle k) {
  if (py::isinstance<Tensor>(k) || !is_index_array(k)) return false;
  return py::module_::import("numpy")
             .attr("asarray")(k)
             .attr("dtype")
             .attr("kind")
             .cast<std::string>() == "b";
}

// x[mask]: the elements (or sub-arrays) where the mask, over x's leading axes, is true. The
// result's length depends on the mask's data, which is read on the host (it is a NumPy array
// or list already).
Tensor masked(const Tensor& t, py::handle key) {
  py::module_ np = py::module_::import("numpy");
  const py::array mask = np.attr("asarray")(key);
  const auto rank = static_cast<std::size_t>(mask.ndim());
  bool fits = rank <= t.shape().size();
  for (std::size_t a = 0; fits && a < rank; ++a) {
    fits = mask.shape(static_cast<py::ssize_t>(a)) == t.shape()[a];
  }
  if (!fits) {
    throw AxisError("[getitem] boolean mask of shape " +
                    py::str(mask.attr("shape")).cast<std::string>() +
                    " does not match the leading axes of " + std::string(dtype_name(t.dtype())) +
                    shape_str(t.shape()));
  }
  Shape flat = {-1};
  flat.insert(flat.end(), t.shape().begin() + static_cast<std::ptrdiff_t>(rank), t.shape().end());
  const Tensor where = tensor_arg(np.attr("flatnonzero")(mask).attr("astype")("int64"));
  return take(reshape(t, flat), transfer(where, t.backend()), 0);
}

}  // namespace

Tensor getitem(const Tensor& t, py::handle key) {
  if (is_boolean_array(key)) return masked(t, key);
  std::vector<py::handle> keys;
  if (py::isinstance<py::tuple>(key)) {
    for (py::handle k : key) keys.push_back(k);
  } else {
    keys.push_back(key);
  }
  std::size_t named = 0;  // key entries that consume an axis
  bool ellipsis = false;
  for (py::handle k : keys) {
    if (k.ptr() == Py_Ellipsis) {
      if (ellipsis) throw Error("[getitem] an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (!k.is_none()) {
      ++named;
    }
  }
  const std::size_t rank = t.shape().size();
  if (named > rank) {
    throw AxisError("[getitem] too many indices: " + std::to_string(named) +
                    " for a tensor of rank " + std::to_string(rank));
  }
  std::vector<std::int64_t> start(rank, 0), length(t.shape()), stride(rank, 1);
  Axes reversed, squeezed;
  std::vector<bool> new_axis;  // per output position of the sliced tensor: inserted by None?
  std::optional<std::pair<std::size_t, Tensor>> take_at;
  std::size_t axis = 0;
  for (py::handle k : keys) {
    if (k.ptr() == Py_Ellipsis) {
      for (std::size_t n = 0; n < rank - named; ++n, ++axis) new_axis.push_back(false);
    } else if (k.is_none()) {
      new_axis.push_back(true);
    } else if (PySlice_Check(k.ptr())) {
      const std::int64_t size = t.shape()[axis];
      py::ssize_t b = 0, e = 0, s = 0, n = 0;
      if (!py::reinterpret_borrow<py::slice>(k).compute(size, &b, &e, &s, &n)) {
        throw py::error_already_set();
      }
      if (s > 0) {
        start[axis] = b;
        stride[axis] = s;
      } else {  // on the reversed axis, element b is at size - 1 - b
        reversed.push_back(static_cast<std::int64_t>(axis));
        start[axis] = size - 1 - b;
        stride[axis] = -s;
      }
      length[axis] = n;
      new_axis.push_back(false);
      ++axis;
    } else if (is_index_array(k) && !take_at) {
      if (is_boolean_array(k)) {
        throw TypeError(
            "[getitem] a boolean mask must be the whole index (x[mask]); combine "
            "it with other indices in two steps");
      }
      if (py::isinstance<Tensor>(k) && k.cast<Tensor>().dtype() == DType::u8) {
        throw TypeError(
            "[getitem] a uint8 tensor index is ambiguous: vktensor's comparisons give uint8, "
            "so it may be a mask or indices. Mask: x[np.asarray(m, bool)] or vt.select; "
            "indices: vt.take(x, idx, axis) or idx.astype(vt.int64)");
      }
      take_at = std::make_pair(axis, tensor_arg(k));
      new_axis.push_back(false);
      ++axis;
    } else if (PyLong_Check(k.ptr()) || PyIndex_Check(k.ptr())) {
      // Tested after arrays, which have __index__ too.
      start[axis] = index_at(k, t.shape()[axis], axis);
      length[axis] = 1;
      squeezed.push_back(static_cast<std::int64_t>(axis));
      new_axis.push_back(false);
      ++axis;
    } else {
      throw TypeError("[getitem] unsupported index " + py::repr(k).cast<std::string>() +
                      " (ints, slices, ..., None and one integer array are)");
    }
  }
  for (; axis < rank; ++axis) new_axis.push_back(false);
  if (take_at) {  // NumPy moves the array's axes to the front when an int sits apart from it
    for (std::int64_t a : squeezed) {
      const auto lo = std::min<std::size_t>(static_cast<std::size_t>(a), take_at->first);
      const auto hi = std::max<std::size_t>(static_cast<std::size_t>(a), take_at->first);
      for (std::size_t b = lo + 1; b < hi; ++b) {
        if (std::find(squeezed.begin(), squeezed.end(), static_cast<std::int64_t>(b)) ==
            squeezed.end()) {
          throw TypeError(
              "[getitem] an integer array with integers apart from it (NumPy "
              "moves its axes first) is not supported; index in two steps");
        }
      }
    }
  }
  Tensor r = reversed.empty() ? t : reverse(t, reversed);
  // A zero-length slice keeps start 0 so it never reaches past the axis.
  for (std::size_t a = 0; a < rank; ++a) {
    if (length[a] == 0) start[a] = 0;
  }
  r = slice(r, start, length, stride);
  if (take_at) r = take(r, take_at->second, static_cast<std::int64_t>(take_at->first));
  // Where each remaining axis lands once None axes are inserted and integer axes dropped;
  // the taken axis became the index array's axes.
  const auto take_rank = take_at ? take_at->second.shape().size() : 1;
  const auto is_squeezed = [&](std::size_t a) {
    return std::find(squeezed.begin(), squeezed.end(), static_cast<std::int64_t>(a)) !=
           squeezed.end();
  };
  Shape out;
  std::size_t source = 0;
  for (bool inserted : new_axis) {
    if (inserted) {
      out.push_back(1);
      continue;
    }
    const std::size_t at = take_at && source > take_at->first ? source + take_rank - 1 : source;
    if (take_at && source == take_at->first) {
      for (std::size_t i = 0; i < take_rank; ++i) out.push_back(r.shape()[at + i]);
    } else if (!is_squeezed(source)) {
      out.push_back(r.shape()[at]);
    }
    ++source;
  }
  return reshape(r, out);
}

}  // namespace vkt::python
