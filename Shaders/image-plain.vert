#version 450
// image.vert without the opacity: for contents drawn at opacity 1 (the plainImage kind reads only the
// first two vec4s of each ImageInstance).
layout(location = 0) in vec4 inRect;  // minX, minY, maxX, maxY (device pixels)
layout(location = 1) in vec4 inUV;    // texture coordinates at (minX, minY) and (maxX, maxY)

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec4 vUV;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 p = mix(inRect.xy, inRect.zw, corner);
    gl_Position = vec4(p / push.viewport * 2.0 - 1.0, 0.0, 1.0);
    vUV = vec4(mix(inUV.xy, inUV.zw, corner), 0.0, 1.0);
}
