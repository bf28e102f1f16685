#include "vulkan/compile/kernel_cache.h"

#include <shaderc/shaderc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>

#include "common/settings.h"
#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/compile/glsl_prune.h"
#include "vulkan/compile/glsl_sources.h"
#include "vulkan/runtime/cache_files.h"

namespace vkt::vk {
namespace {

constexpr char kMagic[8] = {'V', 'K', 'T', 'S', 'P', 'V', '0', '1'};

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

struct Header {
  char magic[8];
  std::uint64_t key_check;  // a second hash of the full key (another basis)
  std::uint64_t words;
  std::uint64_t checksum;  // of the words
};

std::uint64_t words_checksum(const std::vector<std::uint32_t>& w) {
  return fnv1a(w.data(), w.size() * sizeof(std::uint32_t));
}

// A disk entry's words, or empty when missing or damaged in any way.
std::vector<std::uint32_t> read_entry(const std::filesystem::path& path, std::uint64_t key_check) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  Header h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return {};
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.key_check != key_check ||
      h.words == 0 || h.words > (std::uint64_t{1} << 24)) {
    return {};
  }
  std::vector<std::uint32_t> w(static_cast<std::size_t>(h.words));
  if (!in.read(reinterpret_cast<char*>(w.data()),
               static_cast<std::streamsize>(w.size() * sizeof(std::uint32_t)))) {
    return {};
  }
  if (in.peek() != std::char_traits<char>::eof()) return {};  // trailing bytes: damaged
  if (words_checksum(w) != h.checksum || w[0] != 0x07230203u) return {};
  return w;
}

// A cache that cannot be written is only a slower next start: failures are ignored.
void write_entry(const std::filesystem::path& path, std::uint64_t key_check,
                 const std::vector<std::uint32_t>& w) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.key_check = key_check;
  h.words = w.size();
  h.checksum = words_checksum(w);
  (void)write_file_atomically(path.string(), &h, sizeof h, w.data(),
                              w.size() * sizeof(std::uint32_t));
}

shaderc_compile_options_t compile_options(bool optimised) {
  shaderc_compile_options_t options = shaderc_compile_options_initialize();
  shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan,
                                         shaderc_env_version_vulkan_1_1);
  // No SPIR-V optimisation: the driver's compiler optimises the module again anyway, and
  // spirv-opt's passes over the inlined shared sources were most of a first call's time.
  shaderc_compile_options_set_optimization_level(
      options,
      optimised ? shaderc_optimization_level_performance : shaderc_optimization_level_zero);
  return options;
}

// One shaderc call (SPIR-V or preprocessed text) on `text`: its words or text, or the log.
struct ShadercOutput {
  bool ok = false;
  std::string bytes;  // SPIR-V or text
  std::string log;
};
ShadercOutput run_shaderc(const std::string& text, bool optimised, bool preprocess_only) {
  // shaderc may run on several threads at once (vkt::compile compiles a plan's groups
  // together); the compiler is made once.
  static shaderc_compiler_t compiler = shaderc_compiler_initialize();
  if (compiler == nullptr) throw Error("[compile] shaderc could not be initialised");
  shaderc_compile_options_t options = compile_options(optimised);
  shaderc_compilation_result_t result =
      preprocess_only
          ? shaderc_compile_into_preprocessed_text(compiler, text.data(), text.size(),
                                                   shaderc_compute_shader, "vkt_fused.comp", "main",
                                                   options)
          : shaderc_compile_into_spv(compiler, text.data(), text.size(), shaderc_compute_shader,
                                     "vkt_fused.comp", "main", options);
  shaderc_compile_options_release(options);
  ShadercOutput out;
  out.ok = shaderc_result_get_compilation_status(result) == shaderc_compilation_status_success;
  if (out.ok) {
    out.bytes.assign(shaderc_result_get_bytes(result), shaderc_result_get_length(result));
  } else {
    out.log = shaderc_result_get_error_message(result);
  }
  shaderc_result_release(result);
  return out;
}

std::vector<std::uint32_t> words_of(const ShadercOutput& spirv, const std::string& source) {
  if (!spirv.ok) {
    throw Error("[compile] generated shader failed to compile: " + spirv.log + "\n" + source);
  }
  std::vector<std::uint32_t> words(spirv.bytes.size() / sizeof(std::uint32_t));
  std::memcpy(words.data(), spirv.bytes.data(), words.size() * sizeof(std::uint32_t));
  return words;
}

// A generated text compiles without the functions main never reaches (glsl_prune.h): the
// same words sooner (H200: shaderc 14.7 ms against 18.7 for softmax's row kernel, 12.6
// against 19.4 for layer norm's, preprocessing included). Overrides::prune_check (tests)
// compiles the whole text too and throws where their SPIR-V differs; off: the whole text.
enum class Prune { off, on, check };
Prune prune_rule() {
  return overrides()->prune_check ? Prune::check : Prune::on;
}

