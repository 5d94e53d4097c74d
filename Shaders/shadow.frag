#version 450
// A layer's shadow in closed form: the shape (a box whose corners are quarter ellipses of radii
// rx, ry, each corner rounded or not by the mask; an ellipse is the box with rx, ry at half its
// size) convolved with a Gaussian of standard deviation sigma, in the layer's plane.
//
// The Gaussian is separable, so a horizontal strip of the shape of constant width contributes
// exactly (the difference of two erf in x) times (the difference of two erf in y). The straight
// middle band is one such strip; each corner band (ry high) is cut into N strips, each as wide as
// the shape's mean width over it (so the strips' area is the shape's exactly). A rectangle is therefore exact (up to erf's 1.5e-7), and
// a rounded corner is exact up to the strips' steps, which sigma smooths (N grows with ry / sigma,
// DisplayListBuilder+Shadows.swift). Then times the colour, the device clip and one general clip.
layout(location = 0) in vec2 vLocal;
layout(location = 1) flat in vec4 vRect;
layout(location = 2) flat in vec4 vParams;
layout(location = 3) flat in vec4 vColor;
layout(location = 4) flat in vec4 vDeviceClip;
layout(location = 5) flat in vec4 vClip0;
layout(location = 6) flat in vec4 vClip1;
layout(location = 7) flat in vec4 vClip2;
layout(location = 8) flat in vec4 vClipRect;
layout(location = 9) flat in vec4 vFlags;

layout(location = 0) out vec4 outColor;

// Abramowitz and Stegun 7.1.26: |error| < 1.5e-7.
float erf_(float x) {
    float a = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * a);
    float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
        * t * exp(-a * a);
    return x < 0.0 ? -y : y;
}

// The Gaussian's mass between a and b along one axis, seen from p (k = 1 / (sigma * sqrt(2))).
float band(float p, float a, float b, float k) {
    return 0.5 * (erf_((p - a) * k) - erf_((p - b) * k));
}

// The same as shape.frag's rounded-rectangle distance, for the general clip.
float cornerDistance(vec2 d, vec2 halfSize, float r, bool continuous) {
    if (!continuous || r <= 0.0) {
        vec2 q = abs(d) - halfSize + r;
        return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
    }
    float reach = max(min(r * 1.528665, min(halfSize.x, halfSize.y)), r);
    float n = -0.6931472 / log(1.0 - 0.2928932 * r / reach);
    vec2 q = abs(d) - halfSize + reach;
    vec2 qp = max(q, 0.0);
    float m = max(qp.x, qp.y);
    if (m <= 0.0) {
        return max(q.x, q.y) - reach;
    }
    vec2 u = qp / m;
    float s = pow(u.x, n) + pow(u.y, n);
    float norm = m * pow(s, 1.0 / n);
    vec2 g = pow(u * pow(s, -1.0 / n), vec2(n - 1.0));
    return (norm - reach) / max(length(g), 1e-6);
}

float coverage(float distance) {
    float pixel = max(length(vec2(dFdx(distance), dFdy(distance))), 1e-5);
    return clamp(0.5 - distance / pixel, 0.0, 1.0);
}

float clipCoverage(vec2 f, vec4 row0, vec4 row1, vec4 row2, vec4 rect) {
    vec3 h = f.x * row0.xyz + f.y * row1.xyz + row2.xyz;
    vec2 p = h.xy / max(h.z, 1e-6);
    vec2 center = (rect.xy + rect.zw) * 0.5;
    vec2 half_ = (rect.zw - rect.xy) * 0.5;
    float c = coverage(cornerDistance(p - center, half_, row0.w, row1.w > 0.5));
    return h.z > 0.0 ? c : 0.0;
}

// The integral of sqrt(1 - u²) from 0 to u.
float quarterArea(float u) {
    return 0.5 * (u * sqrt(max(1.0 - u * u, 0.0)) + asin(clamp(u, 0.0, 1.0)));
}

// The corner bands: `count` strips from the band's straight edge `inner` to the shape's edge
// `outer`, each as wide as the shape at its middle.
float cornerBand(vec2 p, float inner, float outer, bool roundLeft, bool roundRight, float k, int count) {
    float rx = vParams.x;
    float ry = vParams.y;
    float sum = 0.0;
    for (int i = 0; i < 64; i++) {
        if (i >= count) {
            break;
        }
        // Depth u runs from 0 at the straight edge to 1 at the shape's edge, where the width changes
        // fastest: the strips are equal steps of the angle asin u, so they are thin there.
        float u0 = sin(1.5707963 * float(i) / float(count));
        float u1 = sin(1.5707963 * float(i + 1) / float(count));
        float t0 = mix(inner, outer, u0);
        float t1 = mix(inner, outer, u1);
        // The strip's mean inset, so that its area is the shape's exactly: the inset is
        // rx (1 - sqrt(1 - u²)), and its mean over [u0, u1] comes from the integral
        // F(u) = (u sqrt(1 - u²) + asin u) / 2 of sqrt(1 - u²).
        float inset = rx * (1.0 - (quarterArea(u1) - quarterArea(u0)) / (u1 - u0));
        float left = vRect.x + (roundLeft ? inset : 0.0);
        float right = vRect.z - (roundRight ? inset : 0.0);
        sum += band(p.y, min(t0, t1), max(t0, t1), k) * band(p.x, left, right, k);
    }
    return sum;
}

void main() {
    // Clip coverage first: its derivatives need the whole 2x2 quad.
    vec2 f = gl_FragCoord.xy;
    float alpha = clamp(f.x + 0.5 - vDeviceClip.x, 0.0, 1.0) * clamp(vDeviceClip.z - f.x + 0.5, 0.0, 1.0);
    alpha *= clamp(f.y + 0.5 - vDeviceClip.y, 0.0, 1.0) * clamp(vDeviceClip.w - f.y + 0.5, 0.0, 1.0);
    if (vFlags.x > 0.5) {
        alpha *= clipCoverage(f, vClip0, vClip1, vClip2, vClipRect);
    }

    vec2 p = vLocal;
    float sigma = vParams.z;
    float k = 0.70710678 / sigma;
    float ry = vParams.y;
    int mask = int(vParams.w + 0.5);
    int count = int(vFlags.y + 0.5);
    float intensity;
    if (ry <= 0.0 || vParams.x <= 0.0 || mask == 0) {
        intensity = band(p.x, vRect.x, vRect.z, k) * band(p.y, vRect.y, vRect.w, k);
    } else {
        float top = vRect.y + ry;
        float bottom = vRect.w - ry;
        intensity = band(p.x, vRect.x, vRect.z, k) * band(p.y, top, max(bottom, top), k);
        // A band more than five standard deviations away adds nothing an 8-bit target shows.
        float reach = 5.0 * sigma;
        if (p.y < top + reach) {
            intensity += cornerBand(p, top, vRect.y, (mask & 1) != 0, (mask & 2) != 0, k, count);
        }
        if (p.y > bottom - reach) {
            intensity += cornerBand(p, bottom, vRect.w, (mask & 4) != 0, (mask & 8) != 0, k, count);
        }
    }
    vec4 premultiplied = vColor * clamp(intensity, 0.0, 1.0) * alpha;
    // On the target's 8-bit steps, as every kind (FillInstance.onEightBitSteps).
    outColor = ceil(premultiplied * 255.0 - 0.5) / 255.0;
}
