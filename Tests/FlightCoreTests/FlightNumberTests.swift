import Testing
import Foundation
import FlightCore

@Suite("FlightNumber")
struct FlightNumberTests {
    @Test("parses written designators", arguments: [
        ("LX40", "LX40"), ("lx 040", "LX40"), ("LX-40", "LX40"), ("LX 0040", "LX40"), ("L X 40", "LX40"), ("U21234", "U21234"), ("4U 812", "4U812"),
        ("6E123", "6E123"), ("b6 40", "B640"), ("LX9999", "LX9999"), ("LX1", "LX1"),
    ])
    func parses(text: String, canonical: String) {
        #expect(FlightNumber(parsing: text)?.canonical == canonical)
    }

    @Test("refuses malformed designators", arguments: ["", "LX", "40", "LX0", "LX10000", "LX 4O", "12345", "L", "LX 4.0", "ÄX40", "LX+40"])
    func refuses(text: String) {
        #expect(FlightNumber(parsing: text) == nil)
    }

    @Test func validatesAirlineCodes() {
        #expect(FlightNumber.isValidAirlineCode("LX"))
        #expect(FlightNumber.isValidAirlineCode("U2"))
        #expect(FlightNumber.isValidAirlineCode("4U"))
        #expect(!FlightNumber.isValidAirlineCode("42"))
        #expect(!FlightNumber.isValidAirlineCode("lx"))
        #expect(!FlightNumber.isValidAirlineCode("SWR"))
        #expect(FlightNumber(airline: "lx", number: 40)?.airline == "LX")
        #expect(FlightNumber(airline: "LX", number: 0) == nil)
        #expect(FlightNumber(airline: "LX", number: 10_000) == nil)
    }

    @Test func formatsAndOrders() throws {
        let number = try #require(FlightNumber(airline: "LX", number: 40))
        #expect(number.canonical == "LX40")
        #expect(number.display == "LX 40")
        #expect(number.description == "LX40")
        #expect(FlightNumber(airline: "BA", number: 287)! < number)
        #expect(FlightNumber(airline: "LX", number: 8)! < number)
    }

    @Test func codesAsCanonicalString() throws {
        let number = try #require(FlightNumber(airline: "U2", number: 1234))
        let data = try JSONEncoder().encode([number])
        #expect(String(decoding: data, as: UTF8.self) == #"["U21234"]"#)
        #expect(try JSONDecoder().decode([FlightNumber].self, from: data) == [number])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([FlightNumber].self, from: Data(#"["nonsense"]"#.utf8)) }
    }
}
