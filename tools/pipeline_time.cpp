// vkt-pipeline-time: how long the driver takes to create one compute pipeline from each
// SPIR-V file given, on the first non-CPU device (else the first). A developer's probe for
// the first-call cost every op pays (issue 12's 100 ms), apart from vktensor: each file is
// created with a layout of 16 storage buffers and 128 bytes of push constants, its
// specialization constants at their defaults, no pipeline cache.
// Prints one CSV line per file: file,spirv_bytes,create_us (the first creation) and the
// repeats' creations. Run each file in its own process for a driver with an in-process cache.
// --disable-optimization creates them with VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT (a
// quick first tier, where the driver honours it).
//   vkt-pipeline-time [--repeats N] [--disable-optimization] FILE.spv...
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe_device.h"

namespace {

using probe::check;
using probe::Device;

double create_once_us(const Device& d, const std::vector<std::uint32_t>& words,
                      VkPipelineLayout layout, VkPipelineCreateFlags flags) {
  const auto start = std::chrono::steady_clock::now();
  probe::Pipeline pipeline;
  check(probe::create_compute_pipeline(d, words, layout, flags, {}, &pipeline),
        "vkCreateComputePipelines");
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();  // the pipeline is destroyed after the clock is read
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 0;
  VkPipelineCreateFlags flags = 0;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
    } else if (a == "--disable-optimization") {
      flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT;
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: vkt-pipeline-time [--repeats N] [--disable-optimization] FILE.spv...\n");
      return 0;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: vkt-pipeline-time [--repeats N] [--disable-optimization] FILE.spv...\n");
    return 2;
  }
  Device d;
  const probe::StorageLayout storage(d, 16, 128);
  const VkPipelineLayout layout = storage.pipeline;
  std::printf("# device %s\nfile,spirv_bytes,create_us,repeat_us\n", d.props.deviceName);
  for (const std::string& f : files) {
    const std::vector<std::uint32_t> words = probe::read_spirv(f);
    std::printf("%s,%zu,%.0f,", f.c_str(), words.size() * 4,
                create_once_us(d, words, layout, flags));
    for (int r = 0; r < repeats; ++r) {
      std::printf("%s%.0f", r ? " " : "", create_once_us(d, words, layout, flags));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
