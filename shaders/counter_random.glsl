// The counter-based noise generator on the GPU: compute/random/CounterRandom.cpp line for
// line (Philox4x32-10 keyed by (seed, frame), counted by pixel; Poisson deviates from it), so
// that both give the same bits (tests/engine/tst_counternoise.cpp). Every float value is
// `precise`: no a*b+c may be fused, and division, sqrt, log and exp are built from correctly
// rounded +, -, * (Vulkan allows its own a few ulp of error). docs/numerics/counter-noise.md.
// Constants are the 9-digit decimals of their float values, as in the C++ file.

const uint kMultiplier0 = 0xD2511F53u;
const uint kMultiplier1 = 0xCD9E8D57u;
const uint kWeyl0 = 0x9E3779B9u;
const uint kWeyl1 = 0xBB67AE85u;
const uint kNoiseStream = 0x6E6F6973u; // "nois"
const int kMaxDraws = 1000;

uvec4 philox4x32(uvec4 c, uvec2 key) {
    for (int round = 0; round < 10; ++round) {
        if (round > 0)
            key += uvec2(kWeyl0, kWeyl1);
        uint hi0, lo0, hi1, lo1;
        umulExtended(kMultiplier0, c.x, hi0, lo0);
        umulExtended(kMultiplier1, c.z, hi1, lo1);
        c = uvec4(hi1 ^ c.y ^ key.x, lo1, hi0 ^ c.w ^ key.y, lo0);
    }
    return c;
}

float counter_uniform(uint word) {
    precise float u = float((word >> 8) | 1u) * 5.96046448e-08;
    return u;
}

float det_reciprocal(float x) {
    precise float y = uintBitsToFloat(0x7EF311C3u - floatBitsToUint(x));
    for (int i = 0; i < 4; ++i)
        y = y * (2.0 - x * y);
    return y;
}

float det_sqrt(float x) {
    precise float half_x = 0.5 * x;
    precise float y = uintBitsToFloat(0x5F3759DFu - (floatBitsToUint(x) >> 1));
    for (int i = 0; i < 4; ++i)
        y = y * (1.5 - (half_x * y) * y);
    precise float r = x * y;
    return r;
}

float det_log(float x) {
    uint bits = floatBitsToUint(x);
    int e = int(bits >> 23) - 127;
    precise float m = uintBitsToFloat((bits & 0x007FFFFFu) | 0x3F800000u);
    if (m > 1.41421354) {
        m = 0.5 * m;
        ++e;
    }
    precise float f = m - 1.0;
    precise float t = f * det_reciprocal(2.0 + f);
    precise float t2 = t * t;
    precise float series =
        t2 * (0.333333343 +
              t2 * (0.200000003 + t2 * (0.142857149 + t2 * (0.111111112 + t2 * 0.0909090936))));
    precise float log_m = 2.0 * t + (2.0 * t) * series;
    precise float ef = float(e);
    precise float r = ef * 0.693145752 + (log_m + ef * 1.42860677e-06);
    return r;
}

float det_exp(float x) {
    precise float n = floor(x * 1.44269502 + 0.5);
    precise float r = (x - n * 0.693145752) - n * 1.42860677e-06;
    precise float p =
        1.0 + r * (1.0 + r * (0.5 + r * (0.166666672 +
                                         r * (0.0416666679 +
                                              r * (0.00833333377 +
                                                   r * (0.00138888892 + r * 0.000198412701))))));
    precise float result = p * uintBitsToFloat(uint(int(n) + 127) << 23);
    return result;
}

float det_divide(float a, float b) {
    precise float r = a * det_reciprocal(b);
    return r;
}

// A pixel's uniforms: Philox blocks (pixel, block, 0, "nois"), four words each.
struct PixelStream {
    uvec2 key;
    uint pixel;
    uint block;
    uvec4 words;
    int used;
};

PixelStream pixel_stream(uvec2 key, uint pixel) {
    return PixelStream(key, pixel, 0u, uvec4(0u), 4);
}

float stream_uniform(inout PixelStream s) {
    if (s.used == 4) {
        s.words = philox4x32(uvec4(s.pixel, s.block, 0u, kNoiseStream), s.key);
        s.block += 1u;
        s.used = 0;
    }
    uint word = s.words[s.used];
    s.used += 1;
    return counter_uniform(word);
}

