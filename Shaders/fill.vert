#version 450
// Flat axis-aligned rectangles in device pixels: the fast path. One instanced strip per batch; the
// colour travels as a smooth (not flat) varying so llvmpipe's linear rasterizer stays engaged.
layout(location = 0) in vec4 inRect;   // minX, minY, maxX, maxY (device pixels)
layout(location = 1) in vec4 inColor;  // premultiplied RGBA

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec4 vColor;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 p = mix(inRect.xy, inRect.zw, corner);
    gl_Position = vec4(p / push.viewport * 2.0 - 1.0, 0.0, 1.0);
    vColor = inColor;
}
