#version 450
// The coverage of the device pixel under this fragment's centre (in an offscreen pass of scale s,
// the one a fill piece's rasterization would pick): 1 inside, the edge's on an edge row or column,
// the corner's at a corner. The colour times it is rounded to the target's 8-bit steps by the rule
// every kind ends with (`FillInstance.onEightBitSteps`), without fused operations, so that the bytes
// are those of the still layer's fill pieces, which carry the same coverages.
layout(location = 0) flat in vec4 vPixels;
layout(location = 1) flat in vec4 vEdges;
layout(location = 2) flat in vec4 vCorners;
layout(location = 3) flat in vec4 vColor;
layout(location = 4) in vec2 vDevice;
layout(location = 0) out vec4 outColor;

void main() {
    vec2 d = floor(vDevice);
    bool left = d.x == vPixels.x, right = d.x == vPixels.z - 1.0;
    bool top = d.y == vPixels.y, bottom = d.y == vPixels.w - 1.0;
    float coverage = 1.0;
    if ((left || right) && (top || bottom)) {
        coverage = top ? (left ? vCorners.x : vCorners.y) : (left ? vCorners.z : vCorners.w);
    } else if (left || right) {
        coverage = left ? vEdges.x : vEdges.z;
    } else if (top || bottom) {
        coverage = top ? vEdges.y : vEdges.w;
    }
    precise vec4 color = vColor * coverage;
    precise vec4 steps = color * 255.0 - 0.5;
    outColor = ceil(steps) / 255.0;
}
