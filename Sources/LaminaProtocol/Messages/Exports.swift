// LaminaProtocol's API carries LaminaSystem's types (`OwnedFD` in `ReceivedPacket`, `SystemError` in
// its errors), so importing LaminaProtocol brings them, and the syscall layer, along.
@_exported import LaminaSystem
