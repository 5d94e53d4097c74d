#version 450
// A CAGradientLayer's gradient: the parameter t at the fragment (axial, radial or conic), the colour
// of up to eight stops interpolated on unpremultiplied components, then premultiplied, times the
// opacity and the coverage of the layer's rounded bounds, the device clip and one general clip.
layout(location = 0) in vec2 vLocal;
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

float location(int i) {
    uint word = vLocations[i >> 1];
    vec2 pair = unpackHalf2x16(word);
    return (i & 1) == 0 ? pair.x : pair.y;
}

vec4 stopColor(int i) {
    return unpackUnorm4x8(i < 4 ? vColorsLow[i] : vColorsHigh[i - 4]);
}

void main() {
    // Coverage first: its derivatives need the whole 2x2 quad, before any choice per fragment.
    int maskValue = int(vParams.y + 0.5);
    bool continuous = (maskValue & 16) != 0;
    float radius = vParams.x;
    vec4 radii = vec4((maskValue & 1) != 0 ? radius : 0.0, (maskValue & 2) != 0 ? radius : 0.0,
                      (maskValue & 4) != 0 ? radius : 0.0, (maskValue & 8) != 0 ? radius : 0.0);
    float alpha = coverage(roundedRectDistance(vLocal, vRect, radii, continuous));
    vec2 f = gl_FragCoord.xy;
    alpha *= clamp(f.x + 0.5 - vDeviceClip.x, 0.0, 1.0) * clamp(vDeviceClip.z - f.x + 0.5, 0.0, 1.0);
    alpha *= clamp(f.y + 0.5 - vDeviceClip.y, 0.0, 1.0) * clamp(vDeviceClip.w - f.y + 0.5, 0.0, 1.0);
    // The clip count is per instance (flat), so this branch is uniform over the quad and the
    // derivatives inside it are defined.
    if (vParams.z > 0.5) {
        alpha *= clipCoverage(f, vClip0, vClip1, vClip2, vClipRect);
    }

    vec2 start = vPoints.xy;
    vec2 end = vPoints.zw;
    vec2 p = vLocal;
    int type = int(vParams.w + 0.5);
    float t;
    if (type == 1) {
        // Radial: an ellipse centred on start whose half axes reach end (CAGradientLayer.h).
        vec2 radiiXY = abs(end - start);
        t = length((p - start) / radiiXY);
    } else if (type == 2) {
        // Conic: the angle about start from the direction of end, growing from +x towards +y.
        vec2 axis = end - start;
        float a0 = (axis.x == 0.0 && axis.y == 0.0) ? 0.0 : atan(axis.y, axis.x);
        vec2 d = p - start;
        float a = (d.x == 0.0 && d.y == 0.0) ? a0 : atan(d.y, d.x);
        t = fract((a - a0) / 6.28318530718);
    } else {
        vec2 axis = end - start;
        t = dot(p - start, axis) / dot(axis, axis);
    }
    alpha *= (t >= vRange.x && t < vRange.y) ? vRange.z : 0.0;

    int count = int(vRange.w + 0.5);
    vec4 color = stopColor(0);
    if (t > location(0)) {
        color = stopColor(count - 1);
        for (int i = 0; i < count - 1; i++) {
            float l0 = location(i);
            float l1 = location(i + 1);
            if (t < l1) {
                float k = l1 > l0 ? (t - l0) / (l1 - l0) : 1.0;
                color = mix(stopColor(i), stopColor(i + 1), clamp(k, 0.0, 1.0));
                break;
            }
        }
    }
    vec4 premultiplied = vec4(color.rgb * color.a, color.a) * alpha;
    // On the target's 8-bit steps, as every kind (FillInstance.onEightBitSteps).
    outColor = ceil(premultiplied * 255.0 - 0.5) / 255.0;
}
