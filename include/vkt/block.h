// Nx.block: a named composite computation that a backend may implement itself, with a
// definition in public ops (the fallback) that runs wherever it does not.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "vkt/backend.h"
#include "vkt/tensor.h"

namespace vkt {

using BlockFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

// Runs block `kind` over `inputs`: the implementation the inputs' backend registered for
// `kind` where there is one, else `fallback` (Nx.block's default function). The inputs'
// backend is their common non-cpu backend (cpu if all are on the cpu; default_backend()
// with no inputs); inputs on two devices are IncompatibleBackends. Under vkt::compile and
// vkt::grad the tracer has no registrations, so the fallback is what they see. An
// implementation must return what the fallback would (the same count, shapes and dtypes);
// block checks that none of its results is empty, naming the kind and the backend.
std::vector<Tensor> block(const std::string& kind, const std::vector<Tensor>& inputs,
                          const BlockFunction& fallback);

// Registers `implementation` as `backend`'s own for block `kind`, replacing any earlier one;
// an empty function removes it (do so before destroying a backend of your own). Safe from
// any thread.
void register_block(Backend& backend, const std::string& kind, BlockFunction implementation);

// Whether `backend` has its own implementation of `kind`.
bool has_block(const Backend& backend, const std::string& kind);

}  // namespace vkt
