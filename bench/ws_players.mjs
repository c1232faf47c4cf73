// The simulated players of bench/server.py, in Node: a cross-check of how cheap the players' side
// of that benchmark can be, so that its floor (bench/ws_floor.py) is not a property of one client.
//
// Same behaviour as bench/server.py's client: open a friends table (POST /api/tables), connect its
// four seats (/ws/{id}, hello with the seat's token), start it with the host's token, and from then
// on every player sends a uniformly random legal action (unique id, the version it saw) the moment
// a state frame of a new version shows `view.legal`; when all four have seen the game end, they
// leave and a new table is opened. Once every table has started, WARMUP seconds pass, then
// act-to-ack times are taken with performance.now() for SECONDS. It prints one JSON line: actions
// acked in the window, rate, p50/p90/p99 in ms, errors (err frames, unexpected closes, failed
// requests, actions never acknowledged, tables with no frame for 10 s) and the client's CPU
// seconds in the window (process.cpuUsage at its start and end).
//
// It needs Node 20 with its experimental WebSocket (undici), nothing from npm:
//
//   node --experimental-websocket bench/ws_players.mjs PORT [TABLES=250] [SECONDS=20] [WARMUP=5] [SERVER_PID]
//
// against a server started as bench/server.py starts it (`python bench/ws_floor.py`, or
// `euchre serve --port 0 --bot-delay 0 --connect-limit 0 --create-limit 0 ...`) on PORT. With
// SERVER_PID it also reads the server's CPU time from /proc/SERVER_PID/stat at the start and the
// end of the window. Results in bench/README.md.
import {readFileSync} from 'node:fs';

const [port, tables = 250, seconds = 20, warmup = 5, serverPid = 0] = process.argv.slice(2).map(Number);
// utime + stime of a process, in clock ticks (100 a second on Linux)
const ticks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
if (!port) {
  console.error('usage: node --experimental-websocket bench/ws_players.mjs PORT [TABLES] [SECONDS] [WARMUP] [SERVER_PID]');
  process.exit(2);
}
const base = `http://127.0.0.1:${port}`;
const lat = [];
let acked = 0, measuring = false, stopping = false, frames = 0, games = 0, started = 0, inflight = 0;
let onAllStarted;
const allStarted = new Promise((resolve) => { onAllStarted = resolve; });
const errors = {};
const error = (what) => { errors[what] = (errors[what] || 0) + 1; };

async function post(path, body, token) {
  const headers = {'content-type': 'application/json'};
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, {method: 'POST', headers, body: body ? JSON.stringify(body) : undefined});
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
}

function playTable(i, info, first) {
  const tokens = [info.token, ...info.links.sort((a, b) => a.seat - b.seat).map((l) => l.token)];
  return new Promise((resolve) => {
    let over = 0, ready = 0, closing = false, last = performance.now();
    const stall = setInterval(() => {
      if (!stopping && performance.now() - last > 10000) { error('table stalled'); clearInterval(stall); }
    }, 1000);
    const socks = tokens.map((token, seat) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/${info.id}`);
      let v = -1, acted = -1, n = 0, sawOver = false, seen = false;
      const pending = new Map();
      ws.onopen = () => ws.send(JSON.stringify({t: 'hello', token, name: `t${i}s${seat}`}));
      ws.onclose = () => { if (!closing) error('unexpected close'); };
      ws.onmessage = (ev) => {
        const now = performance.now();
        last = now;
        frames++;
        const f = JSON.parse(ev.data);
        if (f.t === 'ack') {
          const sent = pending.get(f.id);
          pending.delete(f.id);
          if (sent === undefined) { error('ack for an unknown id'); return; }
          inflight--;
          if (measuring) acked++; // as bench/server.py: acks received in the window, and the
          if (sent[1]) lat.push(now - sent[0]); // latencies of actions sent in it
        } else if (f.t === 'state') {
          if (!seen) {
            seen = true;
            if (++ready === 4) { // every seat has joined (as the Python client waits): start
              post(`/api/tables/${info.id}/start`, null, tokens[0]).then(() => {
                if (first && ++started === tables) onAllStarted();
              }, (e) => error(`start: ${e.message}`));
            }
          }
          if (f.v <= v) return;
          v = f.v;
          if (f.d.status === 'over') {
            if (!sawOver) {
              sawOver = true;
              if (++over === 4) {
                closing = true;
                clearInterval(stall);
                socks.forEach((s) => s.close());
                games++;
                resolve();
              }
            }
            return;
          }
          const view = f.d.view;
          if (view && view.legal && view.legal.length && v > acted && !stopping) {
            acted = v;
            const action = view.legal[Math.floor(Math.random() * view.legal.length)];
            const id = `${i}.${seat}.${++n}`;
            pending.set(id, [performance.now(), measuring]);
            inflight++;
            ws.send(JSON.stringify({t: 'act', id, action, v}));
          }
        } else if (f.t === 'err') error(`err ${f.code}`);
      };
      return ws;
    });
  });
}

async function table(i) {
  let first = true;
  while (!stopping) {
    try {
      const info = await post('/api/tables', {mode: 'friends', name: `t${i}s0`});
      const game = playTable(i, info, first);
      first = false;
      await game;
    } catch (e) {
      error(`table: ${e.message}`);
      return;
    }
  }
}

for (let i = 0; i < tables; i++) table(i);
const setup = setTimeout(() => { error('setup timed out'); onAllStarted(); }, 120000);
await allStarted;
clearTimeout(setup);
await new Promise((r) => setTimeout(r, warmup * 1000));
const cpu0 = process.cpuUsage();
const server0 = serverPid ? ticks(serverPid) : 0;
measuring = true;
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
stopping = true;
const cpu = process.cpuUsage(cpu0);
const serverS = serverPid ? (ticks(serverPid) - server0) / 100 : null;
await new Promise((r) => setTimeout(r, 2000)); // the acks of actions in flight
lat.sort((a, b) => a - b);
const q = (p) => (lat.length ? +lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(1) : null);
if (inflight) errors['actions never acknowledged'] = inflight;
console.log(JSON.stringify({tables, seconds, acked, actions_per_s: Math.round(acked / seconds), p50_ms: q(0.5),
  p90_ms: q(0.9), p99_ms: q(0.99), errors, frames, games, client_cpu_s: (cpu.user + cpu.system) / 1e6,
  client_cpu_ms_per_action: acked ? +((cpu.user + cpu.system) / 1e3 / acked).toFixed(3) : null,
  server_cpu_pct: serverS === null ? null : Math.round(serverS / seconds * 100),
  server_cpu_ms_per_action: serverS === null || !acked ? null : +(serverS * 1e3 / acked).toFixed(3)}));
process.exit(0);
