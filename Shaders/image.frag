#version 450
// One texel fetch times the opacity: keeps llvmpipe's linear path (BGRA texture, vec4 varying's .xy).
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) in vec4 vUV;
layout(location = 1) in vec4 vOpacity;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = texture(image, vUV.xy) * vOpacity;
}
