#version 450
// Analytic anti-aliased coverage of a rounded rectangle or border ring, times a device clip rectangle
// and an optional rounded-rectangle clip in another layer's plane.
layout(location = 0) in vec2 vLocal;
layout(location = 1) in vec4 vShapeRect;
layout(location = 2) in vec4 vShapeParams;
layout(location = 3) in vec4 vColor;
layout(location = 4) in vec4 vDeviceClip;
layout(location = 5) in vec4 vClipRow0;
layout(location = 6) in vec4 vClipRow1;
layout(location = 7) in vec4 vClipRow2;
layout(location = 8) in vec4 vClipRect;
layout(location = 9) in vec4 vClipParams;

layout(location = 0) out vec4 outColor;

// Signed distance to a rounded rectangle (negative inside); `radii` are per corner in the order
// minX-minY, maxX-minY, minX-maxY, maxX-maxY (y grows downward).
float roundedRectDistance(vec2 p, vec4 rect, vec4 radii) {
    vec2 center = (rect.xy + rect.zw) * 0.5;
    vec2 half_ = (rect.zw - rect.xy) * 0.5;
    vec2 d = p - center;
    float r = d.x < 0.0 ? (d.y < 0.0 ? radii.x : radii.z) : (d.y < 0.0 ? radii.y : radii.w);
    vec2 q = abs(d) - half_ + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

// Coverage of the inside of a distance field over one pixel.
float coverage(float distance) {
    float pixel = max(length(vec2(dFdx(distance), dFdy(distance))), 1e-5);
    return clamp(0.5 - distance / pixel, 0.0, 1.0);
}

vec4 cornerRadii(float radius, float maskValue) {
    int mask = int(maskValue + 0.5);
    return vec4((mask & 1) != 0 ? radius : 0.0, (mask & 2) != 0 ? radius : 0.0,
                (mask & 4) != 0 ? radius : 0.0, (mask & 8) != 0 ? radius : 0.0);
}

void main() {
    float radius = vShapeParams.x;
    float border = vShapeParams.y;
    vec4 radii = cornerRadii(radius, vShapeParams.z);
    float alpha = coverage(roundedRectDistance(vLocal, vShapeRect, radii));
    if (border > 0.0) {
        vec4 inner = vShapeRect + vec4(border, border, -border, -border);
        float inside = coverage(roundedRectDistance(vLocal, inner, max(radii - border, 0.0)));
        alpha *= 1.0 - inside;
    }

    vec2 f = gl_FragCoord.xy;
    alpha *= clamp(f.x + 0.5 - vDeviceClip.x, 0.0, 1.0) * clamp(vDeviceClip.z - f.x + 0.5, 0.0, 1.0);
    alpha *= clamp(f.y + 0.5 - vDeviceClip.y, 0.0, 1.0) * clamp(vDeviceClip.w - f.y + 0.5, 0.0, 1.0);

    if (vClipParams.y > 0.5) {
        vec3 h = f.x * vClipRow0.xyz + f.y * vClipRow1.xyz + vClipRow2.xyz;
        // No branch around coverage(): derivatives need the whole 2x2 quad.
        vec2 clipLocal = h.xy / max(h.z, 1e-6);
        float clipAlpha = coverage(roundedRectDistance(clipLocal, vClipRect, vec4(vClipParams.x)));
        alpha *= h.z > 0.0 ? clipAlpha : 0.0;
    }
    outColor = vColor * alpha;
}
