import FlightCore
import Foundation

/// A calendar day at the hub, as the `service_date` column writes it ("2026-11-30").
struct LocalDay: Hashable, Comparable, Sendable {
    let year: Int
    let month: Int
    let day: Int

    /// Parses "YYYY-MM-DD"; nil for anything else or an impossible date.
    init?(text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard Hub.calendar.date(from: DateComponents(year: year, month: month, day: day)).map(LocalDay.containing) == self else { return nil }
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The hub-local day that contains `instant`.
    static func containing(_ instant: Date) -> LocalDay {
        let parts = Hub.calendar.dateComponents([.year, .month, .day], from: instant)
        return LocalDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// "YYYY-MM-DD".
    var text: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// The day `days` later (earlier when negative).
    func adding(days: Int) -> LocalDay {
        let calendar = Hub.calendar
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return .containing(calendar.date(byAdding: .day, value: days, to: noon)!)
    }

    static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A wall-clock time at the hub, as the `scheduled` column writes it ("13:05").
struct LocalTime: Hashable, Sendable {
    let hour: Int
    let minute: Int

    /// Parses "HH:MM" or "H:MM" with hour 0...23 and minute 0...59.
    init?(text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// The hub-local wall-clock time of `instant`, seconds dropped.
    static func containing(_ instant: Date) -> LocalTime {
        let parts = Hub.calendar.dateComponents([.hour, .minute], from: instant)
        return LocalTime(hour: parts.hour!, minute: parts.minute!)
    }

    /// "HH:MM", zero padded.
    var text: String { String(format: "%02d:%02d", hour, minute) }
}

/// Placing schedule rows on the time line: hub-local days and times to instants.
enum HubSchedule {
    /// The `service_date` of rows that repeat every day.
    static let daily = "daily"

    /// The instant of wall-clock `time` on `day` at the hub (a time skipped by a DST change moves forward).
    static func instant(on day: LocalDay, at time: LocalTime) -> Date {
        Hub.calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute))!
    }

    /// The days a lookup at `now` considers: yesterday, today and tomorrow at the hub.
    static func window(around now: Date) -> (first: LocalDay, today: LocalDay, last: LocalDay) {
        let today = LocalDay.containing(now)
        return (today.adding(days: -1), today, today.adding(days: 1))
    }

    /// The scheduled instant of a row nearest to `now`: a daily row's time on yesterday, today or tomorrow,
    /// a dated row's time on its own date. Nil when the row's date or time is malformed.
    static func nearestInstance(serviceDate: String, scheduled: String, near now: Date) -> Date? {
        guard let time = LocalTime(text: scheduled) else { return nil }
        if serviceDate == daily {
            let (first, today, last) = window(around: now)
            return [first, today, last]
                .map { instant(on: $0, at: time) }
                .min { isNearer($0, than: $1, to: now) }
        }
        return LocalDay(text: serviceDate).map { instant(on: $0, at: time) }
    }

    /// True when `candidate` is nearer to `now` than `other`; on a tie the later (upcoming) one wins.
    static func isNearer(_ candidate: Date, than other: Date, to now: Date) -> Bool {
        let candidateDistance = abs(candidate.timeIntervalSince(now))
        let otherDistance = abs(other.timeIntervalSince(now))
        return candidateDistance != otherDistance ? candidateDistance < otherDistance : candidate > other
    }
}
