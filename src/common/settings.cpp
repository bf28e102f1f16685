// The environment parsed once into Settings, and the overrides tests and vkt-bench set.
#include "common/settings.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "common/word_choice.h"
#include "vkt/error.h"

namespace vkt {
namespace {

// 8 EiB in MiB: any real cap, and its bytes still fit in 64 bits.
constexpr std::uint64_t kMaxMb = std::uint64_t{1} << 43;

std::optional<std::uint64_t> mb(const char* name, std::string_view text) {
  return common::word_count(text, name, 0, kMaxMb, "settings");
}

bool flag(const char* name, std::string_view text) {
  return common::word_choice(text, name, {"1", "0"}, 1, "settings") == 0;
}

std::string default_cache_dir(const std::function<std::string_view(const char*)>& lookup) {
  const std::string_view set = lookup("VKT_CACHE_DIR");
  if (set == "off") return {};
  if (!set.empty()) return std::string(set);
  if (const std::string_view x = lookup("XDG_CACHE_HOME"); !x.empty()) {
    return std::string(x) + "/vktensor";
  }
  if (const std::string_view h = lookup("HOME"); !h.empty()) {
    return std::string(h) + "/.cache/vktensor";
  }
  return {};
}

// Overrides are swapped whole, so a reader's snapshot never changes under it.
std::shared_ptr<const Overrides>& current_overrides() {
  static std::shared_ptr<const Overrides> o = std::make_shared<const Overrides>();
  return o;
}
std::mutex& overrides_mutex() {
  static std::mutex m;
  return m;
}
void replace_overrides(std::shared_ptr<const Overrides> o) {
  std::lock_guard lock(overrides_mutex());
  current_overrides() = std::move(o);
}

std::optional<bool> bool_value(std::string_view name, std::string_view value) {
  if (value.empty()) return std::nullopt;
  if (value == "1") return true;
  if (value == "0") return false;
  throw Error("[settings] override " + std::string(name) + "='" + std::string(value) +
              "': expected 1 or 0");
}

std::optional<std::string> text_value(std::string_view value) {
  if (value.empty()) return std::nullopt;
  return std::string(value);
}

// One of `words`, or "" to clear it; anything else is named as the environment's words are.
std::optional<std::string> word_value(std::string_view name, std::string_view value,
                                      std::initializer_list<std::string_view> words) {
  const std::string n = "override " + std::string(name);
  common::word_choice(value, n.c_str(), words, 0, "settings");
  return text_value(value);
}

std::optional<std::uint64_t> count_value(std::string_view name, std::string_view value,
                                         std::uint64_t min, std::uint64_t max) {
  const std::string n(name);
  return common::word_count(value, n.c_str(), min, max, "settings");
}

}  // namespace

Settings parse_settings(const std::function<std::string_view(const char*)>& lookup) {
  Settings s;
  s.backend = common::word_choice(lookup("VKT_BACKEND"), "VKT_BACKEND", {"cpu", "vulkan"}, 0,
                                  "settings") == 1
                  ? DefaultBackend::vulkan
                  : DefaultBackend::cpu;
  s.device = std::string(lookup("VKT_DEVICE"));
  s.fallback = static_cast<FallbackPolicy>(common::word_choice(
      lookup("VKT_FALLBACK"), "VKT_FALLBACK", {"allow", "warn", "error"}, 0, "settings"));
  s.validation = flag("VKT_VALIDATION", lookup("VKT_VALIDATION"));
  if (const std::string_view p = lookup("VKT_POISON"); !p.empty()) {
    s.poison = flag("VKT_POISON", p);
  }
  s.cache_dir = default_cache_dir(lookup);
  s.compile_dump = flag("VKT_COMPILE_DUMP", lookup("VKT_COMPILE_DUMP"));
  s.pipeline_stats = flag("VKT_VK_PIPELINE_STATS", lookup("VKT_VK_PIPELINE_STATS"));
  s.staging = flag("VKT_VK_STAGING", lookup("VKT_VK_STAGING"));
  s.no_push_descriptor = flag("VKT_VK_NO_PUSH_DESCRIPTOR", lookup("VKT_VK_NO_PUSH_DESCRIPTOR"));
  s.host_pool_mb = mb("VKT_HOST_POOL_MB", lookup("VKT_HOST_POOL_MB"));
  s.device_pool_mb = mb("VKT_VK_POOL_CAP_MB", lookup("VKT_VK_POOL_CAP_MB"));
  s.pinned_mb = mb("VKT_VK_PINNED_MB", lookup("VKT_VK_PINNED_MB"));
  s.blas_library = std::string(lookup("VKT_BLAS_LIBRARY"));
  s.openblas_coretype = std::string(lookup("OPENBLAS_CORETYPE"));
  s.isa_cap = static_cast<IsaCap>(common::word_choice(lookup("VKT_CPU_ISA"), "VKT_CPU_ISA",
                                                      {"sse2", "avx2", "avx512"}, 2, "settings"));
  return s;
}

const Settings& settings() {
  // A throwing initialiser leaves the static unset: the next call parses (and throws) again.
  static const Settings s = parse_settings([](const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string_view() : std::string_view(v);
  });
  return s;
}

std::shared_ptr<const Overrides> overrides() {
  std::lock_guard lock(overrides_mutex());
  return current_overrides();
}

void set_override(Overrides& o, std::string_view name, std::string_view value) {
  const auto is = [&](std::string_view n) { return name == n; };
  if (is("cache_dir")) {
    o.cache_dir = value == "off" ? std::string() : std::string(value);
  } else if (is("staging")) {
    o.staging = bool_value(name, value);
  } else if (is("one_pass_movement")) {
    o.one_pass_movement = bool_value(name, value);
  } else if (is("fused_put")) {
    o.fused_put = bool_value(name, value);
  } else if (is("reduce_vec4")) {
    o.reduce_vec4 = bool_value(name, value);
  } else if (is("reduce_groups")) {
    const auto n = count_value(name, value, 1, 1u << 20);
    o.reduce_groups =
        n ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*n)) : std::nullopt;
  } else if (is("arg_locate")) {
    o.arg_locate = bool_value(name, value);
  } else if (is("sort_digit_bits")) {
    const std::optional<std::string> bits = word_value(name, value, {"8", "4"});
    o.sort_digit_bits = bits ? std::optional<unsigned>(*bits == "8" ? 8 : 4) : std::nullopt;
  } else if (is("specialise")) {
    o.specialise = bool_value(name, value);
  } else if (is("sort_reorder")) {
    o.sort_reorder = bool_value(name, value);
  } else if (is("dot_kernel")) {
    o.dot_kernel = word_value(name, value, {"auto", "tiled", "reg"});
  } else if (is("dot_tile")) {
    o.dot_tile = text_value(value);
  } else if (is("dot_vec")) {
    o.dot_vec = bool_value(name, value);
  } else if (is("coopmat")) {
    o.coopmat = bool_value(name, value);
  } else if (is("coopmat_api")) {
    o.coopmat_api = word_value(name, value, {"auto", "khr", "nv"});
  } else if (is("coopmat_tile")) {
    o.coopmat_tile = text_value(value);
  } else if (is("conv_gemm")) {
    o.conv_gemm = bool_value(name, value);
  } else if (is("conv_winograd")) {
    o.conv_winograd = bool_value(name, value);
  } else if (is("block_mb")) {
    o.block_mb = count_value(name, value, 1, 1u << 16);
  } else if (is("small_uploads_mapped")) {
    o.small_uploads_mapped = bool_value(name, value);
  } else if (is("cpu_conv_split")) {
    o.cpu_conv_split = word_value(name, value, {"tiles", "images"});
  } else if (is("cpu_fft_four_step")) {
    if (!value.empty() && value != "off") count_value(name, value, 0, INT64_MAX);
    o.cpu_fft_four_step = text_value(value);
  } else if (is("prune_check")) {
    o.prune_check = bool_value(name, value).value_or(false);
  } else {
    throw Error("[settings] no override named '" + std::string(name) + "'");
  }
}

OverrideScope::OverrideScope(Overrides o) : previous_(overrides()) {
  replace_overrides(std::make_shared<const Overrides>(std::move(o)));
}

OverrideScope::OverrideScope(std::string_view assignments) : previous_(overrides()) {
  Overrides o = *previous_;
  while (!assignments.empty()) {
    const std::size_t comma = assignments.find(',');
    const std::string_view item = assignments.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw Error("[settings] override '" + std::string(item) + "': expected name=value");
    }
    set_override(o, item.substr(0, eq), item.substr(eq + 1));
    assignments =
        comma == std::string_view::npos ? std::string_view() : assignments.substr(comma + 1);
  }
  replace_overrides(std::make_shared<const Overrides>(std::move(o)));
}

OverrideScope::~OverrideScope() {
  replace_overrides(std::move(previous_));
}

}  // namespace vkt
