// swift-tools-version:6.0
//
// Lamina: Core Animation's architecture on Linux.
//
// Module map and the imports each module may use (shared design brief, "Modules"):
//
//   CVulkan, CVulkanXcb, CPNG, CJPEG, CCairo, CPixman, CSystemd, CDRM, CGBM, CSeat, CUdev, CPango
//                     system libraries (module map + shim header); import nothing of ours (CVulkanXcb:
//                     xcb and VK_KHR_xcb_surface, for the window output and its tests; CPango: pangocairo
//                     and pangoft2 with the fontconfig and HarfBuzz they sit on, for LaminaText)
//   CLaminaShims      C: CMSG_*, memfd_create and seals, accept4, pipe2, SO_PEERCRED, timerfd, epoll; imports
//                     nothing of ours
//   LaminaCore        value types shared by client and server; imports Foundation only
//   LaminaSystem      the syscall layer (EINTR retried, would-block as nil, SystemError naming the call),
//                     OwnedFD, poll, mmap; imports CLaminaShims only; any module may import it
//   LaminaProtocol    wire messages, codec, socket transport; imports LaminaCore, LaminaSystem (re-exported),
//                     CLaminaShims
//   LaminaGraphics    Core Graphics drawing: CGContext on Cairo, CGImage, CGDataProvider, CGGradient, PNG and
//                     JPEG; imports LaminaCore and Foundation (both re-exported), CPNG, CJPEG, CCairo; no
//                     socket, protocol or server module
//   LaminaText        Core Text: fonts, lines, frames and attributed-string layout on Pango, drawn with
//                     Cairo into CGContext; imports LaminaGraphics (re-exported) and CPango; no socket,
//                     protocol or server module
//   Lamina            the client library users import; imports LaminaGraphics and LaminaText (both
//                     re-exported), LaminaCore, LaminaProtocol, CLaminaShims, CVulkan (CAVulkanLayer's
//                     drawables on the app's own Vulkan device); never a server module
//   LaminaServer      sessions, render trees, frame clock, display lists; imports LaminaCore,
//                     LaminaProtocol, LaminaSystem, Logging, CCairo (shape layers' paths rasterized with Cairo);
//                     knows Renderer and Output only as protocols (no Vulkan, no DRM)
//   LaminaVulkan      the Vulkan renderer; imports LaminaServer (its protocols), LaminaCore, CVulkan,
//                     Logging
//   LaminaOutputs     concrete outputs without a window system (offscreen, KMS), the frame timer and
//                     --output parsing; imports LaminaServer, CLaminaShims (timerfd), CDRM (libdrm: atomic
//                     mode setting, dumb buffers, page-flip events), CGBM (libgbm: scan-out buffers the
//                     renderer copies into as dma-bufs or mappings), CSeat (libseat: DRM master from a seat
//                     daemon), CUdev (libudev: hot-plug), Foundation (locks), Logging
//   LaminaWindow      the X11 window output (xcb window, Vulkan swapchain); imports LaminaServer,
//                     LaminaVulkan, LaminaOutputs (frame timer), CVulkanXcb, CLaminaShims (epoll)
//   LaminaTesting     headless harness for users' tests; imports Lamina, and LaminaServer for the
//                     recording renderer, null output and manual clock of in-process server tests
//   laminad, laminactl, lamina-demo, lamina-scene, lamina-bench, lamina-soak
//                     executables; laminad is the only place that picks concrete backends (and the
//                     only user of CSystemd: readiness, watchdog and socket activation, and of
//                     LaminaWindow); the benchmark also imports the server modules to time them
//                     in-process; the soak
//                     tool drives a laminad process, plots it with Cairo and seeds its clients
//                     with LaminaTesting's generator; lamina-scene commits the known
//                     scenes that Tools/kms-test compares across outputs
import PackageDescription

