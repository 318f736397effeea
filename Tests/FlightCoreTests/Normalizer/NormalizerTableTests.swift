import Testing
import FlightCore

/// The normalizer's table: utterance → canonical flight number of the best candidate, or "!" and the failure kind.
enum NormalizerTable {
    static let spelledLetters: [(String, String)] = [
        ("L X forty", "LX40"), ("l x four zero", "LX40"), ("L X 40", "LX40"), ("l. x. forty", "LX40"), ("l.x. 40", "LX40"),
        ("B A two eight seven", "BA287"), ("b a two eighty seven", "BA287"), ("L H four zero zero", "LH400"), ("L H one one eight", "LH118"),
        ("K L one six one two", "KL1612"), ("A F one one one five", "AF1115"), ("E K eighty seven", "EK87"), ("S Q seventeen", "SQ17"),
        ("J L forty two", "JL42"), ("N H two oh four", "NH204"), ("O S five six one", "OS561"), ("T K one nine one four", "TK1914"),
        ("U A fifty three", "UA53"), ("A A five two two", "AA522"), ("a a five two two", "AA522"), ("D L one three one", "DL131"),
        ("E Y seventy four", "EY74"), ("Q R ninety four", "QR94"), ("I B six seven eight", "IB678"), ("i b six seven eight", "IB678"),
        ("S K six zero four", "SK604"), ("A C eight seven nine", "AC879"), ("A Z five seven three", "AZ573"), ("W K eight", "WK8"),
        ("E W seven five two", "EW752"), ("F R one two three", "FR123"), ("C X three eight four", "CX384"), ("L X one", "LX1"),
        ("L X nine nine nine nine", "LX9999"), ("Q Q forty", "QQ40"), ("Z Z one two", "ZZ12"), ("L X, forty", "LX40"),
        ("L-X forty", "LX40"), ("double a five two two", "AA522"), ("L X four two", "LX42"),
    ]

    static let natoWords: [(String, String)] = [
        ("lima x-ray four zero", "LX40"), ("lima xray four zero", "LX40"), ("lima x ray four zero", "LX40"), ("lima x-ray forty", "LX40"),
        ("lima x-ray niner", "LX9"), ("lima x-ray one niner", "LX19"), ("bravo alpha two eight seven", "BA287"), ("bravo alfa two eight seven", "BA287"),
        ("juliett lima one two", "JL12"), ("juliet lima one two", "JL12"), ("kilo lima six four three", "KL643"), ("alpha foxtrot one", "AF1"),
        ("echo kilo two", "EK2"), ("sierra quebec three two six", "SQ326"), ("oscar sierra one two", "OS12"), ("tango kilo nineteen", "TK19"),
        ("uniform alpha eight", "UA8"), ("delta lima one", "DL1"), ("india bravo three four", "IB34"), ("charlie x-ray two five one", "CX251"),
        ("whiskey kilo three", "WK3"), ("whisky kilo three", "WK3"), ("lima hotel four five six", "LH456"), ("november hotel two", "NH2"),
        ("quebec romeo one", "QR1"), ("sierra whiskey romeo forty", "LX40"), ("bravo alpha whiskey one", "BA1"), ("echo zulu yankee two one", "U221"),
        ("lima X forty", "LX40"), ("L x-ray forty", "LX40"), ("LIMA XRAY 40", "LX40"),
    ]

    static let homophones: [(String, String)] = [
        ("see ex three eight four", "CX384"), ("sea ex two", "CX2"), ("E why seventy four", "EY74"), ("cue are one", "QR1"),
        ("Q are ninety four", "QR94"), ("four you eight one two", "4U812"), ("bee six forty", "B640"), ("tea kay one nine", "TK19"),
        ("tee kay one nine", "TK19"), ("jay el forty two", "JL42"), ("kay el one six", "KL16"), ("el ex forty", "LX40"), ("ell ex forty", "LX40"),
        ("double u six one", "W61"), ("double you six one", "W61"), ("double u kay eight", "WK8"), ("E zed Y two one", "U221"),
        ("E zee why two one", "U221"), ("A zed five seven three", "AZ573"), ("ess queue three", "SQ3"), ("oh es five six", "OS56"),
        ("dee el one three one", "DL131"), ("eye bee six seven eight", "IB678"),
    ]

