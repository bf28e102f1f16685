#version 450
// Reductions and arg-reductions: the body is reduce_main.glsl, shared with vkt::compile's
// fused reductions (an elementwise prologue in place of the source buffer).
#include "reduce_main.glsl"
