#version 450
#extension GL_GOOGLE_include_directive : require
// nonBragg's amorphous image in double precision (needs shaderFloat64). See amorphous.glsl.
#define REAL double
#define RVEC3 dvec3
#define BV_PAD_LIMIT 0
#include "amorphous.glsl"
