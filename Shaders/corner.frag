#version 450
// Coverage in device pixels (one pixel of anti-aliasing): the background inside the rounded
// rectangle, and the border ring composited over it with premultiplied "over".
layout(location = 0) in vec4 vGeometry;
layout(location = 1) in vec4 vParams;
layout(location = 2) in vec4 vFill;
layout(location = 3) in vec4 vBorder;

layout(location = 0) out vec4 outColor;

float roundedBoxDistance(vec2 p, vec2 halfSize, float r) {
    vec2 q = abs(p) - halfSize + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
    vec2 p = vGeometry.xy;
    int mask = int(vParams.z + 0.5);
    int bit = p.x < 0.0 ? (p.y < 0.0 ? 1 : 4) : (p.y < 0.0 ? 2 : 8);
    float radius = (mask & bit) != 0 ? vParams.x : 0.0;
    float border = vParams.y;
    float outer = clamp(0.5 - roundedBoxDistance(p, vGeometry.zw, radius), 0.0, 1.0);
    float inner = border > 0.0
        ? clamp(0.5 - roundedBoxDistance(p, vGeometry.zw - border, max(radius - border, 0.0)), 0.0, 1.0)
        : 1.0;
    float ring = outer * (1.0 - inner);
    vec4 borderPart = vBorder * ring;
    // The piece's opacity (vParams.w) fades the composite as one: a leaf's group opacity.
    vec4 color = (borderPart + vFill * outer * (1.0 - borderPart.a)) * vParams.w;
    // On the target's 8-bit steps with the rule fills use (FillInstance.onEightBitSteps), so that
    // every kind gives the same byte for the same colour, ties included.
    outColor = ceil(color * 255.0 - 0.5) / 255.0;
}
