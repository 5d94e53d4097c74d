import LaminaServer
import Testing

/// `ResourceBudget` as plain bookkeeping: every charge is checked against the client's and the
/// global bound, a refused charge changes nothing, and releases bring the totals back.
@Suite struct ResourceBudgetTests {
    static func limits() -> ResourceLimits {
        var limits = ResourceLimits()
        limits.heldBytesPerClient = 100
        limits.heldBytesTotal = 150
        limits.heldOperationsPerClient = 10
        limits.heldOperationsTotal = 15
        limits.layersTotal = 20
        limits.animationsTotal = 5
        limits.capturesInFlightPerClient = 2
        limits.captureBytesInFlightTotal = 1000
        return limits
    }

    @Test func heldPartsAreBoundedPerClientThenGlobally() throws {
        var budget = ResourceBudget(limits: Self.limits())
        var a = ClientBudget()
        var b = ClientBudget()
        try budget.holdPart(bytes: 60, operations: 4, for: &a)
        try budget.holdPart(bytes: 40, operations: 4, for: &a)
        // 100 bytes is the client's bound exactly; one more byte passes it.
        #expect(
            throws: BudgetError(resource: "bytes of held transaction parts", scope: .client, limit: 100, requested: 101)
        ) {
            try budget.holdPart(bytes: 1, operations: 1, for: &a)
        }
        #expect(a.heldBytes == 100 && a.heldOperations == 8)
        // b alone is within its own bound, but 100 + 51 passes the global 150.
        #expect(
            throws: BudgetError(resource: "bytes of held transaction parts", scope: .global, limit: 150, requested: 151)
        ) {
            try budget.holdPart(bytes: 51, operations: 1, for: &b)
        }
        #expect(b == ClientBudget())
        // 8 + 8 operations pass the global 15 although 8 is within b's own 10.
        #expect(throws: BudgetError(resource: "held transaction operations", scope: .global, limit: 15, requested: 16))
        {
            try budget.holdPart(bytes: 10, operations: 8, for: &b)
        }
        try budget.holdPart(bytes: 50, operations: 7, for: &b)
        #expect(budget.total.heldBytes == 150 && budget.total.heldOperations == 15)
        // A commit releases a's parts; b's stay charged.
        budget.releaseHeld(for: &a)
        #expect(a.heldBytes == 0 && a.heldOperations == 0)
        #expect(budget.total.heldBytes == 50 && budget.total.heldOperations == 7)
    }

    @Test func treesAreChargedByGrowthAgainstTheGlobalBound() throws {
        var budget = ResourceBudget(limits: Self.limits())
        var a = ClientBudget()
        var b = ClientBudget()
        try budget.setTree(layers: 12, animations: 3, for: &a)
        // 12 + 9 layers pass the 20 of all clients: b is refused, a keeps its 12.
        #expect(throws: BudgetError(resource: "layers", scope: .global, limit: 20, requested: 21)) {
            try budget.setTree(layers: 9, animations: 0, for: &b)
        }
        #expect(throws: BudgetError(resource: "attached animations", scope: .global, limit: 5, requested: 6)) {
            try budget.setTree(layers: 1, animations: 3, for: &b)
        }
        #expect(b == ClientBudget() && budget.total.layers == 12 && budget.total.animations == 3)
        try budget.setTree(layers: 8, animations: 2, for: &b)
        // A tree that shrinks is accepted even while the totals sit at their bounds; then a may grow again.
        try budget.setTree(layers: 10, animations: 1, for: &a)
        try budget.setTree(layers: 12, animations: 3, for: &a)
        #expect(budget.total.layers == 20 && budget.total.animations == 5)
        budget.release(&a)
        #expect(a == ClientBudget() && budget.total.layers == 8 && budget.total.animations == 2)
    }

    @Test func capturesInFlightAreCappedPerClientAndInBytesGlobally() throws {
        var budget = ResourceBudget(limits: Self.limits())
        var a = ClientBudget()
        var b = ClientBudget()
        try budget.sendCapture(bytes: 300, for: &a)
        try budget.sendCapture(bytes: 300, for: &a)
        #expect(throws: BudgetError(resource: "capture replies in flight", scope: .client, limit: 2, requested: 3)) {
            try budget.sendCapture(bytes: 300, for: &a)
        }
        try budget.sendCapture(bytes: 400, for: &b)
        #expect(
            throws: BudgetError(
                resource: "bytes of capture replies in flight", scope: .global, limit: 1000, requested: 1001)
        ) {
            try budget.sendCapture(bytes: 1, for: &b)
        }
        // a read its replies: it may have two more in flight, and b fits again.
        budget.capturesRead(by: &a)
        try budget.sendCapture(bytes: 300, for: &a)
        try budget.sendCapture(bytes: 1, for: &b)
        #expect(budget.total.capturesInFlight == 3 && budget.total.captureBytesInFlight == 701)
    }

    @Test func errorTextNamesTheResourceTheBoundAndTheCount() {
        let error = BudgetError(resource: "layers", scope: .global, limit: 20, requested: 21)
        #expect(error.description == "layers would reach 21, over the server's limit for all clients of 20")
    }
}
