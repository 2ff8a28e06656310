#version 450
#extension GL_GOOGLE_include_directive : require
// The precise diffraction shader's trace variant: one invocation, one pixel, its intermediate
// quantities recorded (trace.glsl). See diffraction.glsl.
#define BV_PRECISE 1
#define BV_TRACE 1
#include "diffraction.glsl"