    static let airlineNames: [(String, String)] = [
        ("Swiss forty", "LX40"), ("swiss four zero", "LX40"), ("Swiss 40", "LX40"), ("swiss air forty", "LX40"), ("swiss international forty", "LX40"),
        ("swiss international air lines one eight", "LX18"), ("Lufthansa four hundred", "LH400"), ("British Airways two eight seven", "BA287"),
        ("british two eighty seven", "BA287"), ("Speedbird two eight seven", "BA287"), ("speedbird 287", "BA287"), ("easyJet one two three", "U2123"),
        ("easy jet one two three", "U2123"), ("easy one two three", "U2123"), ("Germanwings eight one two", "4U812"), ("german wings eight twelve", "4U812"),
        ("JetBlue six", "B66"), ("jet blue six one six", "B6616"), ("IndiGo one two three", "6E123"), ("i fly one two three", "6E123"), ("ifly 123", "6E123"),
        ("wizz air thirteen", "W613"), ("wizz thirteen", "W613"), ("KLM sixteen twelve", "KL1612"), ("k l m sixteen twelve", "KL1612"),
        ("Air France one one one five", "AF1115"), ("airfrans one", "AF1"), ("air frans one", "AF1"), ("Emirates eighty seven", "EK87"),
        ("Singapore Airlines three twenty six", "SQ326"), ("singapore three twenty six", "SQ326"), ("Japan Airlines forty two", "JL42"),
        ("all nippon airways two oh four", "NH204"), ("all nippon two oh four", "NH204"), ("Austrian five six one", "OS561"), ("austrian airlines five six one", "OS561"),
        ("turkish one nine one four", "TK1914"), ("Turkish Airlines nineteen fourteen", "TK1914"), ("United fifty three", "UA53"), ("American five two two", "AA522"),
        ("Delta one three one", "DL131"), ("delta air lines one three one", "DL131"), ("Etihad seventy four", "EY74"), ("qatar ninety four", "QR94"),
        ("Qatar Airways ninety four", "QR94"), ("qatari ninety four", "QR94"), ("Iberia six seven eight", "IB678"), ("scandinavian six oh four", "SK604"),
        ("SAS six oh four", "SK604"), ("Air Canada eight seven nine", "AC879"), ("ITA Airways five seven three", "AZ573"), ("ita five seven three", "AZ573"),
        ("alitalia five seven three", "AZ573"), ("Edelweiss eight", "WK8"), ("edelweiss air eight", "WK8"), ("Helvetic three four", "2L34"),
        ("helvetic airways three four", "2L34"), ("Eurowings seven five two", "EW752"), ("ryan air one two three", "FR123"), ("Cathay three eight four", "CX384"),
        ("cathay pacific three eight four", "CX384"), ("SWISS FORTY", "LX40"), ("Swiss flight forty", "LX40"), ("swiss flight number forty", "LX40"),
    ]

    static let icaoCodes: [(String, String)] = [
        ("S W R forty", "LX40"), ("SWR40", "LX40"), ("swr 40", "LX40"), ("SWR 0040", "LX40"), ("s w r four zero", "LX40"), ("E Z Y two one", "U221"),
        ("EZY21", "U221"), ("ezy 21", "U221"), ("B A W two eight seven", "BA287"), ("BAW287", "BA287"), ("D L H four zero zero", "LH400"),
        ("DLH400", "LH400"), ("G W I eight one two", "4U812"), ("J B U six one six", "B6616"), ("I G O one two three", "6E123"),
        ("W Z Z thirteen", "W613"), ("K L M sixteen twelve", "KL1612"), ("A F R one", "AF1"), ("U A E eighty seven", "EK87"),
        ("T H Y one nine one four", "TK1914"), ("O A W three four", "2L34"), ("E D W eight", "WK8"), ("I T Y five seven three", "AZ573"),
        ("A A L five two two", "AA522"), ("UAL53", "UA53"),
    ]

