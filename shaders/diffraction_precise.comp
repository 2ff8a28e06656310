#version 450
#extension GL_GOOGLE_include_directive : require
// The diffraction shader with double-precision geometry, Miller indices and sums (needs
// shaderFloat64). See diffraction.glsl.
#define BV_PRECISE 1
#include "diffraction.glsl"
