#version 450
// A quad of a layer's shadow in the layer's plane (the shape grown by three standard deviations),
// mapped to the device by the layer's matrix (rows 1, 2 and 4, as shape.vert). Everything but the
// layer position is per instance, so it travels in flat varyings.
layout(location = 0) in vec4 inRow1;
layout(location = 1) in vec4 inRow2;
layout(location = 2) in vec4 inRow4;
layout(location = 3) in vec4 inPiece;        // quad to draw, layer coordinates
layout(location = 4) in vec4 inRect;         // the shadow's shape box, offset applied
layout(location = 5) in vec4 inParams;       // corner x radius, corner y radius, sigma, corner mask
layout(location = 6) in vec4 inColor;        // premultiplied, shadow and layer opacity applied
layout(location = 7) in vec4 inDeviceClip;
layout(location = 8) in vec4 inClip0;        // general clip: device -> plane homography rows, radius in .w
layout(location = 9) in vec4 inClip1;
layout(location = 10) in vec4 inClip2;
layout(location = 11) in vec4 inClipRect;
layout(location = 12) in vec4 inFlags;       // clip count, strips per corner band

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec2 vLocal;
layout(location = 1) flat out vec4 vRect;
layout(location = 2) flat out vec4 vParams;
layout(location = 3) flat out vec4 vColor;
layout(location = 4) flat out vec4 vDeviceClip;
layout(location = 5) flat out vec4 vClip0;
layout(location = 6) flat out vec4 vClip1;
layout(location = 7) flat out vec4 vClip2;
layout(location = 8) flat out vec4 vClipRect;
layout(location = 9) flat out vec4 vFlags;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 local = mix(inPiece.xy, inPiece.zw, corner);
    vec4 p = local.x * inRow1 + local.y * inRow2 + inRow4;
    gl_Position = vec4(p.x * 2.0 / push.viewport.x - p.w, p.y * 2.0 / push.viewport.y - p.w, 0.0, p.w);
    vLocal = local;
    vRect = inRect;
    vParams = inParams;
    vColor = inColor;
    vDeviceClip = inDeviceClip;
    vClip0 = inClip0;
    vClip1 = inClip1;
    vClip2 = inClip2;
    vClipRect = inClipRect;
    vFlags = inFlags;
}
