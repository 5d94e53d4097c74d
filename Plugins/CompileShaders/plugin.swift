import Foundation
import PackagePlugin

/// Compiles every GLSL shader in the package's `Shaders/` folder to SPIR-V with `glslangValidator`.
///
/// The `.spv` outputs become resources of the target that uses the plugin (`Bundle.module`). A shader
/// error fails the build with glslang's `ERROR: <path>:<line>: ...` message. `GLSLANG_VALIDATOR`
/// overrides the compiler's path; otherwise `$PATH` is searched, then `/usr/bin`.
@main
struct CompileShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let shaderDirectory = context.package.directoryURL.appending(path: "Shaders")
        let compiler = try Self.findCompiler()
        let names = try FileManager.default.contentsOfDirectory(atPath: shaderDirectory.path)
        let stages: Set<String> = ["vert", "frag", "comp"]
        let includes = names.filter { $0.hasSuffix(".glsl") }.map { shaderDirectory.appending(path: $0) }
        return names.sorted().filter { stages.contains(($0 as NSString).pathExtension) }.map { name in
            let input = shaderDirectory.appending(path: name)
            let output = context.pluginWorkDirectoryURL.appending(path: name + ".spv")
            return .buildCommand(
                displayName: "Compiling shader \(name)",
                executable: compiler,
                arguments: ["-V", "--quiet", "--target-env", "vulkan1.3", "-I" + shaderDirectory.path,
                            "-o", output.path, input.path],
                inputFiles: [input] + includes,
                outputFiles: [output])
        }
    }

    static func findCompiler() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["GLSLANG_VALIDATOR"] { return URL(filePath: explicit) }
        let path = (environment["PATH"] ?? "") + ":/usr/bin:/usr/local/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: "glslangValidator")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw PluginError.compilerMissing
    }

    enum PluginError: Error, CustomStringConvertible {
        case compilerMissing
        var description: String { "glslangValidator not found: install glslang-tools (Tools/setup does)" }
    }
}
