#version 450
#extension GL_GOOGLE_include_directive : require
// Bi-planar YCbCr contents (NV12, P010) under any transform and clip (draw kinds `video` and
// `additiveVideo`): the luma plane through the batch's sampler (R8 or R16 image) and the chroma plane
// (RG8 or RG16 image: Cb, Cr) always bilinearly, at the same point of the picture, where the
// surface's chroma siting puts its samples (docs/surfaces.md, "Chroma siting"). The rest is
// image-shape.glsl.
layout(set = 0, binding = 0) uniform sampler2D luma;
layout(set = 0, binding = 1) uniform sampler2D chroma;

#include "image-shape.glsl"

// vParams.y carries the conversion (SurfaceYCbCr.drawCode): 1 for BT.709 (else BT.601), + 2 for full
// range (else video range), + 4 for 10-bit samples in the high bits of 16 (P010), + 8 x the chroma
// location (H.264's chroma_sample_loc_type: 0 Left, 1 Center, 2 TopLeft, 3 Top, 4 BottomLeft,
// 5 Bottom).
vec4 contentsTexel(vec2 uv) {
    int code = int(round(vParams.y));
    bool bt709 = (code & 1) != 0;
    bool fullRange = (code & 2) != 0;
    bool tenBit = (code & 4) != 0;
    int siting = code >> 3;
    // The chroma plane covers 2 x its size in luma samples (one more than the picture's odd side). A
    // point at luma coordinate p (in texels) lies at p / 2 in chroma texels when a chroma sample sits
    // at the centre of its 2 x 2 block; a sample co-sited with the block's left column (or top row)
    // lies half a luma pixel left of (above) that centre, so the point lies a quarter of a chroma
    // texel further right (down): p / 2 + 0.25; co-sited with the bottom row, p / 2 - 0.25.
    vec2 lumaSize = vec2(textureSize(luma, 0));
    vec2 chromaSize = vec2(textureSize(chroma, 0));
    bool left = siting == 0 || siting == 2 || siting == 4;
    vec2 shift = vec2(left ? 0.25 : 0.0, siting == 2 || siting == 3 ? 0.25 : siting >= 4 ? -0.25 : 0.0);
    float y = texture(luma, uv).r;
    vec2 c = texture(chroma, (uv * lumaSize / 2.0 + shift) / chromaSize).rg;
    // Normalised samples to code values: 8-bit, or 10-bit in the high bits of a 16-bit sample.
    float toCode = tenBit ? 65535.0 / 64.0 : 255.0;
    float step = tenBit ? 4.0 : 1.0;
    y *= toCode;
    c *= toCode;
    float lumaValue;
    vec2 cbcr;
    if (fullRange) {
        float top = tenBit ? 1023.0 : 255.0;
        lumaValue = y / top;
        cbcr = (c - 128.0 * step) / top;
    } else {
        lumaValue = (y - 16.0 * step) / (219.0 * step);
        cbcr = (c - 128.0 * step) / (224.0 * step);
    }
    float kr = bt709 ? 0.2126 : 0.299;
    float kb = bt709 ? 0.0722 : 0.114;
    float kg = 1.0 - kr - kb;
    float r = lumaValue + 2.0 * (1.0 - kr) * cbcr.y;
    float b = lumaValue + 2.0 * (1.0 - kb) * cbcr.x;
    float g = (lumaValue - kr * r - kb * b) / kg;
    return vec4(clamp(vec3(r, g, b), 0.0, 1.0), 1.0);
}
