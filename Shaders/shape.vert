#version 450
// A piece of a rounded rectangle or border ring in a layer's plane, mapped to the device by the
// layer's matrix (Apple's row-vector convention: [x y 0 1] * M, so rows 1, 2 and 4 suffice).
layout(location = 0) in vec4 inRow1;
layout(location = 1) in vec4 inRow2;
layout(location = 2) in vec4 inRow4;
layout(location = 3) in vec4 inPiece;        // quad to draw, layer coordinates
layout(location = 4) in vec4 inShapeRect;    // shape rectangle, layer coordinates
layout(location = 5) in vec4 inShapeParams;  // radius, border width, corner mask (+16 continuous, +32 × hard edges), clip count
layout(location = 6) in vec4 inColor;        // premultiplied
layout(location = 7) in vec4 inDeviceClip;   // device-space clip rectangle
layout(location = 8) in vec4 inClipA0;       // clip A: device -> plane homography rows, radius in A0.w
layout(location = 9) in vec4 inClipA1;
layout(location = 10) in vec4 inClipA2;
layout(location = 11) in vec4 inClipARect;
layout(location = 12) in vec4 inClipB0;      // clip B, the same layout
layout(location = 13) in vec4 inClipB1;
layout(location = 14) in vec4 inClipB2;
layout(location = 15) in vec4 inClipBRect;

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec2 vLocal;
layout(location = 1) out vec4 vShapeRect;
layout(location = 2) out vec4 vShapeParams;
layout(location = 3) out vec4 vColor;
layout(location = 4) out vec4 vDeviceClip;
layout(location = 5) out vec4 vClipA0;
layout(location = 6) out vec4 vClipA1;
layout(location = 7) out vec4 vClipA2;
layout(location = 8) out vec4 vClipARect;
layout(location = 9) out vec4 vClipB0;
layout(location = 10) out vec4 vClipB1;
layout(location = 11) out vec4 vClipB2;
layout(location = 12) out vec4 vClipBRect;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 local = mix(inPiece.xy, inPiece.zw, corner);
    vec4 p = local.x * inRow1 + local.y * inRow2 + inRow4;
    gl_Position = vec4(p.x * 2.0 / push.viewport.x - p.w, p.y * 2.0 / push.viewport.y - p.w, 0.0, p.w);
    vLocal = local;
    vShapeRect = inShapeRect;
    vShapeParams = inShapeParams;
    vColor = inColor;
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
