#!/usr/bin/env bash
# A small fleet on one machine, under tmux: PostgreSQL, two `flightvoice serve` processes and two kiosk screens, so
# that a gate change made with curl through one server can be watched appearing on both kiosks.
#
#   scripts/fleet-demo.sh                  start it and attach (detach with C-b d; the fleet stops when the script ends)
#   scripts/fleet-demo.sh --check          start it, change LX40's gate through server 1, check that both kiosks and
#                                          server 2 show it within 2 seconds, stop (exit 0 on success)
#   scripts/fleet-demo.sh --database URL   use this PostgreSQL database instead of a throw-away cluster
#
# The kiosk panes run `flightvoice kiosk` on the shared database (keyboard only, no voice: this machine may have no
# sound card), each with its own offline copy; LX40 is typed into both, and the card on screen follows the change.
# FLIGHTVOICE_BIN picks the binary (default .build/release/flightvoice, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

check=""
database=""
while [ $# -gt 0 ]; do
    case "$1" in
        --check) check=yes ;;
        --database) database=$2; shift ;;
        *) echo "usage: scripts/fleet-demo.sh [--check] [--database URL]" >&2; exit 64 ;;
    esac
    shift
done
if [ -z "$database" ]; then
    if [ -z "${FLIGHTVOICE_TEST_DATABASE:-}" ]; then
        exec scripts/with-test-postgres.sh "$0" ${check:+--check}
    fi
    database=$FLIGHTVOICE_TEST_DATABASE
fi
command -v tmux >/dev/null || { echo "fleet-demo: tmux is missing (make deps installs it)" >&2; exit 69; }
bin=${FLIGHTVOICE_BIN:-.build/release/flightvoice}
if [ ! -x "$bin" ]; then swift build -c release >&2; fi
bin=$(realpath "$bin")

work=$(mktemp -d "${TMPDIR:-/tmp}/flightvoice-fleet.XXXXXX")
session="flightvoice-fleet-$$"
cleanup() {
    # The servers outlive the SIGHUP of tmux kill-session (they handle signals themselves): end each pane's programs
    # by process id first.
    for pane in $(tmux list-panes -s -t "$session" -F '#{pane_pid}' 2>/dev/null); do
        pkill -TERM -P "$pane" 2>/dev/null || true
    done
    tmux kill-session -t "$session" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
echo "fleet-demo-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')" >"$work/token"
chmod 600 "$work/token"
token=$(cat "$work/token")

# Migrates the schema and seeds the built-in day if the database is new.
"$bin" db status --database "$database" >/dev/null

kiosk() {
    echo "LANG=C.UTF-8 $bin kiosk --database '$database' --no-microphone --no-voice --card-seconds 3600 --offline-copy $work/kiosk$1.sqlite 2>$work/kiosk$1.log"
}

serve() { echo "$bin serve --port 0 --workers 1 --data $work/server$1 --database '$database' --token-file $work/token 2>&1 | tee $work/server$1.log"; }
# Each kiosk pane gets at least 80×24, what the kiosk is made for.
tmux new-session -d -s "$session" -x 170 -y 60 "$(serve 1)"
tmux split-window -t "$session" -h "$(serve 2)"
tmux split-window -t "$session:0.0" -v -l 28 "$(kiosk 1)"
tmux split-window -t "$session:0.2" -v -l 28 "$(kiosk 2)"
kiosk1="$session:0.1"
kiosk2="$session:0.3"
screen() { tmux capture-pane -p -t "$1"; }
for pane in "$kiosk1" "$kiosk2"; do
    for _ in $(seq 1 300); do screen "$pane" | grep -q "Say your flight number" && break; sleep 0.2; done
    screen "$pane" | grep -q "Say your flight number" || { echo "fleet-demo: a kiosk did not start:" >&2; screen "$pane" >&2; cat "$work"/kiosk*.log >&2; exit 70; }
    tmux send-keys -t "$pane" -l "LX40"
    tmux send-keys -t "$pane" Enter
done

url_of() { grep -o 'listening on http://[0-9.:]*' "$work/server$1.log" 2>/dev/null | head -1 | cut -d' ' -f3; }
for _ in $(seq 1 300); do
    [ -n "$(url_of 1)" ] && [ -n "$(url_of 2)" ] && break
    sleep 0.2
done
server1=$(url_of 1)
server2=$(url_of 2)
if [ -z "$server1" ] || [ -z "$server2" ]; then
    echo "fleet-demo: the servers did not start:" >&2
    cat "$work"/server*.log >&2
    exit 70
fi

gate="G$(( RANDOM % 90 + 10 ))"
change="curl -s -X PUT $server1/v1/flights/LX40 -H 'Authorization: Bearer $token' -d '{\"gate\": \"$gate\"}'"
if [ -z "$check" ]; then
    cat <<EOF
Fleet on $database
  server 1: $server1     server 2: $server2     (token: $token)
Change a gate through server 1 and watch both kiosks:
  $change
Ask server 2:  curl -s $server2/v1/flights/LX40
EOF
    if [ -t 0 ]; then tmux attach -t "$session"; else echo "(not a terminal: tmux attach -t $session from another shell; Ctrl-C ends the fleet)"; sleep infinity; fi
    exit 0
fi

# --check: both kiosks show the current gate first, then the change must reach them within 2 seconds.
shows() { screen "$1" | grep -q "GATE $2"; }
current=$("$bin" ask --database "$database" LX40 | grep -o 'Gate [A-Z0-9]*' | cut -d' ' -f2)
for _ in $(seq 1 150); do shows "$kiosk1" "$current" && shows "$kiosk2" "$current" && break; sleep 0.2; done
shows "$kiosk1" "$current" && shows "$kiosk2" "$current" || { echo "fleet-demo: the kiosks never showed gate $current" >&2; exit 1; }
sleep 0.5
started=$(date +%s%N)
status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$server1/v1/flights/LX40" -H "Authorization: Bearer $token" -d "{\"gate\": \"$gate\"}")
[ "$status" = 200 ] || { echo "fleet-demo: PUT through server 1 answered $status" >&2; exit 1; }
seen=""
for _ in $(seq 1 40); do
    if shows "$kiosk1" "$gate" && shows "$kiosk2" "$gate"; then seen=yes; break; fi
    sleep 0.05
done
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
curl -s "$server2/v1/flights/LX40" | grep -q "\"gate\":\"$gate\"" || { echo "fleet-demo: server 2 does not answer gate $gate" >&2; exit 1; }
if [ -z "$seen" ]; then
    echo "fleet-demo: gate $gate did not reach both kiosks within 2 s; they show:" >&2
    screen "$kiosk1" >&2
    screen "$kiosk2" >&2
    exit 1
fi
echo "fleet-demo: gate $gate set through server 1 reached server 2 and both kiosks in $elapsed_ms ms"
screen "$kiosk1" | head -12