    static let alphanumericCodes: [(String, String)] = [
        ("U two one two three four", "U21234"), ("u 2 1 2 3 4", "U21234"), ("U2 1234", "U21234"), ("U21234", "U21234"), ("u two twelve thirty four", "U21234"),
        ("four U eight one two", "4U812"), ("4U 812", "4U812"), ("4U812", "4U812"), ("four u eight twelve", "4U812"), ("B six forty", "B640"),
        ("B6 40", "B640"), ("b six six one six", "B6616"), ("6E 123", "6E123"), ("6E123", "6E123"), ("six E one two three", "6E123"),
        ("six echo one two three", "6E123"), ("W six thirteen", "W613"), ("whiskey six thirteen", "W613"), ("two L three four", "2L34"),
        ("2L34", "2L34"), ("two lima three four", "2L34"), ("uniform two one two three", "U2123"), ("bravo six forty", "B640"),
        ("flight U two one two three four", "U21234"), ("U two", "!noNumber"),
    ]

    static let numberForms: [(String, String)] = [
        ("L X four zero", "LX40"), ("L X four oh", "LX40"), ("L X forty", "LX40"), ("L X two eighty seven", "LX287"), ("L X two eight seven", "LX287"),
        ("L X nineteen twelve", "LX1912"), ("L X twelve thirty four", "LX1234"), ("L X one hundred and twenty three", "LX123"),
        ("L X one hundred twenty three", "LX123"), ("L X three thousand four hundred fifty three", "LX3453"),
        ("L X three thousand four hundred and fifty three", "LX3453"), ("L X twenty oh one", "LX2001"), ("L X nine hundred", "LX900"),
        ("L X eight fourteen", "LX814"), ("L X double four", "LX44"), ("L X triple seven", "LX777"), ("L X double oh seven", "LX7"),
        ("L X zero four four two", "LX442"), ("L X oh four four two", "LX442"), ("L X one oh one", "LX101"), ("L X eleven", "LX11"),
        ("L X ten", "LX10"), ("L X seventy", "LX70"), ("L X ninety nine", "LX99"), ("L X one thousand", "LX1000"), ("L X two thousand and five", "LX2005"),
        ("L X twelve hundred", "LX1200"), ("L X twelve hundred and five", "LX1205"), ("L X one hundred oh five", "LX105"), ("L X four hundred and five", "LX405"),
        ("L X five hundred fifty", "LX550"), ("L X niner niner", "LX99"), ("L X nought seven", "LX7"), ("L X seven seven seven", "LX777"),
        ("L X forty four", "LX44"), ("L X four forty", "LX440"), ("L X fourteen oh five", "LX1405"), ("L X eighteen", "LX18"), ("L X one two", "LX12"),
        ("L X double one double two", "LX1122"), ("L X nine", "LX9"), ("L X one eight two three", "LX1823"), ("L X twenty twenty", "LX2020"),
        ("L X one hundred", "LX100"), ("L X 4 0", "LX40"), ("L X 1 2 3 4", "LX1234"), ("L X forty two hundred", "!noNumber"),
    ]

    static let writtenForms: [(String, String)] = [
        ("LX40", "LX40"), ("lx40", "LX40"), ("lx 040", "LX40"), ("LX-40", "LX40"), ("LX 0040", "LX40"), ("L X 40", "LX40"), ("Swiss 40", "LX40"),
        ("LX 40", "LX40"), ("lx 40", "LX40"), ("Lx40", "LX40"), ("LX040", "LX40"), ("LX0040", "LX40"), ("  LX40  ", "LX40"), ("LX40.", "LX40"),
        ("LX40?", "LX40"), ("LX４０", "LX40"), ("BA287", "BA287"), ("ba 287", "BA287"), ("U21234", "U21234"), ("u2 1234", "U21234"), ("4U812", "4U812"), ("4u 812", "4U812"),
        ("B640", "B640"), ("b6 40", "B640"), ("6E123", "6E123"), ("6e 123", "6E123"), ("2L34", "2L34"), ("W6 13", "W613"), ("LH 400", "LH400"),
        ("AA522", "AA522"), ("QQ40", "QQ40"), ("qq 40", "QQ40"), ("LX 9999", "LX9999"), ("LX 1", "LX1"), ("DLH 400", "LH400"),
        ("flight LX40", "LX40"), ("LX40 please", "LX40"), ("status LX 40", "LX40"), ("LX/40", "LX40"),
    ]

