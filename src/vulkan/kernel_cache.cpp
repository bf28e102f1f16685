#include "vulkan/kernel_cache.h"

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

#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/cache_files.h"
#include "vulkan/glsl_sources.h"
#include "vulkan/spirv_passes.h"

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

std::vector<std::uint32_t> compile_glsl(const std::string& source, bool optimised) {
  // shaderc_compile_into_spv may run on several threads at once (vkt::compile compiles a
  // plan's groups together); the compiler is made once.
  static shaderc_compiler_t compiler = shaderc_compiler_initialize();
  if (compiler == nullptr) throw Error("[compile] shaderc could not be initialised");
  const std::string expanded = expand_includes(source);
  shaderc_compile_options_t options = shaderc_compile_options_initialize();
  shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan,
                                         shaderc_env_version_vulkan_1_1);
  // No SPIR-V optimisation: the driver's compiler optimises the module again anyway, and
  // spirv-opt's passes over the inlined shared sources were most of a first call's time.
  shaderc_compile_options_set_optimization_level(
      options,
      optimised ? shaderc_optimization_level_performance : shaderc_optimization_level_zero);
  shaderc_compilation_result_t result =
      shaderc_compile_into_spv(compiler, expanded.data(), expanded.size(), shaderc_compute_shader,
                               "vkt_fused.comp", "main", options);
  shaderc_compile_options_release(options);
  const bool ok =
      shaderc_result_get_compilation_status(result) == shaderc_compilation_status_success;
  std::vector<std::uint32_t> words;
  std::string log;
  if (ok) {
    const std::size_t bytes = shaderc_result_get_length(result);
    words.resize(bytes / sizeof(std::uint32_t));
    std::memcpy(words.data(), shaderc_result_get_bytes(result),
                words.size() * sizeof(std::uint32_t));
  } else {
    log = shaderc_result_get_error_message(result);
  }
  shaderc_result_release(result);
  if (!ok) throw Error("[compile] generated shader failed to compile: " + log + "\n" + source);
  return words;
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
        (void)compile_glsl("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n", false);
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
  const GeneratedPasses passes = optimised ? GeneratedPasses::none : generated_passes();
  std::ostringstream device;
  device << "\n// device " << p.deviceName << " vendor " << p.vendorID << " id " << p.deviceID
         << " driver " << p.driverVersion << " api " << p.apiVersion
         << (optimised ? " spirv-opt -O" : "")
         << (passes != GeneratedPasses::none ? std::string(" passes ") + passes_name(passes) : "")
         << " uuid ";
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
  const std::string disk = expand_includes(source) + device.str();
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
      bin.words = run_generated_passes(compile_glsl(source, optimised), passes);
    }
    ledger::record_kernel_compile();
    if (!dir.empty()) write_entry(path, key_check, bin.words);
  }
  std::lock_guard lock(mem.mutex);
  mem.entries.emplace(full, MemoryEntry{bin.key, bin.words});
  return bin;
}

}  // namespace vkt::vk
