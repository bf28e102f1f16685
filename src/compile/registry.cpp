// Which backend compiles fused groups how: each backend registers its compiler when made.
#include <map>
#include <mutex>

#include "compile/fused_group.h"
#include "vkt/backend.h"

namespace vkt {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<Backend*, detail::FusedCompiler> compilers;
  std::map<Backend*, detail::FusionCaps> caps;
};
Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

namespace detail {

void register_fused_compiler(Backend& b, FusedCompiler compiler, FusionCaps caps) {
  std::lock_guard lock(registry().mutex);
  registry().compilers[&b] = compiler;
  registry().caps[&b] = caps;
}

FusionCaps fusion_caps(Backend& b) {
  std::lock_guard lock(registry().mutex);
  auto it = registry().caps.find(&b);
  return it != registry().caps.end() ? it->second : FusionCaps{};
}

std::unique_ptr<FusedKernel> compile_fused(Backend& b, const FusedGroup& group) {
  FusedCompiler compiler = nullptr;
  {
    std::lock_guard lock(registry().mutex);
    auto it = registry().compilers.find(&b);
    if (it != registry().compilers.end()) compiler = it->second;
  }
  return compiler != nullptr ? compiler(b, group) : nullptr;
}

}  // namespace detail

}  // namespace vkt
