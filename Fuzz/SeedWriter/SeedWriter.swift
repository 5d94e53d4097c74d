import Foundation

/// Writes the seed corpus (`SeedCorpus.seeds()`) into the folder named by its one argument; run by
/// `Tools/fuzz --write-seeds`, which commits the result as Fuzz/corpus.
@main
struct SeedWriter {
    static func main() {
        guard CommandLine.arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: lamina-fuzz-seeds FOLDER\n".utf8))
            exit(2)
        }
        let folder = URL(fileURLWithPath: CommandLine.arguments[1])
        let seeds = SeedCorpus.seeds()
        for (name, bytes) in seeds {
            let url = folder.appendingPathComponent(name)
            do {
                try Data(bytes).write(to: url)
            } catch {
                FileHandle.standardError.write(Data("cannot write \(url.path): \(error)\n".utf8))
                exit(1)
            }
        }
        print("wrote \(seeds.count) seeds to \(folder.path)")
    }
}