// `source` as generated (for error messages), `expanded` with its includes in place.
std::vector<std::uint32_t> compile_glsl(const std::string& source, const std::string& expanded,
                                        bool optimised, Prune prune = prune_rule()) {
  if (prune != Prune::off) {
    const ShadercOutput pre = run_shaderc(expanded, optimised, true);
    // A text the preprocessor or the pruner refuses compiles whole, with its own log.
    const std::optional<std::string> pruned =
        pre.ok ? prune_unreached_functions(pre.bytes) : std::nullopt;
    if (pruned) {
      std::vector<std::uint32_t> words = words_of(run_shaderc(*pruned, optimised, false), source);
      if (prune == Prune::check &&
          words != words_of(run_shaderc(expanded, optimised, false), source)) {
        throw Error(
            "[compile] prune_check: the pruned text compiles to other SPIR-V "
            "than the whole one:\n" +
            source);
      }
      return words;
    }
  }
  return words_of(run_shaderc(expanded, optimised, false), source);
}

struct MemoryEntry {
  std::string key;  // the disk entry's name
  std::vector<std::uint32_t> words;
};
struct MemoryCache {
  std::mutex mutex;
  std::map<std::string, MemoryEntry> entries;  // by the source as given and the device
};
MemoryCache& memory_cache() {
  static MemoryCache c;
  return c;
}

}  // namespace

std::string expand_includes(const std::string& source) {
  std::istringstream in(source);
  std::string out, line;
  while (std::getline(in, line)) {
    const std::string directive = "#include \"";
    if (line.rfind(directive, 0) == 0) {
      const std::string name =
          line.substr(directive.size(), line.find('"', directive.size()) - directive.size());
      bool found = false;
      for (const GlslSource& s : embedded_glsl()) {
        if (s.name != name) continue;
        out += expand_includes(std::string(s.text));
        found = true;
        break;
      }
      if (!found) throw Error("[compile] no embedded GLSL file named '" + name + "'");
      continue;
    }
    out += line;
    out += '\n';
  }
  return out;
}

void warm_up_shader_compiler() {
  static std::once_flag once;
  static std::future<void> done;  // waited for at exit, so the thread never outlives shaderc
  std::call_once(once, [] {
    done = std::async(std::launch::async, [] {
      try {
        const std::string trivial = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
        (void)compile_glsl(trivial, trivial, false);
      } catch (const Error&) {
        // A real compile reports the problem where it happens.
      }
    });
  });
}

void clear_kernel_memory_cache() {
  std::lock_guard lock(memory_cache().mutex);
  memory_cache().entries.clear();
}

KernelBinary kernel_binary(const Context& ctx, const std::string& source, bool optimised) {
  const VkPhysicalDeviceProperties& p = ctx.properties();
  std::ostringstream device;
  device << "\n// device " << p.deviceName << " vendor " << p.vendorID << " id " << p.deviceID
         << " driver " << p.driverVersion << " api " << p.apiVersion
         << (optimised ? " spirv-opt -O" : "") << " uuid ";
  for (unsigned char c : p.pipelineCacheUUID) device << hex64(c).substr(14);
  // In memory the source as given is the key (the embedded includes cannot change within a
  // process); on disk the source with its includes expanded, so an edited shared shader never
  // reuses a stale entry.
  const std::string full = source + device.str();
  KernelBinary bin;
  MemoryCache& mem = memory_cache();
  {
    std::lock_guard lock(mem.mutex);
    if (auto it = mem.entries.find(full); it != mem.entries.end()) {
      bin.words = it->second.words;
      bin.key = it->second.key;
      ledger::record_kernel_cache_hit(false);
      return bin;
    }
  }
  const std::string expanded = expand_includes(source);
  const std::string disk = expanded + device.str();
  bin.key = hex64(fnv1a(disk.data(), disk.size()));
  const std::uint64_t key_check = fnv1a(disk.data(), disk.size(), 0x84222325cbf29ce4ull);
  const std::string dir = cache_dir();
  const std::filesystem::path path =
      dir.empty() ? std::filesystem::path() : std::filesystem::path(dir) / (bin.key + ".spv");
  if (!dir.empty()) bin.words = read_entry(path, key_check);
  if (!bin.words.empty()) {
    ledger::record_kernel_cache_hit(true);
  } else {
    {
      const PhaseTimer timed(ledger::Phase::kernel_compile);
      bin.words = compile_glsl(source, expanded, optimised);
    }
    ledger::record_kernel_compile();
    if (!dir.empty()) write_entry(path, key_check, bin.words);
  }
  std::lock_guard lock(mem.mutex);
  mem.entries.emplace(full, MemoryEntry{bin.key, bin.words});
  return bin;
}

namespace testing {
std::vector<std::uint32_t> compile_generated(const std::string& source, bool prune) {
  return compile_glsl(source, expand_includes(source), false, prune ? Prune::on : Prune::off);
}
}  // namespace testing

}  // namespace vkt::vk
