#version 450
// A layer with a compositingFilter blended with its backdrop (DrawKind.blendImage): one rectangle in
// device pixels over a pass image whose left half is the backdrop and whose right half is the layer's
// drawing, both premultiplied. inUV spans the backdrop's half; the drawing lies one half-width right.
layout(location = 0) in vec4 inRect;    // minX, minY, maxX, maxY (device pixels)
layout(location = 1) in vec4 inUV;      // the backdrop half's texture coordinates at min and max
layout(location = 2) in vec4 inParams;  // opacity, blend-mode code, 0, 0

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec2 vUV;
layout(location = 1) flat out vec2 vSourceOffset;
layout(location = 2) flat out vec2 vParams;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 p = mix(inRect.xy, inRect.zw, corner);
    gl_Position = vec4(p / push.viewport * 2.0 - 1.0, 0.0, 1.0);
    vUV = mix(inUV.xy, inUV.zw, corner);
    vSourceOffset = vec2(inUV.z - inUV.x, 0.0);
    vParams = inParams.xy;
}
