#version 450
// vkt-coopmat-peak's kernel: the rate of coopMatMulAddNV on 16x16x16 fragments, one
// subgroup owning 4 x 4 accumulators (64 x 64 of C, as linalg_dot_coopmat.comp's subgroups).
// MODE 0: the A and B fragments are loaded once and every step multiplies registers only
// (the tensor cores' ceiling through this API). MODE 1: every step loads its 4 A and 4 B
// fragments from shared memory declared as uvec4 (as the dot kernel does); MODE 2: the same
// from shared memory declared as float16_t. ACC_BITS (a -D define): the accumulators' type.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable

#ifndef ACC_BITS
#define ACC_BITS 32
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MODE = 0;

layout(push_constant) uniform Push { uint steps; } p;
layout(binding = 0) readonly buffer In { float16_t v[]; } in_h;
layout(binding = 1) writeonly buffer Out { float v[]; } out_f;

const uint F = 16;
const uint ROWS = 128, PITCH_H = 32 + 8;  // a 128 x 32 tile of halves, rows padded by 16 B
shared uvec4 tile_v[ROWS * PITCH_H / 8];
shared float16_t tile_h[ROWS * PITCH_H];

#define ACC fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F>
#define OPERAND fcoopmatNV<16, gl_ScopeSubgroup, F, F>

void main() {
  const uint tid = gl_LocalInvocationID.x, w = gl_SubgroupID;
  for (uint i = tid; i < ROWS * PITCH_H; i += gl_WorkGroupSize.x) {
    tile_h[i] = in_h.v[i % 4096];
  }
  for (uint i = tid; i < ROWS * PITCH_H / 8; i += gl_WorkGroupSize.x) {
    const uint at = (i * 8) % 4096;
    tile_v[i] = uvec4(packFloat2x16(f16vec2(in_h.v[at], in_h.v[at + 1])),
                      packFloat2x16(f16vec2(in_h.v[at + 2], in_h.v[at + 3])),
                      packFloat2x16(f16vec2(in_h.v[at + 4], in_h.v[at + 5])),
                      packFloat2x16(f16vec2(in_h.v[at + 6], in_h.v[at + 7])));
  }
  barrier();
  const uint row0 = (w % 2) * 64;  // two subgroups share each half of the tile
  ACC acc[16];
  [[unroll]] for (uint i = 0; i < 16; ++i) acc[i] = ACC(0.0);
  OPERAND fa[4], fb[4];
  [[unroll]] for (uint i = 0; i < 4; ++i) {
    coopMatLoadNV(fa[i], tile_h, (row0 + i * F) * PITCH_H, PITCH_H, false);
    coopMatLoadNV(fb[i], tile_h, (row0 + i * F) * PITCH_H + F, PITCH_H, true);
  }
  for (uint s = 0; s < p.steps; ++s) {
    const uint kf = (s & 1u) * F;  // alternate the K half so loads cannot be hoisted
    if (MODE == 1) {
      [[unroll]] for (uint i = 0; i < 4; ++i) {
        coopMatLoadNV(fa[i], tile_v, ((row0 + i * F) * PITCH_H + kf) / 8, PITCH_H / 8, false);
        coopMatLoadNV(fb[i], tile_v, ((row0 + i * F) * PITCH_H + kf) / 8, PITCH_H / 8, true);
      }
    } else if (MODE == 2) {
      [[unroll]] for (uint i = 0; i < 4; ++i) {
        coopMatLoadNV(fa[i], tile_h, (row0 + i * F) * PITCH_H + kf, PITCH_H, false);
        coopMatLoadNV(fb[i], tile_h, (row0 + i * F) * PITCH_H + kf, PITCH_H, true);
      }
    }
    [[unroll]] for (uint i = 0; i < 4; ++i) {
      [[unroll]] for (uint j = 0; j < 4; ++j) {
        acc[i * 4 + j] = coopMatMulAddNV(fa[i], fb[j], acc[i * 4 + j]);
      }
    }
  }
  // acc[0] is checked by the host; the others are stored only under a condition the host
  // never sets, which keeps them live (adding coopmats crashes Debian 12's spirv-opt).
  const uint subgroups = gl_WorkGroupSize.x / 32;
  const uint slot = (gl_WorkGroupID.x * subgroups + w) * F * F;
  [[unroll]] for (uint i = 0; i < 16; ++i) {
    if (i == 0 || p.steps > (1u << 30)) {
      fcoopmatNV<32, gl_ScopeSubgroup, F, F> out32 = fcoopmatNV<32, gl_ScopeSubgroup, F, F>(acc[i]);
      coopMatStoreNV(out32, out_f.v, slot, F, false);
    }
  }
}