    static let carrierPhrases: [(String, String)] = [
        ("what's the gate for B A two eight seven", "BA287"), ("whats the gate for L X forty", "LX40"), ("what's the status of swiss forty", "LX40"),
        ("where is my gate for L X forty", "LX40"), ("I'm on S Q seventeen", "SQ17"), ("im on S Q seventeen", "SQ17"), ("flight L X forty please", "LX40"),
        ("um L X forty", "LX40"), ("uh L X uh forty", "LX40"), ("er swiss forty", "LX40"), ("L X forty thanks", "LX40"), ("L X forty thank you", "LX40"),
        ("can you tell me about L X forty", "LX40"), ("can you tell me the gate for swiss forty", "LX40"), ("when does L X forty leave", "LX40"),
        ("when does swiss forty depart", "LX40"), ("is L X forty on time", "LX40"), ("is swiss forty delayed", "LX40"), ("is the swiss flight forty boarding", "LX40"),
        ("my flight number is L X forty", "LX40"), ("the flight is lima x-ray forty", "LX40"), ("hi I'm on British Airways two eight seven", "BA287"),
        ("hello what gate is speedbird two eight seven", "BA287"), ("what time does easyjet one two three land", "U2123"), ("please L X forty", "LX40"),
        ("I am on flight U two one two three four", "U21234"), ("where is L X forty", "LX40"), ("gate for L X forty", "LX40"),
        ("what's the gate for a B A two eight seven", "BA287"), ("I'm flying Swiss forty today", "LX40"), ("check L X forty for me please", "LX40"),
        ("good morning, is L X forty on time", "LX40"), ("um uh er L X forty", "LX40"), ("where does the Lufthansa four hundred leave from", "LH400"),
        ("okay so it's swiss forty", "LX40"), ("when does B six forty arrive", "B640"), ("what terminal is I B six seven eight", "IB678"),
        ("I need the gate for A A five two two please", "AA522"), ("status of flight four U eight one two", "4U812"), ("what's the status of E Z Y two one", "U221"),
        ("Where is my gate for flight L X forty?", "LX40"),
        ("thank you L X forty", "LX40"), ("oh L X forty", "LX40"), ("L X forty and uh", "LX40"), ("the ana two oh four please", "NH204"),
        ("klm1612 please", "KL1612"), ("india bravo six", "IB6"), ("I'm on the delta one three one", "DL131"),
    ]

    static let refusals: [(String, String)] = [
        ("", "!empty"), ("   ", "!empty"), ("um", "!empty"), ("please", "!empty"), ("flight", "!empty"), ("good morning", "!empty"), ("thank you", "!empty"),
        ("where is the exit", "!unrecognizedWords"), ("a coffee please", "!unrecognizedWords"), ("I lost my passport", "!unrecognizedWords"),
        ("where are the toilets", "!unrecognizedWords"), ("how much is a taxi", "!unrecognizedWords"), ("banana forty", "!unrecognizedWords"),
        ("L X forty banana", "!unrecognizedWords"), ("can I get a sandwich", "!unrecognizedWords"), ("where is the train to zurich", "!unrecognizedWords"),
        ("forty", "!noAirline"), ("four zero", "!noAirline"), ("two eighty seven", "!noAirline"), ("flight forty please", "!noAirline"), ("one two three four", "!noAirline"),
        ("can you tell me two eighty seven", "!noAirline"), ("X forty", "!noAirline"), ("lima forty", "!noAirline"),
        ("Swiss", "!noNumber"), ("L X", "!noNumber"), ("lima x-ray", "!noNumber"), ("British Airways please", "!noNumber"), ("what's the gate for swiss", "!noNumber"),
        ("L X zero", "!noNumber"), ("swiss flight", "!noNumber"),
        ("L X one two three four five", "!tooManyDigits"), ("LX12345", "!tooManyDigits"), ("swiss one two three four five six", "!tooManyDigits"),
        ("Q Q Q forty", "!unknownAirline"), ("XYZ40", "!unknownAirline"), ("swiss café forty", "!unrecognizedWords"), ("Ünïcödé LX40", "!unrecognizedWords"), ("xyz 40", "!unrecognizedWords"), ("X Y Z one two", "!unknownAirline"), ("S W X forty", "!unknownAirline"),
        ("L X forty L X forty", "!unrecognizedWords"), ("lima x-ray four zero lima x-ray four zero", "!unrecognizedWords"),
        ("the one with L X forty", "!unrecognizedWords"), ("LX40 LX41", "!unrecognizedWords"), ("LX40 to London", "!unrecognizedWords"),
        ("where is my hotel", "!unrecognizedWords"), ("B A two eight seven sorry two eight eight", "!unrecognizedWords"),
        ("see you at gate forty", "!noAirline"), ("let's go 40", "!noAirline"), ("a b forty", "!noAirline"), ("are you on forty", "!noAirline"),
        ("x ray forty", "!noAirline"), ("gate B forty two", "!noAirline"), ("gate B six", "!noNumber"), ("I B", "!noNumber"),
        ("forty swiss", "!noNumber"), ("forty two", "!noAirline"), ("L X forty two hundred fifty", "!noNumber"),
    ]
}

