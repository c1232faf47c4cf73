// The simulated players of bench/server.py, in Node: a cross-check of how cheap the players' side
// of that benchmark can be, so that its floor (bench/ws_floor.py) is not a property of one client.
//
// Same behaviour as bench/server.py's client: open a friends table (POST /api/tables), connect its
// four seats (/ws/{id}, hello with the seat's token), start it with the host's token, and from then
// on every player sends a uniformly random legal action (unique id, the version it saw) the moment
// a state frame of a new version shows `view.legal`; when all four have seen the game end, they
// leave and a new table is opened. Act-to-ack times are taken with performance.now(), during
// SECONDS after WARMUP seconds. It prints one JSON line: actions acked, rate, p50/p90/p99 in ms,
// errors (err frames, unexpected closes, failed requests) and the client's CPU seconds.
//
// It needs Node 20 with its experimental WebSocket (undici), nothing from npm:
//
//   node --experimental-websocket bench/ws_players.mjs PORT [TABLES=250] [SECONDS=20] [WARMUP=5]
//
// against a server started as bench/server.py starts it (`python bench/ws_floor.py`, or
// `euchre serve --port 0 --bot-delay 0 --connect-limit 0 --create-limit 0 ...`); results in
// bench/README.md.
const [port, tables = 250, seconds = 20, warmup = 5] = process.argv.slice(2).map(Number);
if (!port) {
  console.error('usage: node --experimental-websocket bench/ws_players.mjs PORT [TABLES] [SECONDS] [WARMUP]');
  process.exit(2);
}
const base = `http://127.0.0.1:${port}`;
const lat = [];
let acked = 0, measuring = false, stopping = false, frames = 0, games = 0;
const errors = {};
const error = (what) => { errors[what] = (errors[what] || 0) + 1; };

async function post(path, body, token) {
  const headers = {'content-type': 'application/json'};
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, {method: 'POST', headers, body: body ? JSON.stringify(body) : undefined});
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
}

function playTable(i, info) {
  const tokens = [info.token, ...info.links.sort((a, b) => a.seat - b.seat).map((l) => l.token)];
  return new Promise((resolve) => {
    let over = 0, opened = 0, closing = false;
    const socks = tokens.map((token, seat) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/${info.id}`);
      let v = -1, acted = -1, n = 0, sawOver = false;
      const pending = new Map();
      ws.onopen = async () => {
        ws.send(JSON.stringify({t: 'hello', token, name: `t${i}s${seat}`}));
        if (++opened === 4) {
          await new Promise((r) => setTimeout(r, 100)); // let the four hellos land
          post(`/api/tables/${info.id}/start`, null, tokens[0]).catch((e) => error(`start: ${e.message}`));
        }
      };
      ws.onclose = () => { if (!closing) error('unexpected close'); };
      ws.onmessage = (ev) => {
        const now = performance.now();
        frames++;
        const f = JSON.parse(ev.data);
        if (f.t === 'ack') {
          const sent = pending.get(f.id);
          pending.delete(f.id);
          if (sent === undefined) error('ack for an unknown id');
          else if (measuring) { acked++; lat.push(now - sent); }
        } else if (f.t === 'state') {
          if (f.v <= v) return;
          v = f.v;
          if (f.d.status === 'over') {
            if (!sawOver) {
              sawOver = true;
              if (++over === 4) { closing = true; socks.forEach((s) => s.close()); games++; resolve(); }
            }
            return;
          }
          const view = f.d.view;
          if (view && view.legal && view.legal.length && v > acted && !stopping) {
            acted = v;
            const action = view.legal[Math.floor(Math.random() * view.legal.length)];
            const id = `${i}.${seat}.${++n}`;
            pending.set(id, performance.now());
            ws.send(JSON.stringify({t: 'act', id, action, v}));
          }
        } else if (f.t === 'err') error(`err ${f.code}`);
      };
      return ws;
    });
  });
}

async function table(i) {
  while (!stopping) {
    try {
      await playTable(i, await post('/api/tables', {mode: 'friends', name: `t${i}s0`}));
    } catch (e) {
      error(`table: ${e.message}`);
      return;
    }
  }
}

for (let i = 0; i < tables; i++) table(i);
setTimeout(() => { measuring = true; }, warmup * 1000);
setTimeout(() => {
  measuring = false;
  stopping = true;
  lat.sort((a, b) => a - b);
  const q = (p) => (lat.length ? +lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(1) : null);
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({tables, seconds, acked, actions_per_s: Math.round(acked / seconds), p50_ms: q(0.5),
    p90_ms: q(0.9), p99_ms: q(0.99), errors, frames, games, client_cpu_s: (cpu.user + cpu.system) / 1e6}));
  process.exit(0);
}, (warmup + seconds) * 1000);
