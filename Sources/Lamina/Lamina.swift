// Lamina: the client library, Core Animation's API on Linux. `import Lamina` alone is enough, as
// `import QuartzCore` is on Apple platforms: it re-exports LaminaGraphics (Core Graphics drawing)
// and LaminaText (Core Text, which `CATextLayer` draws with), and through them LaminaCore's value
// types and Foundation's geometry.
//
// Folders: Layers (CALayer: its properties, hierarchy, model writes, coding and key-value coding;
// CALayerHost; CATextLayer), Animations (the animation classes, CAMediaTiming, an attached animation's values),
// Transactions (CATransaction, actions, the main-thread dispatcher), Context (CAContext: the
// connection to laminad, commits, images, reconnection; CADisplayLink; diagnostics), Layout
// (layoutSublayers, autoresizing, constraints, layout managers), Display (display(), draw(in:),
// backing stores, render(in:)), Observation (key-value observing of layers and animations).
@_exported import LaminaGraphics
@_exported import LaminaText
