import FlightStore
import Foundation
import Synchronization

/// One PostgreSQL connection behind a `Mutex`, shared by every task of a store, that reconnects when the link breaks.
///
/// Thread safety: `Sendable`; `withConnection` runs one caller at a time on the confined connection. A broken link is
/// re-established on the next call, no more often than `backoff` allows; meanwhile calls throw the last
/// `.connection` error at once.
package final class ConfinedPostgresConnection: Sendable {
    /// The server as messages show it (no password).
    package let server: String
    private let backoff: ReconnectBackoff
    private let state: Mutex<ConnectionState>

    /// The confined connection and what is known about its health.
    private struct ConnectionState: ~Copyable {
        let connection: PostgresConnection
        var consecutiveFailures = 0
        var nextAttempt = Date.distantPast
        var lastFailure: PostgresError?
    }

    /// Connects to `url` and brings the schema up to date (`PostgresSchema.migrate`).
    package init(url: String, backoff: ReconnectBackoff) throws {
        self.backoff = backoff
        let connection = try PostgresConnection(url: url)
        try PostgresSchema.migrate(connection)
        server = connection.server
        state = Mutex(ConnectionState(connection: connection))
    }

    /// Runs `body` with a healthy connection, one caller at a time, reconnecting a broken one when the back-off allows.
    /// A link that broke while idle (a server restart) is only noticed by the next statement: when that very first
    /// statement fails, nothing ran, so the call reconnects and runs once more.
    package func withConnection<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try state.withLock { state in
            try Self.ensureConnected(&state, backoff: backoff)
            let statementsBefore = state.connection.successfulStatements
            do {
                return try body(state.connection)
            } catch let error as PostgresError where error.isConnectionFailure && state.connection.successfulStatements == statementsBefore {
                try Self.ensureConnected(&state, backoff: backoff)
                return try body(state.connection)
            }
        }
    }

    /// Reconnects a broken connection, unless the last attempt failed less than the back-off delay ago.
    private static func ensureConnected(_ state: inout ConnectionState, backoff: ReconnectBackoff) throws {
        guard !state.connection.isConnected else { return }
        if let failure = state.lastFailure, Date() < state.nextAttempt { throw failure }
        do throws(PostgresError) {
            try state.connection.reconnect()
            state.consecutiveFailures = 0
            state.lastFailure = nil
        } catch {
            state.consecutiveFailures += 1
            state.nextAttempt = Date().addingTimeInterval(backoff.delay(afterFailures: state.consecutiveFailures))
            state.lastFailure = error
            throw error
        }
    }
}
