// DLPack: x.__dlpack__() exports a cpu tensor without a copy, vt.from_dlpack() imports a cpu
// producer's memory without a copy where it is compact. The unversioned capsule (dlpack.h
// 0.6, what NumPy 1.24 reads and writes) unless the consumer passes max_version >= (1, 0),
// then the versioned one, which also says the memory is read-only. A Vulkan tensor reports
// its Vulkan device and is copied to the host only when the consumer allows a copy.
#include <dlpack/dlpack.h>

#include <cstring>
#include <functional>
#include <vector>

#include "dlpack_bridge.h"

namespace vkt::python {
namespace {

constexpr const char* kCapsuleName = "dltensor";
constexpr const char* kUsedCapsuleName = "used_dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";

// DLPack 1.0's versioned struct, which Debian 12's dlpack.h (0.6) predates; the layout is the
// standard's (dlpack.h 1.0, DLManagedTensorVersioned).
struct DLPackVersion1 {
  std::uint32_t major, minor;
};
struct DLManagedTensorVersioned1 {
  DLPackVersion1 version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned1* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};
constexpr std::uint64_t kFlagReadOnly = 1ULL << 0;
constexpr std::uint64_t kFlagIsCopied = 1ULL << 1;

// What an exported capsule owns: the tensor (so its storage lives) and the shape arrays.
struct Exported {
  Tensor tensor;
  StorageUse use;  // the bytes stay until the consumer's deleter, even past vt.deallocate
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor managed{};
  DLManagedTensorVersioned1 versioned{};
};

DLDataType dl_type(DType d) {
  if (is_narrow(d)) {  // DLPack packs sub-byte types; vktensor keeps a code per byte
    throw TypeError("[__dlpack__] " + std::string(dtype_name(d)) +
                    " has no DLPack export here (stored a byte an element); convert first, "
                    "e.g. x.astype(vt.int8), or read Nx's binary with x.tobytes()");
  }
  DLDataType t{};
  t.lanes = 1;
  t.bits = static_cast<std::uint8_t>(itemsize(d) * 8);
  if (d == DType::bf16) {
    t.code = kDLBfloat;
  } else if (is_complex(d)) {
    t.code = kDLComplex;
  } else if (is_float(d)) {
    t.code = kDLFloat;
  } else {
    t.code = is_signed_integer(d) ? kDLInt : kDLUInt;
  }
  return t;
}

DType from_dl_type(const DLDataType& t) {
  if (t.lanes == 1) {
    for (DType d : kValueDTypes) {
      const DLDataType mine = dl_type(d);
      if (mine.code == t.code && mine.bits == t.bits) return d;
    }
  }
  throw TypeError("[from_dlpack] DLPack type (code " + std::to_string(t.code) + ", " +
                  std::to_string(t.bits) + " bits, " + std::to_string(t.lanes) +
                  " lanes) has no vktensor dtype");
}

// The Vulkan device index of a backend: the i with &vulkan(i) == &b.
int vulkan_index(const Backend& b) {
  for (int i = 0; i < 64; ++i) {
    try {
      if (&vulkan(i) == &b) return i;
    } catch (const Error&) {
      break;
    }
  }
  return 0;
}

template <class Managed>
void delete_exported(Managed* m) {
  delete static_cast<Exported*>(m->manager_ctx);
}

// A consumer that took the tensor renamed the capsule; one that did not leaves it to us.
template <class Managed, const char* const* Name>
void capsule_destructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, *Name)) return;
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, *Name));
  if (m != nullptr && m->deleter != nullptr) m->deleter(m);
}

// True when the consumer's max_version asks for DLPack 1.x's versioned capsule.
bool wants_versioned(py::handle max_version) {
  if (max_version.is_none()) return false;
  if (!py::isinstance<py::tuple>(max_version) || py::len(max_version) != 2) {
    throw TypeError("[__dlpack__] max_version must be a (major, minor) tuple, got " +
                    py::repr(max_version).cast<std::string>());
  }
  return py::reinterpret_borrow<py::tuple>(max_version)[0].cast<int>() >= 1;
}

