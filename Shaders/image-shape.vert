#version 450
// A contents rectangle in a layer's plane, mapped to the device by the layer's matrix (rows 1, 2 and 4,
// Apple's row-vector convention), grown on its anti-aliased sides. The layer position is interpolated
// perspective-correctly, so texture coordinates computed from it are too.
layout(location = 0) in vec4 inRow1;
layout(location = 1) in vec4 inRow2;
layout(location = 2) in vec4 inRow4;
layout(location = 3) in vec4 inRect;         // contents rectangle, layer coordinates
layout(location = 4) in vec4 inGrow;         // margin per side (0: hard edge)
layout(location = 5) in vec4 inUVTransform;  // uv = local * xy + zw
layout(location = 6) in vec4 inParams;       // opacity, unused, clip count, unused
layout(location = 7) in vec4 inDeviceClip;
layout(location = 8) in vec4 inClipA0;
layout(location = 9) in vec4 inClipA1;
layout(location = 10) in vec4 inClipA2;
layout(location = 11) in vec4 inClipARect;
layout(location = 12) in vec4 inClipB0;
layout(location = 13) in vec4 inClipB1;
layout(location = 14) in vec4 inClipB2;
layout(location = 15) in vec4 inClipBRect;

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec2 vLocal;
layout(location = 1) out vec4 vRect;
layout(location = 2) out vec4 vGrow;
layout(location = 3) out vec4 vUVTransform;
layout(location = 4) out vec4 vParams;
layout(location = 5) out vec4 vDeviceClip;
layout(location = 6) out vec4 vClipA0;
layout(location = 7) out vec4 vClipA1;
layout(location = 8) out vec4 vClipA2;
layout(location = 9) out vec4 vClipARect;
layout(location = 10) out vec4 vClipB0;
layout(location = 11) out vec4 vClipB1;
layout(location = 12) out vec4 vClipB2;
layout(location = 13) out vec4 vClipBRect;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 local = mix(inRect.xy - inGrow.xy, inRect.zw + inGrow.zw, corner);
    vec4 p = local.x * inRow1 + local.y * inRow2 + inRow4;
    gl_Position = vec4(p.x * 2.0 / push.viewport.x - p.w, p.y * 2.0 / push.viewport.y - p.w, 0.0, p.w);
    vLocal = local;
    vRect = inRect;
    vGrow = inGrow;
    vUVTransform = inUVTransform;
    vParams = inParams;
    vDeviceClip = inDeviceClip;
    vClipA0 = inClipA0;
    vClipA1 = inClipA1;
    vClipA2 = inClipA2;
    vClipARect = inClipARect;
    vClipB0 = inClipB0;
    vClipB1 = inClipB1;
    vClipB2 = inClipB2;
    vClipBRect = inClipBRect;
}
