// LaminaGraphics: Core Graphics drawing on Linux. `CGContext` draws with Cairo into bitmap
// contexts; `CGImage`, `CGDataProvider` and the bitmap layouts hold pixels; PNG (libpng) and JPEG
// (libjpeg-turbo) decode and encode them; `CGGradient` describes gradients. It links no socket or
// server code, so a program that only draws images may import it alone.
//
// Folders: Context (CGContext, its graphics state, clips and the painted-region bookkeeping),
// Images (CGImage, CGDataProvider, bitmap layouts), Codecs (PNG, JPEG), Gradients (CGGradient).
//
// It re-exports Foundation (CGRect, CGPoint, CGSize, CGFloat) and LaminaCore (CGColor,
// CGColorSpace, CGPath, CGAffineTransform and Core Graphics' constants), so `import LaminaGraphics`
// alone gives the whole Core Graphics API, as `import CoreGraphics` does on Apple platforms.
@_exported import Foundation
@_exported import LaminaCore
