#!/usr/bin/env bash
# Brings up what the tests need: throwaway loopback Redis + PostgreSQL, Chromium and CJK fonts.
# Usage: source scripts/services.sh   (exports REDIS_URL, TEST_PG_URL, CHROMIUM_PATH; call services_down at the end)
# Missing Debian packages are installed with apt-get when running as root; otherwise we stop with a clear message.
REDIS_PORT=${REDIS_PORT:-16379}
PG_PORT=${PG_PORT:-15432}
t0=$SECONDS
need=()
command -v redis-server >/dev/null || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list :lang=zh 2>/dev/null | grep -q . || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "services: missing Debian packages: ${need[*]}" >&2
    echo "services: run as root (apt-get is used), or install them: sudo apt-get install ${need[*]}" >&2
    return 1 2>/dev/null || exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || {
    echo "services: apt-get install ${need[*]} failed" >&2
    return 1 2>/dev/null || exit 1
  }
fi
echo "services: packages ready in $((SECONDS - t0))s (installed: ${need[*]:-nothing})"

SVC_DIR=$(mktemp -d /tmp/kefu-svc.XXXX)
chmod 711 "$SVC_DIR" # the postgres user must traverse it

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$SVC_DIR" \
  --daemonize no >"$SVC_DIR/redis.log" 2>&1 &
REDIS_PID=$!
for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done

PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PG_AS=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: use the postgres system user created by the Debian package.
  mkdir -p "$SVC_DIR/pg" && chown postgres:postgres "$SVC_DIR/pg" && chmod 700 "$SVC_DIR/pg"
  PG_AS=(runuser -u postgres --)
else
  mkdir -p "$SVC_DIR/pg"
fi
"${PG_AS[@]}" "$PGBIN/initdb" -D "$SVC_DIR/pg/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$SVC_DIR/initdb.log" 2>&1
"${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$SVC_DIR/pg/data" -l "$SVC_DIR/pg/pg.log" -w -t 30 \
  -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $SVC_DIR/pg -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
  start >/dev/null
PG_PID=$(head -1 "$SVC_DIR/pg/data/postmaster.pid")

export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export TEST_PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
export CHROMIUM_PATH=/usr/bin/chromium
export SVC_DIR REDIS_PID PG_PID PGBIN

services_down() {
  kill "$REDIS_PID" 2>/dev/null || true
  "${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$SVC_DIR/pg/data" -m fast -w stop >/dev/null 2>&1 || kill "$PG_PID" 2>/dev/null || true
  rm -rf "$SVC_DIR"
}
echo "services: redis pid $REDIS_PID on $REDIS_PORT, postgres pid $PG_PID on $PG_PORT, up in $((SECONDS - t0))s"
