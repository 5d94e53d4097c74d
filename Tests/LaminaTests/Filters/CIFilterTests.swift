// CIFilter on the client (Core Image's API as Core Animation uses it): names, defaults, key-value
// coding, copying and archiving; and CALayer's filters, backgroundFilters and compositingFilter: the
// copies a layer keeps, what a commit sends, key paths, implicit animation and archiving.
import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import Lamina

@Suite(.serialized) struct CIFilterTests {
    /// Core Image Filter Reference, CIGaussianBlur: inputs `inputImage` and `inputRadius`, whose
    /// default is 10.00; `init(name:)` sets the inputs to their defaults (CIFilter.h: "The filter's
    /// input parameters are set to default values"). The key constants are Core Image's strings.
    @Test func gaussianBlurHasApplesInputsAndDefault() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        #expect(blur.name == "CIGaussianBlur")
        #expect(blur.inputKeys == [kCIInputImageKey, kCIInputRadiusKey])
        #expect(blur.outputKeys == [kCIOutputImageKey])
        #expect((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue == 10)
        #expect(blur.isEnabled)
        let radius = try #require(blur.attributes[kCIInputRadiusKey] as? [String: Any])
        #expect((radius[kCIAttributeDefault] as? NSNumber)?.doubleValue == 10)
        #expect(blur.attributes[kCIAttributeFilterName] as? String == "CIGaussianBlur")
        #expect(kCIInputRadiusKey == "inputRadius")
        #expect(kCIInputImageKey == "inputImage")
        #expect(kCIInputBackgroundImageKey == "inputBackgroundImage")
    }

    /// `init?(name:)` gives nil for a name that is no Core Image filter's; another `CI…` name gives an
    /// inert filter that keeps what is set on it (docs/apple-differences.md).
    @Test func namesThatAreNotFiltersGiveNil() throws {
        #expect(CIFilter(name: "GaussianBlur") == nil)
        #expect(CIFilter(name: "") == nil)
        #expect(CIFilter(name: "CI") == nil)
        let other = try #require(CIFilter(name: "CIPixellate"))
        #expect(other.inputKeys.isEmpty)
        other.setValue(8, forKey: "inputScale")
        #expect(other.value(forKey: "inputScale") as? Int == 8)
    }

    /// Each separable blend mode is a Core Image filter with `inputImage` and `inputBackgroundImage`.
    @Test(arguments: LayerBlendMode.allCases.filter { $0 != .normal })
    func blendModesAreFilters(mode: LayerBlendMode) throws {
        let name = try #require(mode.filterName)
        let filter = try #require(CIFilter(name: name))
        #expect(filter.inputKeys == [kCIInputImageKey, kCIInputBackgroundImageKey])
        #expect(LayerBlendMode(filterName: name) == mode)
    }

    /// `init?(name:parameters:)` sets the parameters after the defaults; `name` is settable (the NAME of
    /// key paths) and so is `enabled`; nil removes a value.
    @Test func parametersNameAndEnabled() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 4.5]))
        #expect(blur.value(forKey: kCIInputRadiusKey) as? Double == 4.5)
        blur.name = "soft"
        #expect(blur.name == "soft")
        #expect(blur.value(forKey: "name") as? String == "soft")
        blur.isEnabled = false
        #expect(!blur.isEnabled)
        #expect((blur.value(forKey: "enabled") as? NSNumber)?.boolValue == false)
        blur.setValue(nil, forKey: kCIInputRadiusKey)
        #expect(blur.value(forKey: kCIInputRadiusKey) == nil)
        blur.setDefaults()
        #expect((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue == 10)
    }

    /// A copy has the same name and values and is another object; an archive decodes to the same.
    @Test func copyingAndArchiving() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        blur.name = "blur"
        blur.setValue(NSNumber(value: 7), forKey: kCIInputRadiusKey)
        let copy = try #require(blur.copy() as? CIFilter)
        #expect(copy !== blur)
        #expect(copy.name == "blur")
        #expect((copy.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue == 7)
        let data = try NSKeyedArchiver.archivedData(withRootObject: blur, requiringSecureCoding: true)
        let decoded = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: [CIFilter.self, ArchivedValue.self], from: data)
                as? CIFilter)
        #expect(decoded.name == "blur")
        #expect(decoded.inputKeys == blur.inputKeys)
        #expect(AnimationValue.number(decoded.value(forKey: kCIInputRadiusKey) as Any) == 7)
    }

    // MARK: On a layer

    /// CALayer.h: `filters`, `backgroundFilters` and `compositingFilter` default to nil. A layer keeps
    /// copies of the filters given (spec §2.8: the filter object must not change once attached), and
    /// sends the server each filter's Core Image name, name and radius.
    @Test func layerKeepsCopiesAndSendsWhatTheServerDraws() throws {
        let layer = CALayer()
        #expect(layer.filters == nil)
        #expect(layer.backgroundFilters == nil)
        #expect(layer.compositingFilter == nil)
        let blur = try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 3]))
        blur.name = "blur"
        layer.filters = [blur]
        let kept = try #require(layer.filters?.first as? CIFilter)
        #expect(kept !== blur)
        #expect(kept.name == "blur")
        blur.setValue(30, forKey: kCIInputRadiusKey)
        #expect(
            layer.modelState.filterState.filters == [LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: 3)]
        )
        let sent = LayerProperty.differences(from: LayerState(), to: layer.modelState)
        #expect(sent.contains(.filters([LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: 3)])))
        layer.filters = nil
        #expect(layer.modelState.filterState.filters.isEmpty)
    }

    /// `setValue(_:forKeyPath: "filters.NAME.inputRadius")` changes the layer's copy (the object
    /// given stays as it was) and the radius sent; `value(forKeyPath:)` reads it back.
    @Test func keyPathChangesTheLayersCopy() throws {
        let layer = CALayer()
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        blur.name = "blur"
        layer.backgroundFilters = [blur]
        layer.setValue(6, forKeyPath: "backgroundFilters.blur.inputRadius")
        #expect((layer.value(forKeyPath: "backgroundFilters.blur.inputRadius") as? NSNumber)?.doubleValue == 6)
        #expect((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue == 10)
        #expect(layer.modelState.filterState.backgroundFilters.first?.radius == 6)
        #expect(
            AnimationValue.number(
                (layer.backgroundFilters?.first as? CIFilter)?.value(forKey: kCIInputRadiusKey) as Any) == 6)
        // A name no filter has changes nothing.
        layer.setValue(2, forKeyPath: "backgroundFilters.other.inputRadius")
        #expect(layer.modelState.filterState.backgroundFilters.first?.radius == 6)
    }

    /// App. B: filter sub-properties animate with a CABasicAnimation by default: a change of
    /// `filters.blur.inputRadius` on a committed layer adds one under that key, from the old radius.
    @Test func radiusChangeAnimatesImplicitly() throws {
        let layer = CALayer()
        let blur = try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 2]))
        blur.name = "blur"
        layer.filters = [blur]
        layer.hasBeenCommitted = true
        layer.committedModelState = layer.modelState
        layer.setValue(8, forKeyPath: "filters.blur.inputRadius")
        let animation = try #require(layer.animation(forKey: "filters.blur.inputRadius") as? CABasicAnimation)
        #expect(animation.keyPath == "filters.blur.inputRadius")
        #expect(AnimationValue.number(animation.fromValue as Any) == 2)
        // Setting the list itself runs no action (docs/apple-differences.md).
        layer.filters = [blur]
        #expect(layer.animation(forKey: "filters") == nil)
    }

    /// `compositingFilter` takes a blend-mode `CIFilter` or Core Animation's string form, and sends the
    /// mode's code; a name the server does not draw is kept, sent as normal and reported once.
    @Test func compositingFilterNamesAndCodes() throws {
        let layer = CALayer()
        layer.compositingFilter = CIFilter(name: "CIScreenBlendMode")
        #expect(layer.modelState.filterState.blendMode == .screen)
        layer.compositingFilter = "multiplyBlendMode"
        #expect(layer.modelState.filterState.blendMode == .multiply)
        #expect(layer.compositingFilter as? String == "multiplyBlendMode")
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        layer.compositingFilter = "CILinearBurnBlendModeForTest"
        layer.compositingFilter = "CILinearBurnBlendModeForTest"
        #expect(layer.modelState.filterState.blendMode == .normal)
        let reports = recorder.diagnostics.filter { $0.message.contains("CILinearBurnBlendModeForTest") }
        #expect(reports.count == 1)
        #expect(reports.first?.kind == .ignoredFilter)
        layer.compositingFilter = nil
        #expect(layer.compositingFilter == nil)
    }

    /// A filter the server does not draw is reported once per name and still kept by the layer.
    @Test func unknownFilterIsReportedOnce() throws {
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let layer = CALayer()
        let f = try #require(CIFilter(name: "CIPinchDistortionForTest"))
        layer.filters = [f]
        layer.filters = [f]
        let reports = recorder.diagnostics.filter { $0.message.contains("CIPinchDistortionForTest") }
        #expect(reports.count == 1)
        #expect(layer.filters?.count == 1)
        #expect(layer.modelState.filterState.filters.first?.isGaussianBlur == false)
    }

    /// Key-value coding by key and archiving keep all three.
    @Test func keyValueCodingAndArchiving() throws {
        let layer = CALayer()
        let blur = try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 5]))
        layer.setValue([blur], forKey: "filters")
        layer.setValue([blur], forKey: "backgroundFilters")
        layer.setValue("screenBlendMode", forKey: "compositingFilter")
        #expect((layer.value(forKey: "filters") as? [Any])?.count == 1)
        #expect(layer.value(forKey: "compositingFilter") as? String == "screenBlendMode")
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let decoded = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: [CALayer.self], from: data) as? CALayer)
        #expect((decoded.filters?.first as? CIFilter)?.name == "CIGaussianBlur")
        #expect(decoded.modelState.filterState.filters.first?.radius == 5)
        #expect(decoded.modelState.filterState.backgroundFilters.first?.radius == 5)
        #expect(decoded.modelState.filterState.blendMode == .screen)
    }

    /// An explicit `CABasicAnimation` of `filters.blur.inputRadius` from 2 to 10, linear over one
    /// second from media time 10: the presentation layer reads 4 at 10.25 and 6 at 10.5; the model
    /// keeps its radius.
    @Test func presentationValuesAtChosenTimes() throws {
        let layer = CALayer()
        let blur = try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 1]))
        blur.name = "blur"
        layer.filters = [blur]
        try ShapeAnimationTests.attach(
            ShapeAnimationTests.linear("filters.blur.inputRadius", from: 2.0, to: 10.0), to: layer, key: "r")
        let quarter = try #require(layer.presentation(at: 10.25))
        #expect((quarter.value(forKeyPath: "filters.blur.inputRadius") as? NSNumber)?.doubleValue == 4)
        let half = try #require(layer.presentation(at: 10.5))
        #expect((half.value(forKeyPath: "filters.blur.inputRadius") as? NSNumber)?.doubleValue == 6)
        #expect((layer.value(forKeyPath: "filters.blur.inputRadius") as? NSNumber)?.doubleValue == 1)
    }
}
