#version 450
// One axis of a separable Gaussian blur: the weighted sum of the source's texels along the step,
// the weights exp(-i^2 / 2 sigma^2) normalized over the taps, texels outside the source transparent.
// With the tint flag, the result's alpha times the tint (a shadow's colour) replaces its colour.
// With the halving flag, the texel is the average of the source's 2x2 block at twice its index.
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) flat in vec4 vParams;
layout(location = 1) flat in vec4 vLimit;
layout(location = 2) flat in vec4 vTint;
layout(location = 0) out vec4 outColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 stepBy = ivec2(vParams.xy);
    float sigma = max(vParams.z, 1e-3);
    int taps = int(vParams.w);
    ivec2 limit = ivec2(vLimit.xy);
    if (vLimit.w > 0.5) {
        vec4 block = vec4(0.0);
        for (int k = 0; k < 4; k++) {
            ivec2 q = 2 * p + ivec2(k & 1, k >> 1);
            if (all(lessThan(q, limit))) {
                block += texelFetch(image, q, 0);
            }
        }
        outColor = ceil(block * 0.25 * 255.0 - 0.5) / 255.0;
        return;
    }
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int i = -taps; i <= taps; i++) {
        float w = exp(-float(i * i) / (2.0 * sigma * sigma));
        total += w;
        ivec2 q = p + stepBy * i;
        if (all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, limit))) {
            sum += w * texelFetch(image, q, 0);
        }
    }
    vec4 color = sum / total;
    if (vLimit.z > 0.5) {
        color = vTint * color.a;
    }
    outColor = ceil(color * 255.0 - 0.5) / 255.0;
}
