// The whole public API.
#pragma once

#include "vkt/backend.h"
#include "vkt/dtype.h"
#include "vkt/error.h"
#include "vkt/host_pool.h"
#include "vkt/ledger.h"
#include "vkt/op_call.h"
#include "vkt/ops.h"
#include "vkt/scalar.h"
#include "vkt/shape.h"
#include "vkt/tensor.h"
