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
// The viewport size, and the device position of the target's top-left corner (0 for the display,
// the pass's corner for an offscreen pass), so that clips stay in device pixels.
layout(push_constant) uniform Push { vec2 viewport; vec2 origin; } push;
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

// The corner bands: `count` strips from the band's straight edge `inner` to the shape's edge
// `outer`, each as wide as the shape at its middle.
float cornerBand(vec2 p, float inner, float outer, bool roundLeft, bool roundRight, float k, int count) {
    float rx = vParams.x;
    float sum = 0.0;
    // Depth u runs from 0 at the straight edge to 1 at the shape's edge, where the width changes
    // fastest: the strips are equal steps of the angle θ = asin u, so they are thin there. The angle
    // advances by a rotation (no sine per strip), and with u = sin θ the integral of sqrt(1 - u²) is
    // F = (sin θ cos θ + θ) / 2. Each strip's lower edge is the last one's upper edge: its values and
    // its erf are carried over.
    float step_ = 1.5707963 / float(count);
    float cs = cos(step_);
    float sn = sin(step_);
    float s0 = 0.0;
    float c0 = 1.0;
    float area0 = 0.0;
    float e0 = erf_((p.y - inner) * k);
    // The sides far (beyond five standard deviations) from the fragment keep their erf at ±1.
    float reach = 5.0 / k * 0.70710678;
    bool leftNear = p.x < vRect.x + rx + reach;
    bool rightNear = p.x > vRect.z - rx - reach;
    float leftFar = p.x > vRect.x ? 1.0 : -1.0;
    float rightFar = p.x > vRect.z ? 1.0 : -1.0;
    for (int i = 0; i < 64; i++) {
        if (i >= count) {
            break;
        }
        float s1 = s0 * cs + c0 * sn;
        float c1 = c0 * cs - s0 * sn;
        float area1 = 0.5 * (s1 * c1 + step_ * float(i + 1));
        float e1 = erf_((p.y - mix(inner, outer, s1)) * k);
        // The strip's mean inset, so that its area is the shape's exactly: the inset is
        // rx (1 - sqrt(1 - u²)), its mean over [u0, u1] is rx (1 - (F1 - F0) / (u1 - u0)).
        float inset = rx * (1.0 - (area1 - area0) / max(s1 - s0, 1e-7));
        float left = leftNear ? erf_((p.x - vRect.x - (roundLeft ? inset : 0.0)) * k) : leftFar;
        float right = rightNear ? erf_((p.x - vRect.z + (roundRight ? inset : 0.0)) * k) : rightFar;
        sum += 0.25 * abs(e0 - e1) * (left - right);
        s0 = s1;
        c0 = c1;
        area0 = area1;
        e0 = e1;
    }
    return sum;
}

void main() {
    // Clip coverage first: its derivatives need the whole 2x2 quad.
    vec2 f = gl_FragCoord.xy + push.origin;  // device pixels, also in an offscreen pass
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
        // A band more than five standard deviations away adds nothing an 8-bit target shows; and
        // more than five from the rounded sides, every strip of a corner band has the whole width's
        // mass in x (the insets are at most rx), so the band is one full-width strip, exactly.
        float reach = 5.0 * sigma;
        bool nearLeft = p.x < vRect.x + vParams.x + reach;
        bool nearRight = p.x > vRect.z - vParams.x - reach;
        bool topRound = (((mask & 1) != 0 && nearLeft) || ((mask & 2) != 0 && nearRight)) && p.y < top + reach;
        bool bottomRound =
            (((mask & 4) != 0 && nearLeft) || ((mask & 8) != 0 && nearRight)) && p.y > bottom - reach;
        float from = topRound ? top : vRect.y;
        float to = bottomRound ? bottom : vRect.w;
        intensity = band(p.x, vRect.x, vRect.z, k) * band(p.y, from, max(to, from), k);
        if (topRound) {
            intensity += cornerBand(p, top, vRect.y, (mask & 1) != 0, (mask & 2) != 0, k, count);
        }
        if (bottomRound) {
            intensity += cornerBand(p, bottom, vRect.w, (mask & 4) != 0, (mask & 8) != 0, k, count);
        }
    }
    vec4 premultiplied = vColor * clamp(intensity, 0.0, 1.0) * alpha;
    // On the target's 8-bit steps, as every kind (FillInstance.onEightBitSteps).
    outColor = ceil(premultiplied * 255.0 - 0.5) / 255.0;
}
