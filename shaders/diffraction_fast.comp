#version 450
#extension GL_GOOGLE_include_directive : require
// The diffraction shader in single precision throughout (any Vulkan device). See
// diffraction.glsl.
#define BV_PRECISE 0
#include "diffraction.glsl"
