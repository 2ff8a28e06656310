#version 450
#extension GL_GOOGLE_include_directive : require
// The fast diffraction shader for CPU devices (lavapipe): the parameter block in a storage buffer
// (params.glsl says why). See diffraction.glsl.
#define BV_PRECISE 0
#define BV_PARAMS_IN_STORAGE 1
#include "diffraction.glsl"
