#version 450
// Coverage in device pixels (one pixel of anti-aliasing): the background inside the rounded
// rectangle, and the border ring composited over it with premultiplied "over". The variant of
// corner.frag for pieces with continuous corners (draw kind `continuousCorner`): the curve costs
// several pow() per pixel, which on lavapipe slows every piece a shader runs for, so circular
// corners keep corner.frag.
layout(location = 0) in vec4 vGeometry;
layout(location = 1) in vec4 vParams;     // radius, border width, corner mask (+16: continuous), opacity
layout(location = 2) in vec4 vFill;
layout(location = 3) in vec4 vBorder;

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

void main() {
    vec2 p = vGeometry.xy;
    int mask = int(vParams.z + 0.5);
    int bit = p.x < 0.0 ? (p.y < 0.0 ? 1 : 4) : (p.y < 0.0 ? 2 : 8);
    bool continuous = (mask & 16) != 0;
    float radius = (mask & bit) != 0 ? vParams.x : 0.0;
    float border = vParams.y;
    float outer = clamp(0.5 - cornerDistance(p, vGeometry.zw, radius, continuous), 0.0, 1.0);
    float inner = border > 0.0
        ? clamp(0.5 - cornerDistance(p, vGeometry.zw - border, max(radius - border, 0.0), continuous), 0.0, 1.0)
        : 1.0;
    float ring = outer * (1.0 - inner);
    vec4 borderPart = vBorder * ring;
    // The piece's opacity (vParams.w) fades the composite as one: a leaf's group opacity.
    vec4 color = (borderPart + vFill * outer * (1.0 - borderPart.a)) * vParams.w;
    // On the target's 8-bit steps with the rule fills use (FillInstance.onEightBitSteps), so that
    // every kind gives the same byte for the same colour, ties included.
    outColor = ceil(color * 255.0 - 0.5) / 255.0;
}
