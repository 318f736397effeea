import FlightCore
import Testing

@Suite struct LogLineTests {
    @Test(arguments: [
        ("LX40", "LX40"), ("", "\"\""), ("l x forty", "\"l x forty\""), ("a=b", "\"a=b\""),
        ("say \"hi\"", "\"say \\\"hi\\\"\""), ("two\nlines", "\"two\\nlines\""), ("back\\slash", "\"back\\\\slash\""),
    ])
    func valuesAreBareOrQuoted(value: String, written: String) {
        #expect(LogLine(event: "e").with("k", value).description == "event=e k=\(written)")
    }

    @Test func aNilValueIsLeftOutAndOrderIsKept() {
        let line = LogLine(event: "query").with("source", "keyboard").with("flight", nil).with("status", "found")
        #expect(line.description == "event=query source=keyboard status=found")
    }
}
