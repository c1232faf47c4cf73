#!/usr/bin/env bash
# Start a throwaway PostgreSQL server (Debian's packages) for the tests and print its URL.
# Usage: eval "$(bash .ci/postgres.sh start)"   ...   bash .ci/postgres.sh stop "$EUCHRE_PG_DIR"
set -euo pipefail
case "${1:-start}" in
start)
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
    fi
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    dir=$(mktemp -d /tmp/euchre-pg.XXXXXX)
    chown postgres "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    su postgres -c "$bin/initdb -D $dir/data -A trust -U postgres" >/dev/null
    su postgres -c "$bin/pg_ctl -D $dir/data -w -o '-k /tmp -p $port -c listen_addresses=127.0.0.1 -c fsync=on' -l $dir/log start" >&2
    echo "export EUCHRE_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
    echo "export EUCHRE_PG_DIR=$dir"
    ;;
stop)
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    su postgres -c "$bin/pg_ctl -D $2/data -m fast stop" >&2 || true
    rm -rf "$2"
    ;;
esac