/// What a table row expects.
private func check(_ input: String, _ expected: String) {
    let outcome = TestAirlines.normalizer.normalize(input)
    if expected.hasPrefix("!") {
        guard case .notUnderstood(let failure) = outcome else {
            Issue.record("\"\(input)\": expected \(expected), got \(outcome.best?.flight.canonical ?? "?")")
            return
        }
        #expect(failureKind(failure) == String(expected.dropFirst()), "\"\(input)\"")
    } else {
        #expect(outcome.best?.flight.canonical == expected, "\"\(input)\": \(outcome)")
    }
}

/// The case name of a failure, without its payload.
func failureKind(_ failure: NormalizationFailure) -> String {
    switch failure {
    case .empty: "empty"
    case .noAirline: "noAirline"
    case .noNumber: "noNumber"
    case .tooManyDigits: "tooManyDigits"
    case .unrecognizedWords: "unrecognizedWords"
    case .unknownAirline: "unknownAirline"
    }
}

@Suite("Normalizer table")
struct NormalizerTableTests {
    @Test("spelled letters", arguments: NormalizerTable.spelledLetters) func spelledLetters(input: String, expected: String) { check(input, expected) }
    @Test("NATO words", arguments: NormalizerTable.natoWords) func natoWords(input: String, expected: String) { check(input, expected) }
    @Test("letter homophones", arguments: NormalizerTable.homophones) func homophones(input: String, expected: String) { check(input, expected) }
    @Test("airline names and callsigns", arguments: NormalizerTable.airlineNames) func airlineNames(input: String, expected: String) { check(input, expected) }
    @Test("ICAO codes", arguments: NormalizerTable.icaoCodes) func icaoCodes(input: String, expected: String) { check(input, expected) }
    @Test("letter-digit airline codes", arguments: NormalizerTable.alphanumericCodes) func alphanumericCodes(input: String, expected: String) { check(input, expected) }
    @Test("number forms", arguments: NormalizerTable.numberForms) func numberForms(input: String, expected: String) { check(input, expected) }
    @Test("written forms", arguments: NormalizerTable.writtenForms) func writtenForms(input: String, expected: String) { check(input, expected) }
    @Test("carrier phrases", arguments: NormalizerTable.carrierPhrases) func carrierPhrases(input: String, expected: String) { check(input, expected) }
    @Test("refusals", arguments: NormalizerTable.refusals) func refusals(input: String, expected: String) { check(input, expected) }

    @Test func tableIsLargeEnough() {
        let count = NormalizerTable.spelledLetters.count + NormalizerTable.natoWords.count + NormalizerTable.homophones.count
            + NormalizerTable.airlineNames.count + NormalizerTable.icaoCodes.count + NormalizerTable.alphanumericCodes.count
            + NormalizerTable.numberForms.count + NormalizerTable.writtenForms.count + NormalizerTable.carrierPhrases.count
            + NormalizerTable.refusals.count
        print("normalizer table cases: \(count)")
        #expect(count >= 300)
    }
}
