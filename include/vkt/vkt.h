// The whole public API. Backend implementers add vkt/backend/*.h (OpCall, parameter
// structs, the op table's rows).
#pragma once

#include "vkt/backend.h"
#include "vkt/block.h"
#include "vkt/dtype.h"
#include "vkt/error.h"
#include "vkt/grad.h"
#include "vkt/host_pool.h"
#include "vkt/ledger.h"
#include "vkt/op.h"
#include "vkt/ops.h"
#include "vkt/scalar.h"
#include "vkt/shape.h"
#include "vkt/tensor.h"
