// vkt::block (Nx.block): the registry of backends' own block implementations, and the
// dispatch that picks one or runs the fallback.
#include "vkt/block.h"

#include <map>
#include <mutex>
#include <utility>

#include "core/checks.h"

namespace vkt {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::pair<const Backend*, std::string>, BlockFunction> implementations;
};

Registry& registry() {
  static Registry r;
  return r;
}

// The backend a block runs on: its inputs' common non-cpu backend, else the cpu.
Backend& home_of(const std::string& op, const std::vector<Tensor>& inputs) {
  if (inputs.empty()) return default_backend();
  Backend* home = nullptr;
  for (const Tensor& t : inputs) {
    detail::check_defined(op, t);
    if (home == nullptr || home->is_cpu()) home = &t.backend();
  }
  detail::check_backends(op, inputs);
  return *home;
}

}  // namespace

std::vector<Tensor> block(const std::string& kind, const std::vector<Tensor>& inputs,
                          const BlockFunction& fallback) {
  const std::string op = "block " + kind;
  if (!fallback) detail::fail<Error>(op, "needs a fallback function (Nx.block's default)");
  Backend& home = home_of(op, inputs);
  BlockFunction own;
  {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.implementations.find({&home, kind});
    if (it != r.implementations.end()) own = it->second;
  }
  if (!own) return fallback(inputs);
  std::vector<Tensor> out = own(inputs);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!out[i].defined()) {
      detail::fail<Error>(op, home.name() +
                                  "'s implementation returned an empty tensor as result " +
                                  std::to_string(i));
    }
  }
  return out;
}

void register_block(Backend& backend, const std::string& kind, BlockFunction implementation) {
  if (kind.empty()) detail::fail<Error>("register_block", "the block kind is empty");
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  if (implementation) {
    r.implementations[{&backend, kind}] = std::move(implementation);
  } else {
    r.implementations.erase({&backend, kind});
  }
}

bool has_block(const Backend& backend, const std::string& kind) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  return r.implementations.count({&backend, kind}) != 0;
}

}  // namespace vkt
