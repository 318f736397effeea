import FlightCore
import Foundation

/// Times as shown to people and programs, always in the hub's time zone (`Hub.timeZone`), whatever the machine's.
enum HubTime {
    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]

    private static func parts(_ date: Date) -> DateComponents {
        Hub.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// 24-hour wall-clock time in the hub, "13:05".
    static func clock(_ date: Date) -> String {
        let parts = parts(date)
        return "\(twoDigits(parts.hour ?? 0)):\(twoDigits(parts.minute ?? 0))"
    }

    /// ISO 8601 with the hub's UTC offset, "2026-11-30T13:05:00+01:00".
    static func iso8601(_ date: Date) -> String {
        let parts = parts(date)
        let year = String(parts.year ?? 0)
        let offsetSeconds = Hub.timeZone.secondsFromGMT(for: date)
        let sign = offsetSeconds < 0 ? "-" : "+"
        let offsetMinutes = abs(offsetSeconds) / 60
        return "\(year)-\(twoDigits(parts.month ?? 1))-\(twoDigits(parts.day ?? 1))"
            + "T\(twoDigits(parts.hour ?? 0)):\(twoDigits(parts.minute ?? 0)):\(twoDigits(parts.second ?? 0))"
            + "\(sign)\(twoDigits(offsetMinutes / 60)):\(twoDigits(offsetMinutes % 60))"
    }

    /// Calendar days from `now`'s hub date to `date`'s hub date: 0 today, 1 tomorrow, -1 yesterday.
    static func dayOffset(of date: Date, from now: Date) -> Int {
        let calendar = Hub.calendar
        let start = calendar.startOfDay(for: now)
        let end = calendar.startOfDay(for: date)
        return calendar.dateComponents([.day], from: start, to: end).day ?? 0
    }

    /// "tomorrow", "yesterday", "on 2 December", or nil for the day of `now`.
    static func dayPhrase(of date: Date, from now: Date) -> String? {
        switch dayOffset(of: date, from: now) {
        case 0: return nil
        case 1: return "tomorrow"
        case -1: return "yesterday"
        default:
            let parts = parts(date)
            return "on \(parts.day ?? 1) \(monthNames[(parts.month ?? 1) - 1])"
        }
    }

    /// "13:05", or "13:05 tomorrow" when the time is not on `now`'s day: for cards and one-liners.
    static func clock(_ date: Date, relativeTo now: Date) -> String {
        dayPhrase(of: date, from: now).map { "\(clock(date)) \($0)" } ?? clock(date)
    }

    /// "at 13:05", or "tomorrow at 13:05": for spoken sentences.
    static func spokenTime(_ date: Date, relativeTo now: Date) -> String {
        dayPhrase(of: date, from: now).map { "\($0) at \(clock(date))" } ?? "at \(clock(date))"
    }

    /// True when two instants show the same hub minute.
    static func sameMinute(_ first: Date, _ second: Date) -> Bool {
        iso8601(first).prefix(16) == iso8601(second).prefix(16)
    }
}
