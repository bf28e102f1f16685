#version 450
// The tiled GEMM (linalg_dot_main.glsl, shared with vkt::compile's dot groups).
#include "linalg_dot_main.glsl"
