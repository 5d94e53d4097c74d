#version 450
// A quad of a CAGradientLayer's gradient in the layer's plane, mapped to the device by the layer's
// matrix (rows 1, 2 and 4, as shape.vert). Everything but the layer position is per instance, so it
// travels in flat varyings (the kind is off llvmpipe's linear path anyway).
layout(location = 0) in vec4 inRow1;
layout(location = 1) in vec4 inRow2;
layout(location = 2) in vec4 inRow4;
layout(location = 3) in vec4 inPiece;        // quad to draw, layer coordinates
layout(location = 4) in vec4 inRect;         // the layer's bounds
layout(location = 5) in vec4 inParams;       // radius, corner mask (+16 continuous, +32 × hard edges), clip count, type
layout(location = 6) in vec4 inPoints;       // start.xy; axis / |axis|², 1 / half axes or start angle
layout(location = 7) in vec4 inDeviceClip;
layout(location = 8) in vec4 inClip0;        // general clip: device -> plane homography rows, radius in .w
layout(location = 9) in vec4 inClip1;
layout(location = 10) in vec4 inClip2;
layout(location = 11) in vec4 inClipRect;
layout(location = 12) in vec4 inRange;       // t from, t to, opacity, stop count
layout(location = 13) in uvec4 inLocations;  // 8 locations, half-float pairs
layout(location = 14) in uvec4 inColorsLow;  // stops 0-3, unorm8 RGBA
layout(location = 15) in uvec4 inColorsHigh; // stops 4-7

layout(push_constant) uniform Push { vec2 viewport; } push;

layout(location = 0) out vec4 vLocal;       // layer position; the gradient's own coordinates
layout(location = 1) flat out vec4 vRect;
layout(location = 2) flat out vec4 vParams;
layout(location = 3) flat out vec4 vPoints;
layout(location = 4) flat out vec4 vDeviceClip;
layout(location = 5) flat out vec4 vClip0;
layout(location = 6) flat out vec4 vClip1;
layout(location = 7) flat out vec4 vClip2;
layout(location = 8) flat out vec4 vClipRect;
layout(location = 9) flat out vec4 vRange;
layout(location = 10) flat out uvec4 vLocations;
layout(location = 11) flat out uvec4 vColorsLow;
layout(location = 12) flat out uvec4 vColorsHigh;

void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 local = mix(inPiece.xy, inPiece.zw, corner);
    vec4 p = local.x * inRow1 + local.y * inRow2 + inRow4;
    gl_Position = vec4(p.x * 2.0 / push.viewport.x - p.w, p.y * 2.0 / push.viewport.y - p.w, 0.0, p.w);
    // What t is made of, linear in the layer's plane, so interpolating it is exact: axial, t itself;
    // radial, the offset from the centre in half axes; conic, the offset from the centre.
    vec2 d = local - inPoints.xy;
    int type = int(inParams.w + 0.5);
    vec2 g = type == 1 ? d * inPoints.zw : type == 2 ? d : vec2(dot(d, inPoints.zw), 0.0);
    vLocal = vec4(local, g);
    vRect = inRect;
    vParams = inParams;
    vPoints = inPoints;
    vDeviceClip = inDeviceClip;
    vClip0 = inClip0;
    vClip1 = inClip1;
    vClip2 = inClip2;
    vClipRect = inClipRect;
    vRange = inRange;
    vLocations = inLocations;
    vColorsLow = inColorsLow;
    vColorsHigh = inColorsHigh;
}
