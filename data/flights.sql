-- FlightVoice seed: one service day at Zurich (ZRH). Times are local (Europe/Zurich).
-- Rows with service_date 'daily' repeat every day: a lookup places them on the day nearest to now,
-- so the demo always shows today. Imported rows with a full ISO 8601 time carry their own date.
PRAGMA user_version = 1;

CREATE TABLE airlines (
    iata         TEXT PRIMARY KEY CHECK (length(iata) = 2),
    icao         TEXT UNIQUE CHECK (icao IS NULL OR length(icao) = 3),
    name         TEXT NOT NULL,
    callsign     TEXT,
    spoken_names TEXT NOT NULL DEFAULT ''   -- further names people say, lower case, separated by '|'
);

-- The fixed status vocabulary of the displays.
CREATE TABLE statuses (
    status      TEXT PRIMARY KEY,
    direction   TEXT CHECK (direction IS NULL OR direction IN ('departure', 'arrival')),  -- NULL: either
    description TEXT NOT NULL
);

CREATE TABLE flights (
    id                INTEGER PRIMARY KEY,
    airline           TEXT NOT NULL REFERENCES airlines(iata),
    number            INTEGER NOT NULL CHECK (number BETWEEN 1 AND 9999),
    direction         TEXT NOT NULL CHECK (direction IN ('departure', 'arrival')),
    airport           TEXT NOT NULL,              -- IATA code of the destination (departures) or origin (arrivals)
    city              TEXT NOT NULL,
    service_date      TEXT NOT NULL DEFAULT 'daily', -- 'daily' or 'YYYY-MM-DD' (local date of the scheduled time)
    scheduled         TEXT NOT NULL CHECK (scheduled GLOB '[0-2][0-9]:[0-5][0-9]'),  -- local HH:MM
    estimated_offset  INTEGER,                    -- minutes from scheduled to estimated/actual; NULL when unknown
    terminal          TEXT,
    gate              TEXT,                       -- departures
    previous_gate     TEXT,                       -- set when the gate changed
    belt              TEXT,                       -- arrivals: baggage reclaim belt
    status            TEXT NOT NULL REFERENCES statuses(status),
    UNIQUE (airline, number, direction, service_date)
);

-- Marketing numbers of other airlines on an operated flight.
CREATE TABLE codeshares (
    flight_id INTEGER NOT NULL REFERENCES flights(id) ON DELETE CASCADE,
    airline   TEXT NOT NULL REFERENCES airlines(iata),
    number    INTEGER NOT NULL CHECK (number BETWEEN 1 AND 9999),
    PRIMARY KEY (airline, number, flight_id)
);
CREATE INDEX codeshares_by_number ON codeshares(airline, number);

INSERT INTO statuses (status, direction, description) VALUES
    ('scheduled',     NULL,        'Planned; nothing announced yet'),
    ('on time',       NULL,        'Expected at the scheduled time'),
    ('check-in open', 'departure', 'Check-in desks are open'),
    ('boarding',      'departure', 'Boarding at the gate'),
    ('final call',    'departure', 'Last call: go to the gate now'),
    ('gate closed',   'departure', 'Boarding has ended'),
    ('departed',      'departure', 'Left the gate'),
    ('delayed',       NULL,        'Later than scheduled; see the estimated time'),
    ('cancelled',     NULL,        'Will not operate today'),
    ('diverted',      NULL,        'Going to (or coming from) another airport than planned'),
    ('expected',      'arrival',   'In the air; see the estimated time'),
    ('landed',        'arrival',   'On the ground, taxiing'),
    ('arrived',       'arrival',   'At the gate; baggage on the belt shown');

-- Airlines
INSERT INTO airlines (iata, icao, name, callsign, spoken_names) VALUES
    ('LX', 'SWR', 'Swiss', 'Swiss', 'swiss air|swiss international|swiss international air lines'),
    ('BA', 'BAW', 'British Airways', 'Speedbird', 'british');

-- Flights
INSERT INTO flights (id, airline, number, direction, airport, city, scheduled, estimated_offset, terminal, gate, previous_gate, belt, status) VALUES
    (1, 'LX', 40, 'departure', 'JFK', 'New York', '13:05', 0, 'E', 'E34', NULL, NULL, 'boarding'),
    (2, 'BA', 287, 'arrival', 'LHR', 'London', '09:40', 12, '1', NULL, NULL, '21', 'landed');

INSERT INTO codeshares (flight_id, airline, number) VALUES
    (2, 'LX', 3287);
