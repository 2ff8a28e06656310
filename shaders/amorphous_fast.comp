#version 450
#extension GL_GOOGLE_include_directive : require
// nonBragg's amorphous image in float. See amorphous.glsl.
#define REAL float
#define RVEC3 vec3
#define BV_PAD_LIMIT 1
#include "amorphous.glsl"
