import Lamina

let context = try CAContext()            // connects to $LAMINA_SOCKET or $XDG_RUNTIME_DIR/lamina/socket

let root = CALayer()
root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

let card = CALayer()
card.frame = CGRect(x: 80, y: 80, width: 480, height: 320)
card.backgroundColor = CGColor(red: 0.16, green: 0.42, blue: 0.86, alpha: 1)
card.cornerRadius = 32
card.borderWidth = 6
card.borderColor = CGColor(red: 0.08, green: 0.2, blue: 0.45, alpha: 1)
card.transform = CATransform3DMakeRotation(.pi / 12, 0, 0, 1)
root.addSublayer(card)

context.layer = root                      // shown on the context's display (0 unless CAContext(display:)) from the next commit
CATransaction.flush()                     // or let the main run loop commit at the end of its turn
try context.capture().writePNG(to: "frame.png")
