#version 450
// One pass of a separable Gaussian blur (or a halving): a quad covering the whole pass (the renderer
// sets a blur pass's viewport to the pass's own texels, which may lie beyond the display), whose
// fragments read the source pass by texel index.
layout(location = 0) in vec4 inRect;    // minX, minY, maxX, maxY (device pixels)
layout(location = 1) in vec4 inParams;  // step x, step y (texels), sigma (texels), taps each side
layout(location = 2) in vec4 inLimit;   // the source's width and height in texels, tint flag
layout(location = 3) in vec4 inTint;    // premultiplied tint for the source's alpha (with the flag)

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) flat out vec4 vParams;
layout(location = 1) flat out vec4 vLimit;
layout(location = 2) flat out vec4 vTint;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
    vParams = inParams;
    vLimit = inLimit;
    vTint = inTint;
}