// Copies a strided DLPack tensor into compact row-major bytes.
std::vector<std::byte> compact_copy(const DLTensor& t, std::size_t item) {
  const auto rank = static_cast<std::size_t>(t.ndim);
  std::int64_t count = 1;
  for (std::size_t a = 0; a < rank; ++a) count *= t.shape[a];
  std::vector<std::byte> out(static_cast<std::size_t>(count) * item);
  const auto* base = static_cast<const std::byte*>(t.data) + t.byte_offset;
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t e = 0; e < count; ++e) {
    std::int64_t offset = 0;
    for (std::size_t a = 0; a < rank; ++a) offset += idx[a] * t.strides[a];
    std::memcpy(out.data() + static_cast<std::size_t>(e) * item,
                base + offset * static_cast<std::int64_t>(item), item);
    for (std::size_t a = rank; a-- > 0;) {
      if (++idx[a] < t.shape[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

bool compact(const DLTensor& t) {
  if (t.strides == nullptr) return true;
  std::int64_t expected = 1;
  for (int a = t.ndim; a-- > 0;) {
    if (t.shape[a] != 1 && t.strides[a] != expected) return false;
    expected *= t.shape[a];
  }
  return true;
}

// A producer's capsule, consumed: its tensor, and the call that hands it back (once).
struct Taken {
  const DLTensor* tensor;
  std::function<void(const void*)> release;
};

template <class Managed>
Taken take_managed(py::handle capsule, const char* name, const char* used_name) {
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (m == nullptr) throw py::error_already_set();
  PyCapsule_SetName(capsule.ptr(), used_name);  // ours now: the deleter is our call
  return {&m->dl_tensor, [m](const void*) {
            if (m->deleter == nullptr || !Py_IsInitialized()) return;
            py::gil_scoped_acquire gil;
            m->deleter(m);
          }};
}

// Asks for the versioned capsule first; a producer of DLPack 0.x (NumPy 1.24) takes no
// max_version and raises TypeError, and is asked again without it.
Taken take_capsule(py::handle producer) {
  py::object capsule;
  try {
    capsule = producer.attr("__dlpack__")(py::arg("max_version") = py::make_tuple(1, 0));
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    capsule = producer.attr("__dlpack__")();
  }
  if (PyCapsule_IsValid(capsule.ptr(), kVersionedName)) {
    const auto* v = static_cast<DLManagedTensorVersioned1*>(
        PyCapsule_GetPointer(capsule.ptr(), kVersionedName));
    if (v->version.major != 1) {
      throw Error("[from_dlpack] the producer's DLPack capsule is version " +
                  std::to_string(v->version.major) + "." + std::to_string(v->version.minor) +
                  "; vktensor reads 1.x and 0.x");
    }
    return take_managed<DLManagedTensorVersioned1>(capsule, kVersionedName, kUsedVersionedName);
  }
  return take_managed<DLManagedTensor>(capsule, kCapsuleName, kUsedCapsuleName);
}

}  // namespace

py::tuple dlpack_device(const Tensor& t) {
  if (t.backend().is_cpu()) return py::make_tuple(static_cast<int>(kDLCPU), 0);
  return py::make_tuple(static_cast<int>(kDLVulkan), vulkan_index(t.backend()));
}

py::capsule export_dlpack(const Tensor& t, py::object max_version, py::object dl_device,
                          std::optional<bool> copy) {
  const bool versioned = wants_versioned(max_version);
  const StorageUse source = detail::use_bytes("__dlpack__", t);
  Tensor host = t;
  if (!t.backend().is_cpu()) {
    const bool wants_cpu =
        !dl_device.is_none() && py::tuple(dl_device)[0].cast<int>() == static_cast<int>(kDLCPU);
    if (!wants_cpu || copy == false) {
      throw py::buffer_error("[__dlpack__] the tensor lives on " + t.backend().name() +
                             "; a cpu consumer must ask for dl_device=(1, 0) with copy allowed, "
                             "or read it first with x.to_device(vt.cpu())");
    }
    host = t.to_cpu();
  } else if (copy == true) {
    host = vkt::copy(t, t.backend());
  }
  auto* e = new Exported{host, detail::use_bytes("__dlpack__", host), host.shape(), {}, {}};
  std::int64_t stride = 1;
  e->strides.resize(e->shape.size());
  for (std::size_t a = e->shape.size(); a-- > 0;) {
    e->strides[a] = stride;
    stride *= e->shape[a];
  }
  DLTensor& d = versioned ? e->versioned.dl_tensor : e->managed.dl_tensor;
  d.data = host.size() == 0 ? nullptr : const_cast<void*>(to_pointer(host));
  d.device = {kDLCPU, 0};
  d.ndim = static_cast<int>(e->shape.size());
  d.dtype = dl_type(host.dtype());
  d.shape = e->shape.data();
  d.strides = e->strides.data();
  d.byte_offset = 0;
  if (versioned) {
    e->versioned.version = {1, 0};
    e->versioned.manager_ctx = e;
    e->versioned.deleter = &delete_exported<DLManagedTensorVersioned1>;
    // Tensors are immutable; a device tensor's host copy and copy=True are copies.
    e->versioned.flags = kFlagReadOnly | (host.storage() != t.storage() ? kFlagIsCopied : 0);
    return py::capsule(&e->versioned, kVersionedName,
                       &capsule_destructor<DLManagedTensorVersioned1, &kVersionedName>);
  }
  e->managed.manager_ctx = e;
  e->managed.deleter = &delete_exported<DLManagedTensor>;
  return py::capsule(&e->managed, kCapsuleName,
                     &capsule_destructor<DLManagedTensor, &kCapsuleName>);
}

Tensor import_dlpack(py::handle producer, Backend* device, std::optional<bool> copy) {
  const py::tuple where = producer.attr("__dlpack_device__")();
  const int type = where[0].cast<int>();
  if (type != static_cast<int>(kDLCPU) && type != static_cast<int>(kDLCUDAHost)) {
    throw TypeError("[from_dlpack] the producer's memory is on DLPack device type " +
                    std::to_string(type) +
                    ", which the host cannot read; move it to the cpu "
                    "first");
  }
  const Taken taken = take_capsule(producer);
  const auto& release = taken.release;
  const DLTensor& t = *taken.tensor;
  DType dtype;
  try {
    dtype = from_dl_type(t.dtype);
  } catch (...) {
    release(nullptr);
    throw;
  }
  const Shape shape(t.shape, t.shape + t.ndim);
  Tensor out;
  if (compact(t) && copy != true) {
    out =
        from_pointer(static_cast<const std::byte*>(t.data) + t.byte_offset, dtype, shape, release);
  } else if (copy == false) {
    release(nullptr);
    throw Error("[from_dlpack] copy=False, but the producer's tensor is not compact");
  } else {
    const std::vector<std::byte> bytes = compact_copy(t, itemsize(dtype));
    release(nullptr);
    out = from_bytes(bytes, dtype, shape, &cpu());
  }
  return device != nullptr && device != &out.backend() ? transfer(out, *device) : out;
}

}  // namespace vkt::python
