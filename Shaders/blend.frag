#version 450
// The separable blend modes of W3C Compositing and Blending Level 1 (section 9.1). With premultiplied
// source (cs, as) and backdrop (cb, ab) and B the blend function of the unpremultiplied colours, the
// result is cs(1 - ab) + cb(1 - as) + as ab B(Cb, Cs). This writes cs(1 - ab) + as ab B with alpha
// as, both times the opacity; the premultiplied "over" blend (ONE, ONE_MINUS_SRC_ALPHA) adds
// cb(1 - as) from the target, which holds the backdrop.
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) in vec2 vUV;
layout(location = 1) flat in vec2 vSourceOffset;
layout(location = 2) flat in vec2 vParams;
layout(location = 0) out vec4 outColor;

float hardLight(float cb, float cs) {
    return cs <= 0.5 ? cb * 2.0 * cs : cb + (2.0 * cs - 1.0) - cb * (2.0 * cs - 1.0);
}

float blendChannel(int mode, float cb, float cs) {
    switch (mode) {
    case 1: return cb * cs;                                  // multiply
    case 2: return cb + cs - cb * cs;                        // screen
    case 3: return hardLight(cs, cb);                        // overlay: hard light, layers swapped
    case 4: return min(cb, cs);                              // darken
    case 5: return max(cb, cs);                              // lighten
    case 6:                                                  // color dodge
        if (cb <= 0.0) return 0.0;
        if (cs >= 1.0) return 1.0;
        return min(1.0, cb / (1.0 - cs));
    case 7:                                                  // color burn
        if (cb >= 1.0) return 1.0;
        if (cs <= 0.0) return 0.0;
        return 1.0 - min(1.0, (1.0 - cb) / cs);
    case 8: {                                                // soft light
        if (cs <= 0.5) return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
        float d = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
        return cb + (2.0 * cs - 1.0) * (d - cb);
    }
    case 9: return hardLight(cb, cs);                        // hard light
    case 10: return abs(cb - cs);                            // difference
    case 11: return cb + cs - 2.0 * cb * cs;                 // exclusion
    default: return cs;                                      // normal
    }
}

void main() {
    vec4 b = texture(image, vUV);
    vec4 s = texture(image, vUV + vSourceOffset);
    int mode = int(vParams.y + 0.5);
    vec3 cb = b.a > 0.0 ? b.rgb / b.a : vec3(0.0);
    vec3 cs = s.a > 0.0 ? s.rgb / s.a : vec3(0.0);
    vec3 mixed = vec3(blendChannel(mode, cb.r, cs.r), blendChannel(mode, cb.g, cs.g), blendChannel(mode, cb.b, cs.b));
    vec3 color = s.rgb * (1.0 - b.a) + s.a * b.a * clamp(mixed, 0.0, 1.0);
    outColor = vec4(color, s.a) * vParams.x;
}
