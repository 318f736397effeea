import Foundation

/// The hub's local time zone: schedules are written in it and shown in it.
public enum Hub {
    /// Zurich (ZRH); flight times in the seed and in imports are local times here.
    public static let airportCode = "ZRH"
    public static let timeZone = TimeZone(identifier: "Europe/Zurich")!

    /// A Gregorian calendar in the hub's time zone.
    public static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
