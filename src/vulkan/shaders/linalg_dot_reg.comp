#version 450
// The register-blocked GEMM (linalg_dot_reg_main.glsl, shared with vkt::compile's dot groups).
#include "linalg_dot_reg_main.glsl"
