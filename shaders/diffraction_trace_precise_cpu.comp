#version 450
#extension GL_GOOGLE_include_directive : require
// The precise trace variant for CPU devices (lavapipe): the parameter block in a storage buffer
// (params.glsl says why). See diffraction.glsl.
#define BV_PRECISE 1
#define BV_TRACE 1
#define BV_PARAMS_IN_STORAGE 1
#include "diffraction.glsl"
