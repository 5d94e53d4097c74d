#version 450
// Axis-aligned contents rectangles in device pixels, on llvmpipe's linear path: the texture
// coordinate travels as a vec4 smooth varying (read through .xy) and the opacity as a smooth varying.
layout(location = 0) in vec4 inRect;     // minX, minY, maxX, maxY (device pixels)
layout(location = 1) in vec4 inUV;       // texture coordinates at (minX, minY) and (maxX, maxY)
layout(location = 2) in vec4 inOpacity;  // the opacity in every lane

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec4 vUV;
layout(location = 1) out vec4 vOpacity;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 p = mix(inRect.xy, inRect.zw, corner);
    gl_Position = vec4(p / push.viewport * 2.0 - 1.0, 0.0, 1.0);
    vUV = vec4(mix(inUV.xy, inUV.zw, corner), 0.0, 1.0);
    vOpacity = inOpacity;
}
