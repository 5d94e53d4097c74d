#version 450
// Analytic anti-aliased coverage of a rounded rectangle or border ring, times a device clip rectangle
// and up to two rounded-rectangle clips in other layers' planes. The variant of shape.frag for
// pieces whose own corners or whose clips' corners are continuous (draw kind `continuousShape`);
// circular pieces keep shape.frag, which lavapipe runs faster.
// The viewport size, and the device position of the target's top-left corner (0 for the display,
// the pass's corner for an offscreen pass), so that clips stay in device pixels.
layout(push_constant) uniform Push { vec2 viewport; vec2 origin; } push;
layout(location = 0) in vec2 vLocal;
layout(location = 1) in vec4 vShapeRect;
layout(location = 2) in vec4 vShapeParams;
layout(location = 3) in vec4 vColor;
layout(location = 4) in vec4 vDeviceClip;
layout(location = 5) in vec4 vClipA0;
layout(location = 6) in vec4 vClipA1;
layout(location = 7) in vec4 vClipA2;
layout(location = 8) in vec4 vClipARect;
layout(location = 9) in vec4 vClipB0;
layout(location = 10) in vec4 vClipB1;
layout(location = 11) in vec4 vClipB2;
layout(location = 12) in vec4 vClipBRect;

layout(location = 0) out vec4 outColor;
// Signed distance to a box of half size `halfSize` centred at the origin whose corner at `d` is
// rounded by `r` (negative inside). Circular corners are exact. A continuous corner (Apple's
// `.continuous` curve) starts r x 1.528665 from the corner along each edge (at most half the shorter
// side) and follows a superellipse |x|^n + |y|^n = R^n there, whose curvature rises from 0 where it
// meets the edges; n is chosen so that the curve crosses the diagonal where the circular corner
// does (n = 2, a circle, when the corner cannot reach further than r). Its distance is the implicit
// function over its gradient, exact along the edges and to first order on the curve.
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

// Signed distance to a rounded rectangle (negative inside); `radii` are per corner in the order
// minX-minY, maxX-minY, minX-maxY, maxX-maxY (y grows downward).
float roundedRectDistance(vec2 p, vec4 rect, vec4 radii, bool continuous) {
    vec2 center = (rect.xy + rect.zw) * 0.5;
    vec2 half_ = (rect.zw - rect.xy) * 0.5;
    vec2 d = p - center;
    float r = d.x < 0.0 ? (d.y < 0.0 ? radii.x : radii.z) : (d.y < 0.0 ? radii.y : radii.w);
    return cornerDistance(d, half_, r, continuous);
}

// Coverage of the inside of a distance field over one pixel.
float coverage(float distance) {
    float pixel = max(length(vec2(dFdx(distance), dFdy(distance))), 1e-5);
    return clamp(0.5 - distance / pixel, 0.0, 1.0);
}

vec4 cornerRadii(float radius, float maskValue) {
    int mask = int(maskValue + 0.5);
    return vec4((mask & 1) != 0 ? radius : 0.0, (mask & 2) != 0 ? radius : 0.0,
                (mask & 4) != 0 ? radius : 0.0, (mask & 8) != 0 ? radius : 0.0);
}

// Coverage of a rounded-rectangle clip in another plane: the fragment's device position is mapped
// through the clip's homography (rows 0-2, xyz lanes; radius in row0.w, 1 in row1.w for continuous
// corners). No branch around coverage(): derivatives need the whole 2x2 quad.
float clipCoverage(vec2 f, vec4 row0, vec4 row1, vec4 row2, vec4 rect) {
    vec3 h = f.x * row0.xyz + f.y * row1.xyz + row2.xyz;
    vec2 p = h.xy / max(h.z, 1e-6);
    float c = coverage(roundedRectDistance(p, rect, vec4(row0.w), row1.w > 0.5));
    return h.z > 0.0 ? c : 0.0;
}

// Whether the fragment at `p` (layer coordinates) is drawn with a hard edge: the edge of `rect`
// nearest to it is one of the `hard` edges (bits from 32 up in the corner lane: 1 minX, 2 maxX,
// 4 minY, 8 maxY, as Apple's CAEdgeAntialiasingMask names left, right, bottom and top), whose pixels
// are then covered by the pixel-centre rule instead of analytically.
bool hardEdge(vec2 p, vec4 rect, float maskValue) {
    int hard = int(maskValue + 0.5) >> 5;
    vec2 d = p - (rect.xy + rect.zw) * 0.5;
    vec2 q = abs(d) - (rect.zw - rect.xy) * 0.5;
    int edge = q.x > q.y ? (d.x < 0.0 ? 1 : 2) : (d.y < 0.0 ? 4 : 8);
    return (hard & edge) != 0;
}

void main() {
    float radius = vShapeParams.x;
    float border = vShapeParams.y;
    vec4 radii = cornerRadii(radius, vShapeParams.z);
    bool continuous = (int(vShapeParams.z + 0.5) & 16) != 0;
    // Coverage is found in uniform control flow (it takes derivatives), then a hard edge keeps only
    // whether the pixel's centre is inside.
    bool hard = hardEdge(vLocal, vShapeRect, vShapeParams.z);
    float outer = roundedRectDistance(vLocal, vShapeRect, radii, continuous);
    float soft = coverage(outer);
    float alpha = hard ? (outer <= 0.0 ? 1.0 : 0.0) : soft;
    if (border > 0.0) {
        vec4 inner = vShapeRect + vec4(border, border, -border, -border);
        float innerDistance = roundedRectDistance(vLocal, inner, max(radii - border, 0.0), continuous);
        float softInside = coverage(innerDistance);
        float inside = hard ? (innerDistance <= 0.0 ? 1.0 : 0.0) : softInside;
        alpha *= 1.0 - inside;
    }

    vec2 f = gl_FragCoord.xy + push.origin;  // device pixels, also in an offscreen pass
    alpha *= clamp(f.x + 0.5 - vDeviceClip.x, 0.0, 1.0) * clamp(vDeviceClip.z - f.x + 0.5, 0.0, 1.0);
    alpha *= clamp(f.y + 0.5 - vDeviceClip.y, 0.0, 1.0) * clamp(vDeviceClip.w - f.y + 0.5, 0.0, 1.0);

    float clips = vShapeParams.w;
    if (clips > 0.5) {
        alpha *= clipCoverage(f, vClipA0, vClipA1, vClipA2, vClipARect);
    }
    if (clips > 1.5) {
        alpha *= clipCoverage(f, vClipB0, vClipB1, vClipB2, vClipBRect);
    }
    // On the target's 8-bit steps with the rule fills use (FillInstance.onEightBitSteps), so that
    // every kind gives the same byte for the same colour, ties included.
    outColor = ceil(vColor * alpha * 255.0 - 0.5) / 255.0;
}
