#version 450
#extension GL_GOOGLE_include_directive : require
// Contents under any transform and clip (draw kinds `imageShape` and `additiveImageShape`): the
// batch's image through its sampler, with a text layer's tint; the rest is image-shape.glsl.
layout(set = 0, binding = 0) uniform sampler2D image;

#include "image-shape.glsl"

vec4 contentsTexel(vec2 uv) {
    vec4 texel = texture(image, uv);
    // A tint (a text layer's colour over its glyph coverage): 255 minus each 8-bit component, two
    // per lane (ImageShapeInstance.params), so 0 is white, no tint.
    vec2 packedPairs = round(vParams.yw);
    vec2 high = floor(packedPairs / 256.0);
    vec2 low = packedPairs - 256.0 * high;
    vec4 packed = vec4(low.x, high.x, low.y, high.y);
    texel *= (255.0 - packed) / 255.0;
    return texel;
}
