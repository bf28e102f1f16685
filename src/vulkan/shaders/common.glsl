// Shared by every shader: extensions, the dispatch index, and the dtype codes (the values of
// vkt::DType). VKT_I64 / VKT_F64 variants may name 64-bit types; the base variant may not.
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#ifdef VKT_I64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

layout(local_size_x_id = 0) in;

const uint DT_U8 = 0, DT_U16 = 1, DT_U32 = 2, DT_U64 = 3, DT_S8 = 4, DT_S16 = 5, DT_S32 = 6,
           DT_S64 = 7, DT_F16 = 8, DT_BF16 = 9, DT_F32 = 10, DT_F64 = 11,
           DT_C64 = 12, DT_C128 = 13, DT_S2 = 14, DT_S4 = 15, DT_U2 = 16, DT_U4 = 17,
           DT_F8 = 18, DT_F8_E4M3FN = 19;

// The host launches a 2-D grid when one axis would pass maxComputeWorkGroupCount[0].
// Element-wise shaders loop `for (i = global_index(); i < n; i += grid_stride())` over a
// launch of about n/4 invocations: one element per invocation left the H200 at a fraction
// of its bandwidth.
uint grid_stride() { return gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x; }
// Movement shaders take four elements per step (i, i + stride, i + 2 stride, i + 3 stride),
// issuing the four loads before the stores; steps start below this bound (no overflow).
uint unrolled_end(uint n, uint stride) { return stride < n / 3u ? n - 3u * stride : 0u; }

uint global_index() {
  return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
         gl_LocalInvocationID.x;
}
