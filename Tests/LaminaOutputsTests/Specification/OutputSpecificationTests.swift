import LaminaOutputs
import LaminaServer
import Testing

/// `--output` values: offscreen modes, `kms` and `kms:DEVICE`, and the messages for bad ones.
@Suite struct OutputSpecificationTests {
    @Test func offscreenModeWithAndWithoutRate() throws {
        #expect(
            try OutputSpecification.parse("offscreen:1280x800@75")
                == .offscreen(DisplayMode(width: 1280, height: 800, refreshRate: 75)))
        #expect(
            try OutputSpecification.parse("offscreen:64x48")
                == .offscreen(DisplayMode(width: 64, height: 48, refreshRate: 60)))
    }

    @Test func kmsWithoutDeviceTakesTheFirstConnectedCard() throws {
        #expect(try OutputSpecification.parse("kms") == .kms(device: nil))
    }

    @Test func kmsWithDevicePath() throws {
        #expect(try OutputSpecification.parse("kms:/dev/dri/card1") == .kms(device: "/dev/dri/card1"))
    }

    @Test func kmsScanoutPathOption() throws {
        #expect(try OutputSpecification.parse("kms,scanout=dumb") == .kms(device: nil, scanout: .dumb))
        #expect(
            try OutputSpecification.parse("kms:/dev/dri/card1,scanout=mapped")
                == .kms(device: "/dev/dri/card1", scanout: .mapped))
        #expect(
            try OutputSpecification.parse("kms:/dev/dri/card0,scanout=dma-buf")
                == .kms(device: "/dev/dri/card0", scanout: .dmaBuf))
        #expect(try OutputSpecification.parse("kms,scanout=auto") == .kms(device: nil, scanout: nil))
        #expect(KMSScanoutPath.candidates(for: nil) == [.dmaBuf, .mapped, .dumb])
        #expect(KMSScanoutPath.candidates(for: .mapped) == [.mapped, .dumb])
        #expect(KMSScanoutPath.candidates(for: .dumb) == [.dumb])
    }

    @Test(arguments: [
        "kms:", "kms:card0", "kms,scanout=fast", "kms,dumb", "kms:/dev/dri/card0,", "kms,scanout=", "kmsx",
        "window:0x1", "offscreen", "offscreen:0x10@60", "offscreen:10x10@0", "",
    ])
    func badValuesAreRefusedNamingThem(text: String) {
        #expect(throws: OutputSpecificationError.self) { try OutputSpecification.parse(text) }
    }

    @Test func unknownKindMessageNamesTheKindAndTheSupportedOnes() {
        #expect {
            try OutputSpecification.parse("screen:1x1")
        } throws: { error in
            "\(error)" == "unknown output kind 'screen'; this build supports 'offscreen', 'window' and 'kms'"
        }
    }
}
