#version 450
// The simulator's float image (photons per pixel, fast index fastest), drawn straight from
// the storage buffer the compute shader wrote, through the colour table and transfer
// function of render/Colormap.h (the CPU path there does the same arithmetic in float, in
// the same order), with the overlay (premultiplied RGBA, one texel per framebuffer pixel)
// on top. The push-constant block mirrors render/ImageRenderer.cpp's ViewConstants.

layout(location = 0) out vec4 outColour;

layout(std430, set = 0, binding = 0) readonly buffer Image { float pixels[]; };
// one byte per pixel, four to a word, pixel 4i in the low byte: non-zero = not simulated
layout(std430, set = 0, binding = 1) readonly buffer Skipped { uint skippedWords[]; };
// 4 tables x 256 RGBA8 entries, red in the low byte
layout(std430, set = 0, binding = 2) readonly buffer Table { uint colours[]; };
layout(set = 0, binding = 3) uniform sampler2D overlay;
// A multi-panel detector (view.panelCount > 0): image points are view points on the panels'
// common plane; each panel maps them to its pixels by a homography (row-major 3 x 3 in h0..h2,
// compute/model/DetectorProjection.h) and keeps its pixels in rows firstRow.. of the image.
struct PanelView {
    vec4 h0; // xyz: the first row of the homography
    vec4 h1;
    vec4 h2;
    ivec4 info; // firstRow, fastPixels, slowPixels, unused
};
layout(std430, set = 0, binding = 4) readonly buffer Panels { PanelView panels[]; };

layout(push_constant) uniform View {
    vec4 overloadColour;
    vec4 maskedColour;
    vec4 backgroundColour;
    vec2 origin;    // framebuffer position of image point (0, 0)
    float scale;    // framebuffer pixels per detector pixel
    float black;    // photons
    float white;    // photons
    float overload; // photons
    int fastPixels;
    int slowPixels;
    int colormap;   // Colormap: grey, inverted grey, viridis, heat
    int scaling;    // Scaling: linear, sqrt, log
    int options;    // OptionBits below
    int panelCount; // 0: the image's own pixels
} view;

const int kOverloadOn = 1;
const int kHaveImage = 2;
const int kHaveSkipped = 4;
const int kHaveOverlay = 8;
// at most this many samples per axis when one framebuffer pixel covers many image pixels
const int kMaxSamples = 8;

int transferIndex(float v) {
    float x;
    if (view.white > view.black)
        x = clamp((v - view.black) / (view.white - view.black), 0.0, 1.0);
    else
        x = v >= view.white ? 1.0 : 0.0;
    float t = x;
    if (view.scaling == 1)
        t = sqrt(x);
    else if (view.scaling == 2)
        t = log(1.0 + 1000.0 * x) / log(1001.0);
    return min(int(t * 256.0), 255);
}

bool skippedAt(int index) {
    if ((view.options & kHaveSkipped) == 0)
        return false;
    const uint word = skippedWords[index >> 2];
    return ((word >> (8 * (index & 3))) & 0xffu) != 0u;
}

vec4 pixelColour(float v, bool skipped) {
    if (skipped)
        return view.maskedColour;
    if ((view.options & kOverloadOn) != 0 && v >= view.overload)
        return view.overloadColour;
    return unpackUnorm4x8(colours[view.colormap * 256 + transferIndex(v)]);
}

// The image index a view point shows on a multi-panel detector; -1 in a gap. One sample per
// fragment (a reduced view of many panels shows each fragment's centre pixel).
int panelIndexAt(vec2 point) {
    const vec3 p = vec3(point, 1.0);
    for (int i = 0; i < view.panelCount; ++i) {
        const vec3 h = vec3(dot(panels[i].h0.xyz, p), dot(panels[i].h1.xyz, p),
                            dot(panels[i].h2.xyz, p));
        if (h.z <= 0.0)
            continue;
        const vec2 pixel = floor(h.xy / h.z);
        const ivec4 info = panels[i].info;
        if (pixel.x >= 0.0 && pixel.y >= 0.0 && pixel.x < float(info.y) && pixel.y < float(info.z))
            return (info.x + int(pixel.y)) * view.fastPixels + int(pixel.x);
    }
    return -1;
}

vec4 imageColour(vec2 frag) {
    if ((view.options & kHaveImage) == 0)
        return view.backgroundColour;
    if (view.panelCount > 0) {
        const int index = panelIndexAt((frag - view.origin) / view.scale);
        return index < 0 ? view.backgroundColour : pixelColour(pixels[index], skippedAt(index));
    }
    const vec2 size = vec2(view.fastPixels, view.slowPixels);
    if (view.scale >= 1.0) {
        // magnified (or 1:1): the pixel under the fragment's centre
        const vec2 p = floor((frag - view.origin) / view.scale);
        if (any(lessThan(p, vec2(0.0))) || any(greaterThanEqual(p, size)))
            return view.backgroundColour;
        const int index = int(p.y) * view.fastPixels + int(p.x);
        return pixelColour(pixels[index], skippedAt(index));
    }
    // reduced: the brightest of the pixels under the fragment, so that spots never vanish
    const vec2 lo = max(floor((frag - 0.5 - view.origin) / view.scale), vec2(0.0));
    const vec2 hi = min(ceil((frag + 0.5 - view.origin) / view.scale), size) - 1.0;
    if (any(greaterThan(lo, hi)))
        return view.backgroundColour;
    const ivec2 first = ivec2(lo), last = ivec2(hi);
    const ivec2 stride = max((last - first + kMaxSamples) / kMaxSamples, ivec2(1));
    float brightest = -3.0e38;
    int brightestIndex = -1;
    for (int s = first.y; s <= last.y; s += stride.y)
        for (int f = first.x; f <= last.x; f += stride.x) {
            const int index = s * view.fastPixels + f;
            if (skippedAt(index))
                continue;
            const float v = pixels[index];
            if (v > brightest) {
                brightest = v;
                brightestIndex = index;
            }
        }
    if (brightestIndex < 0)
        return view.maskedColour;
    return pixelColour(brightest, false);
}

void main() {
    const vec2 frag = gl_FragCoord.xy;
    const vec4 colour = imageColour(frag);
    if ((view.options & kHaveOverlay) != 0) {
        const vec4 over = texelFetch(overlay, ivec2(frag), 0);
        outColour = vec4(over.rgb + colour.rgb * (1.0 - over.a), 1.0);
    } else {
        outColour = vec4(colour.rgb, 1.0);
    }
}
