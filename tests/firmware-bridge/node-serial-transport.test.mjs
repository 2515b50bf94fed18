// The Node host's serial transport (firmware-bridge/js/node_serial_transport.mjs) over a socat PTY pair, with this
// process reading the other end itself. Issue 37: on a loaded machine the host's frames waited in serialport's
// write path (a thread-pool write per chunk) 500 ms and more, every one of them arriving late, after the
// controller's watchdog had fired. The transport now writes on the spot; these tests hold it to that.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { NodeSerialTransport } from '../../firmware-bridge/js/node_serial_transport.mjs';
import { sleep, stopProcess, waitFile } from './sim_log.mjs';

async function ptyPair() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'achain-transport-'));
  const a = path.join(dir, 'a'), b = path.join(dir, 'b');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  await waitFile(a);
  await waitFile(b);
  const peer = fs.openSync(b, fs.constants.O_RDWR | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
  const readPeer = () => {
    const chunks = [];
    const buf = Buffer.alloc(65536);
    for (;;) {
      let n = 0;
      try {
        n = fs.readSync(peer, buf, 0, buf.length, null);
      } catch (e) {
        if (e.code === 'EAGAIN') break;
        throw e;
      }
      if (n <= 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  };
  return {
    a, peer, readPeer,
    async close() {
      fs.closeSync(peer);
      await stopProcess(socat);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs body(pair, transport) on a fresh PTY pair and transport, and closes both whatever happens. */
async function withTransport(body) {
  const pair = await ptyPair();
  const tr = await NodeSerialTransport.open(pair.a, 115200);
  try {
    await body(pair, tr);
  } finally {
    await tr.close();
    await pair.close();
  }
}

/** Reads the peer end every 5 ms until done(bytes so far) or `tries` reads; returns what arrived. */
async function readUntil(pair, done, tries) {
  let got = Buffer.alloc(0);
  for (let k = 0; k < tries; k++) {
    got = Buffer.concat([got, pair.readPeer()]);
    if (done(got)) break;
    await sleep(5);
  }
  return got;
}

const frame = (i, n = 64) => Uint8Array.from({ length: n }, (_, k) => (i * 7 + k) & 0xff);

test('NodeSerialTransport: a write is on the wire when write() returns (no queue behind it while the port has room)', async () => {
  await withTransport(async (pair, tr) => {
    const sent = [];
    // 40 frames of 64 B: 2,560 B, within what a PTY holds unread. serialport's stream queued each one for a
    // thread-pool write (pending > 0 after every call: 40 of 40 in the commit before).
    let queuedAfterWrite = 0;
    for (let i = 0; i < 40; i++) {
      const f = frame(i);
      sent.push(f);
      tr.write(f);
      if (tr.pending() !== 0) queuedAfterWrite += 1;
    }
    assert.equal(queuedAfterWrite, 0, `${queuedAfterWrite} of 40 writes left bytes queued in the host`);
    const got = await readUntil(pair, (g) => g.length >= 2560, 200);
    assert.deepEqual(got, Buffer.concat(sent.map((f) => Buffer.from(f))), 'every byte arrives, in order');
  });
});

test('NodeSerialTransport: what a full port refuses waits in order and follows when the reader drains; a port nobody reads keeps at most 64 KB', async () => {
  await withTransport(async (pair, tr) => {
    // nobody reads the other end: 200 KB are offered, the PTY fills, the transport keeps the newest 64 KB
    const sent = [];
    for (let i = 0; i < 200; i++) {
      const f = frame(i, 1000);
      sent.push(Buffer.from(f));
      tr.write(f);
    }
    assert.ok(tr.pending() > 0, 'the PTY filled: bytes wait in the transport');
    assert.ok(tr.pending() <= 65536, `at most 64 KB wait (${tr.pending()})`);
    const all = Buffer.concat(sent);
    const got = await readUntil(pair, (g) => tr.pending() === 0 && g.length + tr.droppedBytes >= all.length, 400);
    assert.equal(tr.pending(), 0, 'everything kept was written once the reader drained');
    assert.equal(got.length + tr.droppedBytes, all.length, `received ${got.length} + dropped ${tr.droppedBytes} = offered`);
    assert.ok(tr.droppedBytes > 0, 'the excess was dropped, oldest first');
    // what arrived is what the PTY took at once, then the newest bytes kept: the offered stream with one span cut out
    let x = 0;
    while (x < got.length && got[x] === all[x]) x++;
    assert.ok(x > 0, 'the first bytes went straight to the port');
    assert.deepEqual(got.subarray(x), all.subarray(x + tr.droppedBytes), 'after the cut, the newest bytes in order');
  });
});

test('NodeSerialTransport: a write after close is dropped, not thrown, and closing twice is harmless', async () => {
  const pair = await ptyPair();
  const tr = await NodeSerialTransport.open(pair.a, 115200);
  await tr.close();
  tr.write(frame(1));
  assert.equal(tr.pending(), 0);
  await tr.close();
  await pair.close();
});
