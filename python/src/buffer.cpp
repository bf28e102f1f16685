// The buffer protocol of the Tensor class: memoryview(x) and np.asarray(x) of a cpu tensor
// read its memory in place, read-only (tensors are immutable), and the view keeps the tensor
// alive. A bfloat16 or device tensor raises BufferError; NumPy then asks __array__, whose
// error says what to do. Written against CPython's slots, not pybind11's def_buffer: that
// one cannot raise, and these must.
#include <memory>
#include <vector>

#include "bindings.h"

namespace vkt::python {
namespace {

// What a view owns beyond the tensor (held through view->obj): its shape and strides.
struct ViewLayout {
  std::vector<Py_ssize_t> shape, strides;
  StorageUse use;  // the bytes stay until the view is released, even past vt.deallocate
};

// The struct-module format of each dtype; bfloat16 has none.
const char* buffer_format(DType d) {
  switch (d) {
    case DType::u8:
      return "B";
    case DType::s8:
      return "b";
    case DType::u16:
      return "H";
    case DType::s16:
      return "h";
    case DType::u32:
      return "I";
    case DType::s32:
      return "i";
    case DType::u64:
      return "Q";
    case DType::s64:
      return "q";
    case DType::f16:
      return "e";
    case DType::f32:
      return "f";
    case DType::f64:
      return "d";
    case DType::c64:
      return "Zf";
    case DType::c128:
      return "Zd";
    default:
      return nullptr;
  }
}

bool has(int flags, int request) {
  return (flags & request) == request;
}

// A C-contiguous layout is also Fortran-contiguous when at most one axis is longer than 1.
bool fortran_contiguous(const Shape& s) {
  int long_axes = 0;
  for (std::int64_t d : s) long_axes += d > 1 ? 1 : 0;
  return long_axes <= 1;
}

void fill_view(PyObject* self, const Tensor& t, Py_buffer* view, int flags) {
  StorageUse use = detail::use_bytes("buffer", t);
  if (!t.backend().is_cpu()) {
    throw py::buffer_error("[buffer] the tensor lives on " + t.backend().name() +
                           "; read it to the host first: x.to_device(vt.cpu())");
  }
  const char* format = buffer_format(t.dtype());
  if (format == nullptr) {
    throw py::buffer_error("[buffer] " + std::string(dtype_name(t.dtype())) +
                           " has no buffer-protocol format; x.astype(vt.float32) first");
  }
  if (has(flags, PyBUF_WRITABLE)) {
    throw py::buffer_error(
        "[buffer] tensors are immutable: a writable view was asked for; copy it "
        "(np.array(x)) or use vt.put_slice / vt.indexed_put");
  }
  if (has(flags, PyBUF_F_CONTIGUOUS) && !has(flags, PyBUF_ANY_CONTIGUOUS) &&
      !fortran_contiguous(t.shape())) {
    throw py::buffer_error("[buffer] a tensor's memory is row-major; a Fortran-order view of " +
                           shape_str(t.shape()) + " needs a copy");
  }
  auto layout = std::make_unique<ViewLayout>();
  layout->use = std::move(use);
  const auto item = static_cast<Py_ssize_t>(itemsize(t.dtype()));
  layout->shape.assign(t.shape().begin(), t.shape().end());
  layout->strides.resize(layout->shape.size());
  Py_ssize_t stride = item;
  for (std::size_t a = layout->shape.size(); a-- > 0;) {
    layout->strides[a] = stride;
    stride *= std::max<Py_ssize_t>(layout->shape[a], 1);
  }
  static const std::byte empty{};  // a size-0 view still needs a valid address
  view->buf = const_cast<void*>(t.size() == 0 ? static_cast<const void*>(&empty) : to_pointer(t));
  view->len = static_cast<Py_ssize_t>(t.nbytes());
  view->itemsize = item;
  view->readonly = 1;
  view->ndim = static_cast<int>(layout->shape.size());
  view->format = has(flags, PyBUF_FORMAT) ? const_cast<char*>(format) : nullptr;
  view->shape = has(flags, PyBUF_ND) ? layout->shape.data() : nullptr;
  view->strides = has(flags, PyBUF_STRIDES) ? layout->strides.data() : nullptr;
  view->suboffsets = nullptr;
  view->internal = layout.release();
  Py_INCREF(self);
  view->obj = self;
}

extern "C" int get_buffer(PyObject* self, Py_buffer* view, int flags) noexcept {
  view->obj = nullptr;
  try {
    fill_view(self, py::handle(self).cast<const Tensor&>(), view, flags);
    return 0;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const Deallocated& e) {
    PyErr_SetString(deallocated_error().ptr(), e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  }
  return -1;
}

extern "C" void release_buffer(PyObject* /*self*/, Py_buffer* view) noexcept {
  delete static_cast<ViewLayout*>(view->internal);
}

}  // namespace

void install_tensor_buffer(py::handle tensor_class) {
  // py::buffer_protocol() gave the class its own PyBufferProcs; these replace pybind11's.
  PyBufferProcs* procs = reinterpret_cast<PyTypeObject*>(tensor_class.ptr())->tp_as_buffer;
  procs->bf_getbuffer = &get_buffer;
  procs->bf_releasebuffer = &release_buffer;
}

}  // namespace vkt::python
