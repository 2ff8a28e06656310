#version 450
// One pass of the separable Gaussian point spread function (compute/detector_response/
// GpuPsf.h): every pixel gathers its row's (axis 0) or column's (axis 1) neighbours within the
// radius, weighted by the 1-D kernel g(d) = (erf(a (d + 1/2)) - erf(a (d - 1/2))) / 2,
// a = sqrt(ln 16) / fwhm: the Gaussian integrated over a pixel, whose 2-D integral over a
// pixel is g(dx) g(dy) exactly (noisify's kernel). Light that would land off the image is
// lost. Two passes (rows, then columns) cost 2 (2r + 1) reads per pixel instead of (2r + 1)^2.

// 64 x 4: a warp covers 32 neighbours of one row, so that each of its 2r + 1 reads is one
// whole cache line (16 x 16 groups read half lines, 16 KB apart on a 4096-wide image, and on
// the H100 took 3.6 ms at 4096^2 against 0.18 ms at 2048^2)
layout(local_size_x = 64, local_size_y = 4) in;

// axis 0 reads the image and writes the rows pass; axis 1 reads that and writes the result
layout(std430, set = 0, binding = 0) readonly buffer Input { float image[]; };
layout(std430, set = 0, binding = 1) buffer Middle { float rowsPass[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Output { float blurred[]; };
layout(std430, set = 0, binding = 3) readonly buffer Kernel { float weight[]; }; // 2r + 1
// the rows pass again, read-only, for the columns pass: the same buffer as binding 1, so that
// the columns pass's 2r + 1 reads of each value may go through the read-only cache
layout(std430, set = 0, binding = 4) readonly buffer MiddleIn { float rowsPassIn[]; };

layout(push_constant) uniform Pass {
    int width, height, radius, axis;
};

// The columns pass gives each invocation this many rows of one column (GpuPsf.cpp's
// kColumnRows): each value it reads serves every one of them, 2r + 8 reads for 8 pixels
// instead of 8 (2r + 1). A 4096^2 image (64 MiB, more than the H100's L2) read 2r + 1 times
// a pixel along its columns, 16 KB apart, took 4-5 ms for fwhm 5 where 3072^2 took 0.6.
const int kColumnRows = 8;

void alongRows() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= width || y >= height)
        return;
    // a gather: pixel (x, y) receives from (x - d) what (x - d) sends it at offset d
    float sum = 0.0;
    for (int d = -radius; d <= radius; ++d) {
        int sx = x - d;
        if (sx < 0 || sx >= width)
            continue;
        sum += image[y * width + sx] * weight[d + radius];
    }
    rowsPass[y * width + x] = sum;
}

void alongColumns() {
    int x = int(gl_GlobalInvocationID.x), first = int(gl_GlobalInvocationID.y) * kColumnRows;
    if (x >= width || first >= height)
        return;
    float sum[kColumnRows];
    for (int k = 0; k < kColumnRows; ++k)
        sum[k] = 0.0;
    // source rows from the last to the first: each pixel y = first + k adds its terms in the
    // order d = y - source = -r .. r, as the rows pass does and as one pixel an invocation
    // did
    for (int source = min(first + kColumnRows - 1 + radius, height - 1);
         source >= max(first - radius, 0); --source) {
        float value = rowsPassIn[source * width + x];
        for (int k = 0; k < kColumnRows; ++k) {
            int d = first + k - source;
            if (d >= -radius && d <= radius)
                sum[k] += value * weight[d + radius];
        }
    }
    for (int k = 0; k < kColumnRows && first + k < height; ++k)
        blurred[(first + k) * width + x] = sum[k];
}

void main() {
    if (axis == 0)
        alongRows();
    else
        alongColumns();
}
