#version 450
// A flat axis-aligned rectangle whose edges may lie inside pixels (a moving layer's background): the
// quad covers the whole pixels it touches; the fragment shader scales the colour by each pixel's
// coverage, which the instance carries for the edge rows and columns and the corners.
layout(location = 0) in vec4 inPixels;   // minX, minY, maxX, maxY: whole device pixels
layout(location = 1) in vec4 inEdges;    // coverage of the left, top, right, bottom pixels
layout(location = 2) in vec4 inCorners;  // coverage of the top-left, top-right, bottom-left, bottom-right pixels
layout(location = 3) in vec4 inColor;    // premultiplied RGBA on 8-bit steps

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) flat out vec4 vPixels;
layout(location = 1) flat out vec4 vEdges;
layout(location = 2) flat out vec4 vCorners;
layout(location = 3) flat out vec4 vColor;
layout(location = 4) out vec2 vDevice;  // device pixels, also in an offscreen pass of any scale

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 p = mix(inPixels.xy, inPixels.zw, corner);
    gl_Position = vec4(p / push.viewport * 2.0 - 1.0, 0.0, 1.0);
    vPixels = inPixels;
    vEdges = inEdges;
    vCorners = inCorners;
    vColor = inColor;
    vDevice = p;
}
