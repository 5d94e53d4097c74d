#version 450
// A corner piece of an axis-aligned, uniformly scaled rounded rectangle, in device pixels: the
// background and (for leaf layers) the border ring in one piece. Four smooth varyings, no matrices.
layout(location = 0) in vec4 inRect;      // piece: minX, minY, maxX, maxY
layout(location = 1) in vec4 inShape;     // shape centre x, y and half width, half height
layout(location = 2) in vec4 inParams;    // radius, border width, corner mask, opacity
layout(location = 3) in vec4 inFill;      // premultiplied background colour (may be zero)
layout(location = 4) in vec4 inBorder;    // premultiplied border colour (may be zero)

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec4 vGeometry;  // position relative to the centre, half size
layout(location = 1) out vec4 vParams;
layout(location = 2) out vec4 vFill;
layout(location = 3) out vec4 vBorder;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 p = mix(inRect.xy, inRect.zw, corner);
    gl_Position = vec4(p / push.viewport * 2.0 - 1.0, 0.0, 1.0);
    vGeometry = vec4(p - inShape.xy, inShape.zw);
    vParams = inParams;
    vFill = inFill;
    vBorder = inBorder;
}
