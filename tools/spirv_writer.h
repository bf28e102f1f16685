// A minimal SPIR-V writer for the probes: words, ids, and instructions by opcode number.
// For kernels Debian 12's glslang cannot compile (SPV_KHR_cooperative_matrix at workgroup
// scope, VK_NV_cooperative_matrix2); nothing checks them but the driver.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace probe {

class SpirvWriter {
 public:
  std::uint32_t id() { return next_id_++; }

  // One instruction into `section` (the caller keeps SPIR-V's module order).
  void op(std::vector<std::uint32_t>& section, std::uint32_t opcode,
          std::initializer_list<std::uint32_t> operands) {
    section.push_back(static_cast<std::uint32_t>((operands.size() + 1) << 16) | opcode);
    section.insert(section.end(), operands.begin(), operands.end());
  }
  // An instruction whose operands end in a literal string (OpExtension, OpEntryPoint's name).
  void op_str(std::vector<std::uint32_t>& section, std::uint32_t opcode,
              std::initializer_list<std::uint32_t> before, const std::string& text,
              const std::vector<std::uint32_t>& after = {}) {
    std::vector<std::uint32_t> words(before);
    const std::size_t at = words.size();
    words.resize(at + text.size() / 4 + 1, 0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      words[at + i / 4] |= static_cast<std::uint32_t>(static_cast<unsigned char>(text[i]))
                           << (8 * (i % 4));
    }
    words.insert(words.end(), after.begin(), after.end());
    section.push_back(static_cast<std::uint32_t>((words.size() + 1) << 16) | opcode);
    section.insert(section.end(), words.begin(), words.end());
  }

  // Header (SPIR-V `version`, the id bound) followed by the sections in order.
  std::vector<std::uint32_t> module(
      std::uint32_t version, std::initializer_list<const std::vector<std::uint32_t>*> parts) {
    std::vector<std::uint32_t> out{0x07230203u, version, 0u, next_id_, 0u};
    for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
    return out;
  }

 private:
  std::uint32_t next_id_ = 1;
};

}  // namespace probe
