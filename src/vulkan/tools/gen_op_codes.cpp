// Build-time generator: writes the shaders' op-code constants (OP_EXP, OP_ADD, ...), which
// codes write u8, and the combining rules' codes (COMBINE_SUM, ...) from the op table, so no
// shader restates an op's position, kind or rule.
// Usage: gen_op_codes <out.glsl>.
#include <cctype>
#include <cstddef>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "vkt/backend/op_info.h"
#include "vulkan/ops/op_support.h"

namespace {

std::string upper(std::string_view name) {
  std::string s(name);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// OP_<NAME> for every op of `family`, then <prefix>_writes_u8(op) naming the u8 writers and
// <PREFIX>_OP_COUNT (compile_op_modules.cmake makes a module per op code below it).
void write_family(std::ostream& out, vkt::OpFamily family, const char* prefix) {
  std::string u8_test;
  std::size_t count = 0;
  for (const vkt::OpInfo& info : vkt::kOpTable) {
    if (info.family != family) continue;
    ++count;
    out << "const uint OP_" << upper(info.name) << " = " << info.shader_code << "u;\n";
    if (vkt::writes_u8(info.op)) {
      u8_test += (u8_test.empty() ? "" : " || ") + std::string("op == OP_") + upper(info.name);
    }
  }
  out << "bool " << prefix << "_writes_u8(uint op) { return "
      << (u8_test.empty() ? "false" : u8_test) << "; }\n";
  out << "const uint " << upper(prefix) << "_OP_COUNT = " << count << "u;\n\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gen_op_codes <out.glsl>\n";
    return 2;
  }
  std::ostringstream text;
  text << "// Generated from include/vkt/op_table.h by src/vulkan/tools/gen_op_codes.cpp; do not\n"
          "// edit. An op's code is its position in its family's list (vkt/backend/op_info.h).\n"
          "#ifndef VKT_OP_CODES_GLSL\n#define VKT_OP_CODES_GLSL\n\n";
  write_family(text, vkt::OpFamily::unary, "unary");
  write_family(text, vkt::OpFamily::binary, "binary");
  for (std::size_t c = 1; c < std::size(vkt::kCombineNames); ++c) {
    text << "const uint COMBINE_" << upper(vkt::kCombineNames[c]) << " = "
         << vkt::vk::combine_code(static_cast<vkt::Combine>(c)) << "u;\n";
  }
  text << "\n";
  text << "#endif\n";
  std::ofstream file(argv[1]);
  file << text.str();
  return file ? 0 : 1;
}
