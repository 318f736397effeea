import FlightCore

/// Thirty real airlines with their codes, callsigns and the names travellers use: the normalizer's test directory.
enum TestAirlines {
    static let all: [Airline] = [
        Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss", spokenNames: ["swiss air", "swiss international", "swiss international air lines"]),
        Airline(iata: "BA", icao: "BAW", name: "British Airways", callsign: "Speedbird", spokenNames: ["british"]),
        Airline(iata: "LH", icao: "DLH", name: "Lufthansa", callsign: "Lufthansa", spokenNames: ["lufthansa german airlines"]),
        Airline(iata: "U2", icao: "EZY", name: "easyJet", callsign: "Easy", spokenNames: ["easy jet"]),
        Airline(iata: "4U", icao: "GWI", name: "Germanwings", callsign: "Germanwings", spokenNames: ["german wings"]),
        Airline(iata: "B6", icao: "JBU", name: "JetBlue", callsign: "JetBlue", spokenNames: ["jet blue", "jetblue airways"]),
        Airline(iata: "6E", icao: "IGO", name: "IndiGo", callsign: "IFly", spokenNames: ["i fly", "indigo airlines"]),
        Airline(iata: "W6", icao: "WZZ", name: "Wizz Air", callsign: "Wizz Air", spokenNames: ["wizz", "wiz air"]),
        Airline(iata: "KL", icao: "KLM", name: "KLM", callsign: "KLM", spokenNames: ["k l m", "royal dutch airlines"]),
        Airline(iata: "AF", icao: "AFR", name: "Air France", callsign: "Airfrans", spokenNames: ["air frans"]),
        Airline(iata: "EK", icao: "UAE", name: "Emirates", callsign: "Emirates", spokenNames: []),
        Airline(iata: "SQ", icao: "SIA", name: "Singapore Airlines", callsign: "Singapore", spokenNames: []),
        Airline(iata: "JL", icao: "JAL", name: "Japan Airlines", callsign: "Japan Air", spokenNames: ["jal"]),
        Airline(iata: "NH", icao: "ANA", name: "All Nippon Airways", callsign: "All Nippon", spokenNames: ["ana"]),
        Airline(iata: "OS", icao: "AUA", name: "Austrian Airlines", callsign: "Austrian", spokenNames: []),
        Airline(iata: "TK", icao: "THY", name: "Turkish Airlines", callsign: "Turkish", spokenNames: []),
        Airline(iata: "UA", icao: "UAL", name: "United Airlines", callsign: "United", spokenNames: []),
        Airline(iata: "AA", icao: "AAL", name: "American Airlines", callsign: "American", spokenNames: []),
        Airline(iata: "DL", icao: "DAL", name: "Delta Air Lines", callsign: "Delta", spokenNames: []),
        Airline(iata: "EY", icao: "ETD", name: "Etihad Airways", callsign: "Etihad", spokenNames: []),
        Airline(iata: "QR", icao: "QTR", name: "Qatar Airways", callsign: "Qatari", spokenNames: ["qatar"]),
        Airline(iata: "IB", icao: "IBE", name: "Iberia", callsign: "Iberia", spokenNames: []),
        Airline(iata: "SK", icao: "SAS", name: "Scandinavian Airlines", callsign: "Scandinavian", spokenNames: ["sas"]),
        Airline(iata: "AC", icao: "ACA", name: "Air Canada", callsign: "Air Canada", spokenNames: []),
        Airline(iata: "AZ", icao: "ITY", name: "ITA Airways", callsign: "Itarrow", spokenNames: ["ita", "alitalia"]),
        Airline(iata: "WK", icao: "EDW", name: "Edelweiss Air", callsign: "Edelweiss", spokenNames: ["edelweiss"]),
        Airline(iata: "2L", icao: "OAW", name: "Helvetic Airways", callsign: "Helvetic", spokenNames: ["helvetic"]),
        Airline(iata: "EW", icao: "EWG", name: "Eurowings", callsign: "Eurowings", spokenNames: ["euro wings"]),
        Airline(iata: "FR", icao: "RYR", name: "Ryanair", callsign: "Ryanair", spokenNames: ["ryan air"]),
        Airline(iata: "CX", icao: "CPA", name: "Cathay Pacific", callsign: "Cathay", spokenNames: ["cathay"]),
    ]

    static let directory = AirlineDirectory(all)
    static let normalizer = SpokenFlightNormalizer(airlines: directory)
}