float stirling_error(int n) {
    const float table[16] = float[16](
        0.0, 0.0810614675, 0.0413406976, 0.0276779253, 0.0207906719, 0.016644692,
        0.0138761289, 0.0118967099, 0.0104112653, 0.00925546233, 0.00833056308, 0.00757367536,
        0.00694284029, 0.00640899409, 0.00595137011, 0.00555473333);
    if (n <= 15)
        return table[n];
    precise float r = det_reciprocal(float(n));
    precise float r2 = r * r;
    precise float s = r * (0.0833333358 - r2 * (0.00277777785 - r2 * 0.000793650805));
    return s;
}

float deviance(int k, float mean, float delta) {
    precise float kf = float(k);
    precise float sum = kf + mean;
    if (abs(delta) < 0.100000001 * sum) {
        const float odd_reciprocal[11] =
            float[11](1.0, 0.333333343, 0.200000003, 0.142857149, 0.111111112, 0.0909090936,
                      0.0769230798, 0.0666666701, 0.0588235296, 0.0526315793, 0.0476190485);
        precise float v = det_divide(delta, sum);
        precise float s = delta * v;
        precise float term = 2.0 * kf * v;
        precise float v2 = v * v;
        for (int j = 1; j <= 10; ++j) {
            term = term * v2;
            precise float next = s + term * odd_reciprocal[j];
            if (next == s)
                break;
            s = next;
        }
        return s;
    }
    precise float d = kf * det_log(det_divide(kf, mean)) + (mean - kf);
    return d;
}

float log_poisson_probability(int k, float mean, float delta) {
    if (k == 0)
        return -mean;
    precise float kf = float(k);
    precise float r =
        ((-stirling_error(k) - deviance(k, mean, delta)) - 0.5 * det_log(kf)) - 0.918938518;
    return r;
}

float poisson_multiplication(float mean, inout PixelStream s) {
    precise float threshold = det_exp(-mean);
    precise float product = stream_uniform(s);
    int k = 0;
    while (product > threshold && k < kMaxDraws) {
        ++k;
        product = product * stream_uniform(s);
    }
    return float(k);
}

float poisson_transformed_rejection(float mean, inout PixelStream s) {
    precise float whole_mean = floor(mean);
    int whole_mean_i = int(whole_mean);
    precise float fraction_mean = mean - whole_mean;
    precise float root_mean = det_sqrt(mean);
    precise float b = 0.930999994 + 2.52999997 * root_mean;
    precise float a = -0.0590000004 + 0.0248300005 * b;
    precise float inverse_alpha = 1.12390006 + det_divide(1.13279998, b - 3.4000001);
    precise float vr = 0.927699983 - det_divide(3.62240005, b - 2.0);
    for (int draw = 0; draw < kMaxDraws; ++draw) {
        precise float u = stream_uniform(s) - 0.5;
        precise float v = stream_uniform(s);
        precise float us = 0.5 - abs(u);
        precise float offset = ((det_divide(2.0 * a, us) + b) * u + 0.430000007) + fraction_mean;
        if (offset < -mean - 1.0 || offset > 1.0e9)
            continue;
        int k = whole_mean_i + int(floor(offset));
        if (us >= 0.0700000003 && v <= vr)
            return float(k);
        if (k < 0 || (us < 0.0130000003 && v > us))
            continue;
        precise float delta = float(k - whole_mean_i) - fraction_mean;
        precise float lhs = (det_log(v) + det_log(inverse_alpha)) - det_log(det_divide(a, us * us) + b);
        if (lhs <= log_poisson_probability(k, mean, delta))
            return float(k);
    }
    return whole_mean;
}

float poisson_normal_approximation(float mean, inout PixelStream s) {
    if (!(mean < 3.40282347e+38))
        return mean;
    for (int draw = 0; draw < kMaxDraws; ++draw) {
        precise float x = 2.0 * stream_uniform(s) - 1.0;
        precise float y = 2.0 * stream_uniform(s) - 1.0;
        precise float r2 = x * x + y * y;
        if (r2 >= 1.0)
            continue;
        precise float z = x * det_sqrt(det_divide(-2.0 * det_log(r2), r2));
        precise float n = floor(mean + det_sqrt(mean) * z + 0.5);
        return n;
    }
    return mean;
}

// One Poisson deviate, a whole number as a float: counterPoisson() of CounterRandom.h.
float counter_poisson(float mean, uvec2 key, uint pixel) {
    if (!(mean > 0.0))
        return 0.0;
    PixelStream s = pixel_stream(key, pixel);
    if (mean < 10.0)
        return poisson_multiplication(mean, s);
    if (mean < 16777216.0)
        return poisson_transformed_rejection(mean, s);
    return poisson_normal_approximation(mean, s);
}
