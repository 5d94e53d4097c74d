// Tests of the syscall layer: EINTR retried, would-block as nil, errors naming the call, poll.
//
// The trap on EBADF and EFAULT is not tested: it stops the process, and these tests run inside the
// one process that runs every suite.
import Glibc
import Foundation
import LaminaSystem
import Testing

/// Installs a handler for `SIGUSR2` that does nothing, without `SA_RESTART`, so that the signal
/// makes a blocked call fail with `EINTR` instead of being restarted by the kernel. Once per process.
private let noOpHandlerInstalled: Bool = {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    return sigaction(SIGUSR2, &action, nil) == 0
}()

/// A count shared between threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// Runs a blocking call on its own thread so that the test's thread can interrupt it with signals.
private final class InterruptedCall<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var target: pthread_t?
    private var value: Value?
    private var released = false

    init(_ body: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            // The thread that started this one may block signals; this one must take SIGUSR2.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            condition.withLock {
                target = pthread_self()
                condition.broadcast()
            }
            let result = body()
            condition.withLock {
                value = result
                condition.broadcast()
                // Stay alive until the test stops signalling: a signal to an ended thread is undefined.
                while !released { condition.wait() }
            }
        }
        thread.start()
    }

    /// Sends the thread `SIGUSR2` every 10 ms until its call returns. Once `ready()` holds or
    /// `patience` seconds have passed, stops signalling and calls `unblock` (which must let the
    /// call return). Returns the call's value.
    func interrupt(patience: Double = 2, until ready: () -> Bool = { false }, then unblock: () -> Void) -> Value {
        let deadline = Date(timeIntervalSinceNow: patience)
        var unblocked = false
        while true {
            let (thread, result): (pthread_t?, Value?) = condition.withLock { (target, value) }
            if let result {
                condition.withLock {
                    released = true
                    condition.broadcast()
                }
                return result
            }
            if !unblocked, ready() || Date() >= deadline {
                unblock()
                unblocked = true
            } else if !unblocked, let thread {
                pthread_kill(thread, SIGUSR2)
            }
            usleep(10_000)
        }
    }
}

/// Writes one byte to `fd`.
private func writeByte(_ fd: Int32, _ value: UInt8) {
    var byte = value
    _ = write(fd, &byte, 1)
}

@Suite struct SyscallTests {
    @Test func systemErrorNamesTheCallAndTheErrnoText() {
        let error = SystemError(call: "read", errno: EAGAIN)
        #expect(error.description == "read: Resource temporarily unavailable (errno 11)")
        #expect(SystemError(call: "open", errno: ENOENT).description == "open: No such file or directory (errno 2)")
    }

    @Test func failureThrowsTheCallAndItsErrno() {
        #expect(throws: SystemError(call: "open", errno: ENOENT)) {
            try syscall("open") { open("/nonexistent-lamina-folder/file", O_RDONLY) }
        }
        #expect(throws: SystemError(call: "unlink", errno: ENOENT)) {
            try syscall("unlink") { unlink("/nonexistent-lamina-folder/file") }
        }
    }

    @Test func wouldBlockIsNilForNonBlockingCallsAndAnErrorForOthers() throws {
        let (reader, writer) = try OwnedFD.pipe(nonBlocking: true)
        var buffer = [UInt8](repeating: 0, count: 8)
        let fd = reader.rawValue
        #expect(try nonBlockingSyscall("read") { read(fd, &buffer, buffer.count) } == nil)
        #expect(throws: SystemError(call: "read", errno: EAGAIN)) {
            try syscall("read") { read(fd, &buffer, buffer.count) }
        }
        writeByte(writer.rawValue, 7)
        #expect(try nonBlockingSyscall("read") { read(fd, &buffer, buffer.count) } == 1)
        #expect(buffer[0] == 7)
        #expect(try nonBlockingSyscall("read") { read(fd, &buffer, buffer.count) } == nil)
    }

    @Test func pipeEndsAreCloseOnExecAndNonBlockingWhenAsked() throws {
        for nonBlocking in [false, true] {
            let (reader, writer) = try OwnedFD.pipe(nonBlocking: nonBlocking)
            for end in [reader, writer] {
                #expect(fcntl(end.rawValue, F_GETFD) & FD_CLOEXEC != 0)
                #expect((fcntl(end.rawValue, F_GETFL) & O_NONBLOCK != 0) == nonBlocking)
            }
        }
    }

    @Test func syscallRetriesACallInterruptedBySignals() throws {
        #expect(noOpHandlerInstalled)
        let (reader, writer) = try OwnedFD.pipe(nonBlocking: false)
        let fd = reader.rawValue
        let calls = Counter()
        let call = InterruptedCall { () -> Result<[UInt8], SystemError> in
            var buffer = [UInt8](repeating: 0, count: 8)
            return Result { () throws(SystemError) -> [UInt8] in
                let count = try syscall("read") {
                    calls.increment()
                    return read(fd, &buffer, buffer.count)
                }
                return Array(buffer[..<count])
            }
        }
        // Two interruptions seen (three calls) prove the retry; the byte then ends the read.
        let result = call.interrupt(until: { calls.value >= 3 }, then: { writeByte(writer.rawValue, 42) })
        #expect(try result.get() == [42])
        #expect(calls.value >= 3, "the read was never interrupted, so the retry was not exercised")
    }

    @Test func interruptibleSyscallThrowsEINTR() throws {
        #expect(noOpHandlerInstalled)
        let (reader, writer) = try OwnedFD.pipe(nonBlocking: false)
        let fd = reader.rawValue
        let call = InterruptedCall { () -> Result<Int, SystemError> in
            var buffer = [UInt8](repeating: 0, count: 8)
            return Result { () throws(SystemError) -> Int in
                try interruptibleSyscall("read") { read(fd, &buffer, buffer.count) }
            }
        }
        // Should a signal never land while the read waits, the byte ends it with a result of 1.
        let result = call.interrupt(then: { writeByte(writer.rawValue, 1) })
        #expect(throws: SystemError(call: "read", errno: EINTR)) { try result.get() }
    }

    @Test func pollReportsReadyEntries() throws {
        let (reader, writer) = try OwnedFD.pipe(nonBlocking: true)
        var entries = [
            pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: writer.rawValue, events: Int16(POLLOUT), revents: 0),
        ]
        #expect(try poll(&entries, timeout: 0) == 1)
        #expect(entries[0].revents == 0)
        #expect(entries[1].revents == Int16(POLLOUT))
        writeByte(writer.rawValue, 1)
        #expect(try poll(&entries, timeout: 0) == 2)
        #expect(entries[0].revents == Int16(POLLIN))
    }

    @Test func pollReturnsZeroWhenASignalInterruptsIt() throws {
        #expect(noOpHandlerInstalled)
        let (reader, writer) = try OwnedFD.pipe(nonBlocking: true)
        let fd = reader.rawValue
        let call = InterruptedCall { () -> Result<(ready: Int, revents: Int16), SystemError> in
            Result { () throws(SystemError) -> (ready: Int, revents: Int16) in
                var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                let ready = try poll(&entries, timeout: -1)
                return (ready, entries[0].revents)
            }
        }
        // A poll that retried after the signal would only end with the byte: 1 ready, POLLIN.
        let result = try call.interrupt(then: { writeByte(writer.rawValue, 1) }).get()
        #expect(result.ready == 0)
        #expect(result.revents == 0)
    }
}