let package = Package(
    name: "Lamina",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Lamina", targets: ["Lamina"]),
        .library(name: "LaminaGraphics", targets: ["LaminaGraphics"]),
        .library(name: "LaminaText", targets: ["LaminaText"]),
        .library(name: "LaminaTesting", targets: ["LaminaTesting"]),
        .executable(name: "laminad", targets: ["laminad"]),
        .executable(name: "laminactl", targets: ["laminactl"]),
        .executable(name: "lamina-demo", targets: ["lamina-demo"]),
        .executable(name: "lamina-scene", targets: ["lamina-scene"]),
        .executable(name: "lamina-bench", targets: ["lamina-bench"]),
        .executable(name: "lamina-soak", targets: ["lamina-soak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CVulkan", pkgConfig: "vulkan", providers: [.apt(["libvulkan-dev"])]),
        .systemLibrary(name: "CVulkanXcb", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev", "libvulkan-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CGBM", pkgConfig: "gbm", providers: [.apt(["libgbm-dev"])]),
        .systemLibrary(name: "CSeat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(
            name: "CPango", pkgConfig: "pangoft2",
            providers: [.apt(["libpango1.0-dev", "libharfbuzz-dev", "libfontconfig-dev", "libcairo2-dev"])]),
        .target(name: "CLaminaShims"),
        .plugin(name: "CompileShaders", capability: .buildTool()),

        .target(name: "LaminaCore"),
        .target(name: "LaminaSystem", dependencies: ["CLaminaShims"]),
        .target(name: "LaminaProtocol", dependencies: ["LaminaCore", "LaminaSystem", "CLaminaShims"]),
        .target(name: "LaminaGraphics", dependencies: ["LaminaCore", "CPNG", "CJPEG", "CCairo"]),
        .target(name: "LaminaText", dependencies: ["LaminaGraphics", "CPango"]),
        .target(
            name: "Lamina", dependencies: ["LaminaGraphics", "LaminaText", "LaminaCore", "LaminaProtocol", "CVulkan"]),
        .target(
            name: "LaminaServer",
            dependencies: [
                "LaminaCore", "LaminaProtocol", "LaminaSystem", "CCairo",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "LaminaVulkan",
            dependencies: ["LaminaServer", "CVulkan", .product(name: "Logging", package: "swift-log")],
            plugins: ["CompileShaders"]),
        .target(
            name: "LaminaOutputs",
            dependencies: [
                "LaminaServer", "CLaminaShims", "CDRM", "CGBM", "CSeat", "CUdev",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "LaminaWindow",
            dependencies: ["LaminaServer", "LaminaVulkan", "LaminaOutputs", "CVulkanXcb", "CLaminaShims"]),
        .target(name: "LaminaTesting", dependencies: ["Lamina", "LaminaCore", "LaminaServer"]),

        .executableTarget(
            name: "laminad",
            dependencies: [
                "LaminaCore", "LaminaProtocol", "LaminaServer", "LaminaVulkan", "LaminaOutputs", "LaminaWindow",
                "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "laminactl",
            dependencies: ["Lamina", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "lamina-demo", dependencies: ["Lamina"]),
        .executableTarget(name: "lamina-scene", dependencies: ["Lamina"]),
        .executableTarget(
            name: "lamina-bench",
            dependencies: [
                "Lamina", "LaminaTesting", "LaminaCore", "LaminaProtocol", "LaminaServer", "LaminaVulkan", "CCairo",
                "CPixman",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "lamina-soak",
            dependencies: [
                "Lamina", "LaminaTesting", "CCairo", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The README's examples, compiled as written; DocumentationExampleTests runs them and checks
        // that the README still shows them to the letter.
        .executableTarget(name: "readme-example", dependencies: ["Lamina"], path: "Examples/readme-example"),
        .executableTarget(
            name: "graphics-example", dependencies: ["LaminaGraphics"], path: "Examples/graphics-example"),

        .testTarget(name: "LaminaCoreTests", dependencies: ["LaminaCore"]),
        .testTarget(name: "LaminaSystemTests", dependencies: ["LaminaSystem"]),
        .testTarget(
            name: "LaminaProtocolTests",
            dependencies: ["LaminaProtocol", "LaminaCore", "CLaminaShims", "LaminaTesting"]),
        .testTarget(name: "LaminaGraphicsTests", dependencies: ["LaminaGraphics", "CJPEG"]),
        .testTarget(name: "LaminaTextTests", dependencies: ["LaminaText", "LaminaTesting"], exclude: ["Golden"]),
        .testTarget(
            name: "LaminaTests", dependencies: ["Lamina", "LaminaProtocol", "LaminaServer", "LaminaTesting"],
            exclude: ["Golden"]),
        .testTarget(name: "LaminaVulkanTests", dependencies: ["LaminaVulkan", "CVulkan"]),
        .testTarget(name: "LaminaOutputsTests", dependencies: ["LaminaOutputs", "LaminaServer"]),
        .testTarget(
            name: "LaminaIntegrationTests",
            dependencies: [
                "Lamina", "LaminaTesting", "LaminaCore", "LaminaProtocol", "LaminaServer", "LaminaVulkan",
                "CLaminaShims", "LaminaOutputs",
                "LaminaWindow", "CVulkanXcb",
            ],
            exclude: ["Rendering/Golden"]),
    ]
)
