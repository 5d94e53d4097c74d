// The body shared by image-shape.frag and video.frag: contents under any transform and clip, a
// perspective-correct texel (from `contentsTexel`, which the including shader defines after its
// inputs) times the opacity, the anti-aliased coverage of the rectangle's outer sides, the device
// clip rectangle and up to two rounded-rectangle clips in other layers' planes (circular or
// continuous corners, as in shape-continuous.frag).
// The viewport size, and the device position of the target's top-left corner (0 for the display,
// the pass's corner for an offscreen pass), so that clips stay in device pixels.
layout(push_constant) uniform Push { vec2 viewport; vec2 origin; } push;
layout(location = 0) in vec2 vLocal;
layout(location = 1) in vec4 vRect;
layout(location = 2) in vec4 vGrow;
layout(location = 3) in vec4 vUVTransform;
layout(location = 4) in vec4 vParams;
layout(location = 5) in vec4 vDeviceClip;
layout(location = 6) in vec4 vClipA0;
layout(location = 7) in vec4 vClipA1;
layout(location = 8) in vec4 vClipA2;
layout(location = 9) in vec4 vClipARect;
layout(location = 10) in vec4 vClipB0;
layout(location = 11) in vec4 vClipB1;
layout(location = 12) in vec4 vClipB2;
layout(location = 13) in vec4 vClipBRect;

layout(location = 0) out vec4 outColor;

// Defined by the including shader: the premultiplied colour of the contents at `uv`.
vec4 contentsTexel(vec2 uv);
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

// Coverage of a rounded-rectangle clip in another plane: the fragment's device position is mapped
// through the clip's homography (rows 0-2, xyz lanes; radius in row0.w, 1 in row1.w for continuous
// corners). No branch around coverage(): derivatives need the whole 2x2 quad.
float clipCoverage(vec2 f, vec4 row0, vec4 row1, vec4 row2, vec4 rect) {
    vec3 h = f.x * row0.xyz + f.y * row1.xyz + row2.xyz;
    vec2 p = h.xy / max(h.z, 1e-6);
    float c = coverage(roundedRectDistance(p, rect, vec4(row0.w), row1.w > 0.5));
    return h.z > 0.0 ? c : 0.0;
}

// Coverage of the inside of one side of the rectangle along one layer axis: `inside` is the layer
// distance to the side (positive inside); a side that is not grown is a hard edge (coverage 1).
float sideCoverage(float inside, float grow) {
    float pixel = max(length(vec2(dFdx(inside), dFdy(inside))), 1e-5);
    return grow > 0.0 ? clamp(0.5 + inside / pixel, 0.0, 1.0) : 1.0;
}

void main() {
    vec2 p = clamp(vLocal, vRect.xy, vRect.zw);
    vec4 texel = contentsTexel(p * vUVTransform.xy + vUVTransform.zw);
    float alpha = vParams.x;
    alpha *= sideCoverage(vLocal.x - vRect.x, vGrow.x) * sideCoverage(vRect.z - vLocal.x, vGrow.z);
    alpha *= sideCoverage(vLocal.y - vRect.y, vGrow.y) * sideCoverage(vRect.w - vLocal.y, vGrow.w);

    vec2 f = gl_FragCoord.xy + push.origin;  // device pixels, also in an offscreen pass
    alpha *= clamp(f.x + 0.5 - vDeviceClip.x, 0.0, 1.0) * clamp(vDeviceClip.z - f.x + 0.5, 0.0, 1.0);
    alpha *= clamp(f.y + 0.5 - vDeviceClip.y, 0.0, 1.0) * clamp(vDeviceClip.w - f.y + 0.5, 0.0, 1.0);

    float clips = vParams.z;
    if (clips > 0.5) {
        alpha *= clipCoverage(f, vClipA0, vClipA1, vClipA2, vClipARect);
    }
    if (clips > 1.5) {
        alpha *= clipCoverage(f, vClipB0, vClipB1, vClipB2, vClipBRect);
    }
    // On the target's 8-bit steps with the rule every kind uses (FillInstance.onEightBitSteps).
    outColor = ceil(texel * alpha * 255.0 - 0.5) / 255.0;
}
