#version 450
// One texel fetch and nothing else, for contents drawn at opacity 1: llvmpipe's linear path then
// copies texels (measured about twice as fast as with the opacity multiply of image.frag).
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) in vec4 vUV;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = texture(image, vUV.xy);
}
