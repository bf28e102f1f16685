// DLPack export and import (dlpack.cpp): the Tensor class's __dlpack__ and
// __dlpack_device__, and vt.from_dlpack / vt.asarray of a DLPack producer.
#pragma once

#include "bindings.h"

namespace vkt::python {

py::tuple dlpack_device(const Tensor& t);
// A capsule over a cpu tensor (zero-copy): "dltensor", or "dltensor_versioned" when
// max_version is (1, x) or later. A device tensor is copied to the host only when dl_device
// asks for the cpu and copy is not False (BufferError otherwise).
py::capsule export_dlpack(const Tensor& t, py::object max_version, py::object dl_device,
                          std::optional<bool> copy);
// A cpu tensor over a DLPack producer's host memory (zero-copy where compact), moved to
// `device` when one is given.
Tensor import_dlpack(py::handle producer, Backend* device, std::optional<bool> copy);

}  // namespace vkt::python
