import Foundation

/// A data source whose flights can change while a program uses it (`db import`, the service's flight updates, another
/// process or server), so that grammars and cached answers can follow without a restart.
public protocol ScheduleRevisionSource: Sendable {
    /// A number that differs after every committed change to the flights, made by this process or any other.
    /// Cheap enough to read before every query; only equality is meaningful, not the size of a step.
    func scheduleRevision() throws -> Int64
}
