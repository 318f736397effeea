#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL cluster: initdb in a temporary folder, a free loopback port, trust
# authentication, the socket in the same folder; FLIGHTVOICE_TEST_DATABASE names it for the command. The cluster is
# stopped and its folder removed afterwards, whatever the command's outcome; the command's exit status is kept.
#
#   scripts/with-test-postgres.sh swift test --skip-build
#
# As root the cluster runs as the `postgres` user (initdb refuses root); otherwise as the current user.
set -euo pipefail

bindir=""
for candidate in "$(pg_config --bindir 2>/dev/null || true)" /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then bindir=$candidate; break; fi
done
if [ -z "$bindir" ]; then
    echo "with-test-postgres: initdb not found; install the Debian package postgresql (make deps does)" >&2
    exit 69
fi

folder=$(mktemp -d "${TMPDIR:-/tmp}/flightvoice-postgres.XXXXXX")
chmod 755 "$folder"
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$folder"
    as_owner() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
fi

stop() {
    as_owner "$bindir/pg_ctl" -D "$folder/data" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT

as_owner "$bindir/initdb" -D "$folder/data" -A trust -U postgres --no-sync >"$folder/initdb.log" 2>&1 || {
    cat "$folder/initdb.log" >&2; exit 70; }

# A free port: try random high ports until one nobody listens on starts the server.
started=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
    port=$(( 20000 + RANDOM % 40000 ))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
    # -F: no fsync (the data is thrown away); enough connections for parallel tests that start ten servers at once.
    if as_owner "$bindir/pg_ctl" -D "$folder/data" -w -t 30 -l "$folder/server.log" \
        -o "-F -p $port -k $folder -c listen_addresses=127.0.0.1 -c max_connections=400" start >/dev/null; then
        started=yes; break
    fi
done
if [ -z "$started" ]; then
    echo "with-test-postgres: the test server did not start; its log:" >&2
    cat "$folder/server.log" >&2 || true
    exit 70
fi

export FLIGHTVOICE_TEST_DATABASE="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-test-postgres: PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') at $FLIGHTVOICE_TEST_DATABASE" >&2
set +e
"$@"
status=$?
set -e
exit $status
