#version 450
// A CAGradientLayer's gradient: the parameter t at the fragment (axial, radial or conic), the colour
// of up to eight stops interpolated on unpremultiplied components, then premultiplied, times the
// opacity and the coverage of the layer's rounded bounds, the device clip and one general clip.
// The viewport size, and the device position of the target's top-left corner (0 for the display,
// the pass's corner for an offscreen pass), so that clips stay in device pixels.
layout(push_constant) uniform Push { vec2 viewport; vec2 origin; } push;
layout(location = 0) in vec4 vLocal;  // layer position; the gradient's coordinates (gradient.vert)
layout(location = 1) flat in vec4 vRect;
layout(location = 2) flat in vec4 vParams;
layout(location = 3) flat in vec4 vPoints;
layout(location = 4) flat in vec4 vDeviceClip;
layout(location = 5) flat in vec4 vClip0;
layout(location = 6) flat in vec4 vClip1;
layout(location = 7) flat in vec4 vClip2;
layout(location = 8) flat in vec4 vClipRect;
layout(location = 9) flat in vec4 vRange;
layout(location = 10) flat in uvec4 vLocations;
layout(location = 11) flat in uvec4 vColorsLow;
layout(location = 12) flat in uvec4 vColorsHigh;

layout(location = 0) out vec4 outColor;

// Signed distance to a box of half size `halfSize` centred at the origin whose corner at `d` is
// rounded by `r` (negative inside): circular, or Apple's continuous curve (as shape-continuous.frag).
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

// Per-corner radii in the order minX-minY, maxX-minY, minX-maxY, maxX-maxY (y grows downward).
float roundedRectDistance(vec2 p, vec4 rect, vec4 radii, bool continuous) {
    vec2 center = (rect.xy + rect.zw) * 0.5;
    vec2 half_ = (rect.zw - rect.xy) * 0.5;
    vec2 d = p - center;
    float r = d.x < 0.0 ? (d.y < 0.0 ? radii.x : radii.z) : (d.y < 0.0 ? radii.y : radii.w);
    return cornerDistance(d, half_, r, continuous);
}

float coverage(float distance) {
    float pixel = max(length(vec2(dFdx(distance), dFdy(distance))), 1e-5);
    return clamp(0.5 - distance / pixel, 0.0, 1.0);
}

float clipCoverage(vec2 f, vec4 row0, vec4 row1, vec4 row2, vec4 rect) {
    vec3 h = f.x * row0.xyz + f.y * row1.xyz + row2.xyz;
    vec2 p = h.xy / max(h.z, 1e-6);
    float c = coverage(roundedRectDistance(p, rect, vec4(row0.w), row1.w > 0.5));
    return h.z > 0.0 ? c : 0.0;
}

// Whether the fragment at `p` (layer coordinates) is drawn with a hard edge: the edge of `rect`
// nearest to it is one of the hard edges (bits from 32 up in the corner lane: 1 minX, 2 maxX, 4 minY,
// 8 maxY, Apple's CAEdgeAntialiasingMask), covered by the pixel-centre rule (as shape.frag).
bool hardEdge(vec2 p, vec4 rect, int maskValue) {
    int hard = maskValue >> 5;
    vec2 d = p - (rect.xy + rect.zw) * 0.5;
    vec2 q = abs(d) - (rect.zw - rect.xy) * 0.5;
    int edge = q.x > q.y ? (d.x < 0.0 ? 1 : 2) : (d.y < 0.0 ? 4 : 8);
    return (hard & edge) != 0;
}

void main() {
    // Coverage first: its derivatives need the whole 2x2 quad, before any choice per fragment.
    int maskValue = int(vParams.y + 0.5);
    bool continuous = (maskValue & 16) != 0;
    float radius = vParams.x;
    vec4 radii = vec4((maskValue & 1) != 0 ? radius : 0.0, (maskValue & 2) != 0 ? radius : 0.0,
                      (maskValue & 4) != 0 ? radius : 0.0, (maskValue & 8) != 0 ? radius : 0.0);
    float outer = roundedRectDistance(vLocal.xy, vRect, radii, continuous);
    float soft = coverage(outer);
    float alpha = hardEdge(vLocal.xy, vRect, maskValue) ? (outer <= 0.0 ? 1.0 : 0.0) : soft;
    vec2 f = gl_FragCoord.xy + push.origin;  // device pixels, also in an offscreen pass
    alpha *= clamp(f.x + 0.5 - vDeviceClip.x, 0.0, 1.0) * clamp(vDeviceClip.z - f.x + 0.5, 0.0, 1.0);
    alpha *= clamp(f.y + 0.5 - vDeviceClip.y, 0.0, 1.0) * clamp(vDeviceClip.w - f.y + 0.5, 0.0, 1.0);
    // The clip count is per instance (flat), so this branch is uniform over the quad and the
    // derivatives inside it are defined.
    if (vParams.z > 0.5) {
        alpha *= clipCoverage(f, vClip0, vClip1, vClip2, vClipRect);
    }

    int type = int(vParams.w + 0.5);
    float t;
    if (type == 1) {
        // Radial: an ellipse centred on start whose half axes reach end (CAGradientLayer.h).
        t = length(vLocal.zw);
    } else if (type == 2) {
        // Conic: the angle about start from the direction of end (vPoints.z), growing from +x towards
        // +y, over a full turn.
        vec2 d = vLocal.zw;
        float a = (d.x == 0.0 && d.y == 0.0) ? vPoints.z : atan(d.y, d.x);
        t = fract((a - vPoints.z) / 6.28318530718);
    } else {
        t = vLocal.z;
    }
    alpha *= (t >= vRange.x && t < vRange.y) ? vRange.z : 0.0;

    // The stops, mixed in order: each segment moves the colour all the way to its end stop once t
    // has passed it, part of the way while t lies in it, not at all before it. No dynamic indexing,
    // no divergent loop: the segment count is per instance.
    vec2 l01 = unpackHalf2x16(vLocations.x);
    vec2 l23 = unpackHalf2x16(vLocations.y);
    vec2 l45 = unpackHalf2x16(vLocations.z);
    vec2 l67 = unpackHalf2x16(vLocations.w);
    float loc[8] = float[8](l01.x, l01.y, l23.x, l23.y, l45.x, l45.y, l67.x, l67.y);
    vec4 stops[8] = vec4[8](
        unpackUnorm4x8(vColorsLow.x), unpackUnorm4x8(vColorsLow.y), unpackUnorm4x8(vColorsLow.z),
        unpackUnorm4x8(vColorsLow.w), unpackUnorm4x8(vColorsHigh.x), unpackUnorm4x8(vColorsHigh.y),
        unpackUnorm4x8(vColorsHigh.z), unpackUnorm4x8(vColorsHigh.w));
    int segments = int(vRange.w + 0.5) - 1;
    vec4 color = stops[0];
    for (int i = 0; i < 7; i++) {
        if (i < segments) {
            float l0 = loc[i];
            float l1 = loc[i + 1];
            float k = l1 > l0 ? clamp((t - l0) / (l1 - l0), 0.0, 1.0) : (t >= l0 ? 1.0 : 0.0);
            color = mix(color, stops[i + 1], k);
        }
    }
    vec4 premultiplied = vec4(color.rgb * color.a, color.a) * alpha;
    // On the target's 8-bit steps, as every kind (FillInstance.onEightBitSteps).
    outColor = ceil(premultiplied * 255.0 - 0.5) / 255.0;
}
