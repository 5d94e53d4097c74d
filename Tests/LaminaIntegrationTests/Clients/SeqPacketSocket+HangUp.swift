import LaminaProtocol

extension SeqPacketSocket {
    /// Ends the connection as a client process that dies does: shuts the socket down, so the server
    /// reads the end of the stream at once, then closes it.
    ///
    /// `close()` alone ends the connection only when the last copy of the descriptor goes, and a test
    /// process that starts other processes (a `TestServer`'s laminad, on another thread) briefly
    /// shares its descriptors with each child until the child's exec closes them: a test asserting
    /// what the server does about a client that left would then race with that exec.
    func hangUp() {
        try? shutdown()
        close()
    }
}
