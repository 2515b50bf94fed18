// The servo-bus codecs (firmware-bridge/servo/) through wasm, as the JS hosts use them (bridge.servo): the
// same vendor packets as the Catch2 tests (test_bridge_servo_dynamixel.cpp, test_bridge_servo_feetech.cpp),
// byte for byte, so the native and the wasm builds of one C++ codec are held to one set of printed packets.
//   Dynamixel: ROBOTIS e-Manual, Protocol 2.0, https://emanual.robotis.com/docs/en/dxl/protocol2/
//   Feetech:   Feetech's SCS protocol manual as republished by Juxi Tech,
//              https://wiki.juxitech.com/en/tutorials/accessories/feetech/Feetech-SCS_Communication_Protocol.html
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadBridge } from '../../firmware-bridge/js/bridge.mjs';

const { servo } = await loadBridge();
const hex = (u8) => Array.from(u8, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const bytes = (s) => Uint8Array.from(s.split(' ').map((b) => parseInt(b, 16)));
/** Runs fn with a fresh decoder and frees it. */
function withDecoder(Decoder, fn) {
  const d = new Decoder();
  try {
    return fn(d);
  } finally {
    d.delete();
  }
}

test('Dynamixel instruction packets match the e-Manual byte for byte', () => {
  const cases = [
    ['Ping, Example 1', servo.dynamixelPing(1), 'FF FF FD 00 01 03 00 01 19 4E'],
    ['Ping, Example 2 (broadcast)', servo.dynamixelPing(254), 'FF FF FD 00 FE 03 00 01 31 42'],
    ['Read, Example', servo.dynamixelRead(1, 132, 4), 'FF FF FD 00 01 07 00 02 84 00 04 00 1D 15'],
    ['Write, Example', servo.dynamixelWrite(1, 116, [0x00, 0x02, 0x00, 0x00]), 'FF FF FD 00 01 09 00 03 74 00 00 02 00 00 CA 89'],
    ['Reg Write, Example', servo.dynamixelRegWrite(1, 104, new Uint8Array([0xc8, 0, 0, 0])), 'FF FF FD 00 01 09 00 04 68 00 C8 00 00 00 AE 8E'],
    ['Action, Example', servo.dynamixelAction(1), 'FF FF FD 00 01 03 00 05 02 CE'],
    ['Reboot, Example', servo.dynamixelReboot(1), 'FF FF FD 00 01 03 00 08 2F 4E'],
    ['Sync Read, Example', servo.dynamixelSyncRead(132, 4, [1, 2]), 'FF FF FD 00 FE 09 00 82 84 00 04 00 01 02 CE FA'],
    ['Sync Write, Example', servo.dynamixelSyncWrite(116, 4, [1, 2], [0x96, 0, 0, 0, 0xaa, 0, 0, 0]),
      'FF FF FD 00 FE 11 00 83 74 00 04 00 01 96 00 00 00 02 AA 00 00 00 82 87'],
    ['Bulk Read, Example', servo.dynamixelBulkRead([1, 2], [144, 146], [2, 1]), 'FF FF FD 00 FE 0D 00 92 01 90 00 02 00 02 92 00 01 00 1A 05'],
    ['Bulk Write, Example', servo.dynamixelBulkWrite([1, 2], [32, 31], [2, 1], [0xa0, 0x00, 0x50]),
      'FF FF FD 00 FE 10 00 93 01 20 00 02 00 A0 00 02 1F 00 01 00 50 B7 68'],
  ];
  for (const [section, got, want] of cases) assert.equal(hex(got), want, section);
  assert.equal(servo.dynamixelCrc16(new TextEncoder().encode('123456789')), 0xfee8);  // CRC-16/UMTS check value
});

test('Dynamixel status packets from the e-Manual decode and re-encode', () => {
  const cases = [
    ['Ping, ID 1', 'FF FF FD 00 01 07 00 55 00 06 04 26 65 5D', 1, '06 04 26'],
    ['Ping, ID 2', 'FF FF FD 00 02 07 00 55 00 06 04 26 6F 6D', 2, '06 04 26'],
    ['Read / Sync Read, ID 1', 'FF FF FD 00 01 08 00 55 00 A6 00 00 00 8C C0', 1, 'A6 00 00 00'],
    ['Sync Read, ID 2', 'FF FF FD 00 02 08 00 55 00 1F 08 00 00 BA BE', 2, '1F 08 00 00'],
    ['Write', 'FF FF FD 00 01 04 00 55 00 A1 0C', 1, ''],
    ['Bulk Read, ID 1', 'FF FF FD 00 01 06 00 55 00 77 00 C3 69', 1, '77 00'],
    ['Bulk Read, ID 2', 'FF FF FD 00 02 05 00 55 00 24 8B A9', 2, '24'],
  ];
  withDecoder(servo.DynamixelStatusDecoder, (d) => {
    // all of them in one stream, as a sync read's replies arrive
    const out = d.feed(Uint8Array.from(cases.flatMap(([, p]) => Array.from(bytes(p)))));
    assert.equal(out.length, cases.length);
    out.forEach((p, i) => {
      const [section, packet, id, params] = cases[i];
      assert.deepEqual([p.kind, p.id, p.error, p.alert, p.errorNumber, hex(p.params)], ['packet', id, 0, false, 0, params], section);
      assert.equal(hex(servo.dynamixelStatus(id, 0, p.params)), packet, section);
    });
    assert.equal(d.midPacket, false);
  });
});

test('Dynamixel decoder: garbage, a CRC error, a truncated packet, an echo; error texts', () => {
  const write = 'FF FF FD 00 01 04 00 55 00 A1 0C';
  withDecoder(servo.DynamixelStatusDecoder, (d) => {
    let out = d.feed(bytes(`00 FF FF FF FD 01 FF FF FD 00 FD ${write}`));
    assert.deepEqual(out.map((e) => e.kind), ['packet']);
    const bad = bytes('FF FF FD 00 01 08 00 55 00 A6 00 00 00 8C C0');
    bad[9] ^= 1;
    out = d.feed(bad);
    assert.deepEqual(out.map((e) => [e.kind, e.code]), [['error', 'checksum']]);
    assert.match(out[0].message, /CRC/);
    out = d.feed(bytes('FF FF FD 00 01 08 00 55 00 A6'));
    assert.deepEqual(out, []);
    assert.equal(d.midPacket, true);
    out = d.timeout();
    assert.deepEqual(out.map((e) => e.code), ['truncated']);
    assert.match(out[0].message, /cut short/);
    out = d.feed(bytes(`FF FF FD 00 01 03 00 01 19 4E ${write}`));  // our own ping echoed, then the reply
    assert.deepEqual(out.map((e) => e.code ?? e.kind), ['notStatus', 'packet']);
  });
  // alert + data limit error
  withDecoder(servo.DynamixelStatusDecoder, (d) => {
    const [p] = d.feed(servo.dynamixelStatus(3, 0x86, []));
    assert.deepEqual([p.alert, p.errorNumber], [true, 6]);
    assert.equal(p.errorTexts.length, 2);
    assert.match(p.errorTexts[0], /^data limit error/);
    assert.equal(p.errorTexts[1], servo.dynamixelAlertText);
  });
  assert.deepEqual(servo.dynamixelErrors.map((e) => e.name), ['result fail', 'instruction error', 'CRC error', 'data range error',
    'data length error', 'data limit error', 'access error']);
});

test('Feetech instruction packets match the manual byte for byte', () => {
  const goal = [0x00, 0x08, 0x00, 0x00, 0xe8, 0x03];  // position 2048, time 0, speed 1000 (STS little-endian)
  const cases = [
    ['4.1 PING, Example 1', servo.feetechPing(1), 'FF FF 01 02 01 FB'],
    ['4.2 READ DATA, Example 2', servo.feetechRead(1, 0x38, 2), 'FF FF 01 04 02 38 02 BE'],
    ['4.3 WRITE DATA, Example 3', servo.feetechWrite(254, 0x05, [0x01]), 'FF FF FE 04 03 05 01 F4'],
    ['4.3 WRITE DATA, Example 4', servo.feetechWrite(1, 0x2a, goal), 'FF FF 01 09 03 2A 00 08 00 00 E8 03 D5'],
    ['4.4 REG WRITE, Example 5, ID 1', servo.feetechRegWrite(1, 0x2a, goal), 'FF FF 01 09 04 2A 00 08 00 00 E8 03 D4'],
    ['4.4 REG WRITE, Example 5, ID 10', servo.feetechRegWrite(10, 0x2a, goal), 'FF FF 0A 09 04 2A 00 08 00 00 E8 03 CB'],
    ['4.5 ACTION, Example 6', servo.feetechAction(254), 'FF FF FE 02 05 FA'],
    ['4.6 SYNC WRITE, Example 7', servo.feetechSyncWrite(0x2a, 6, [1, 2, 3, 4], [...goal, ...goal, ...goal, ...goal]),
      'FF FF FE 20 83 2A 06 01 00 08 00 00 E8 03 02 00 08 00 00 E8 03 03 00 08 00 00 E8 03 04 00 08 00 00 E8 03 58'],
    ['4.7 SYNC READ, Example 8', servo.feetechSyncRead(0x38, 8, [1, 2]), 'FF FF FE 06 82 38 08 01 02 36'],
  ];
  for (const [example, got, want] of cases) assert.equal(hex(got), want, example);
  assert.equal(servo.feetechChecksum([0x01, 0x02, 0x01]), 0xfb);
});

test('Feetech replies from the manual decode and re-encode; status bits and their texts', () => {
  const cases = [
    ['4.1 PING, Example 1', 'FF FF 01 02 00 FC', 1, ''],
    ['4.2 READ DATA, Example 2', 'FF FF 01 04 00 18 05 DD', 1, '18 05'],
    ['4.4 REG WRITE, Example 5, ID 10', 'FF FF 0A 02 00 F3', 10, ''],
    ['4.7 SYNC READ, Example 8, ID 1', 'FF FF 01 0A 00 00 08 00 00 00 00 79 1E 55', 1, '00 08 00 00 00 00 79 1E'],
    ['4.7 SYNC READ, Example 8, ID 2', 'FF FF 02 0A 00 FF 07 00 00 00 00 77 23 53', 2, 'FF 07 00 00 00 00 77 23'],
  ];
  withDecoder(servo.FeetechStatusDecoder, (d) => {
    for (const [example, packet, id, params] of cases) {
      const out = d.feed(bytes(`FF 00 ${packet}`));  // a stray byte before each reply
      assert.equal(out.length, 1, example);
      assert.deepEqual([out[0].kind, out[0].id, out[0].error, hex(out[0].params)], ['packet', id, 0, params], example);
      assert.equal(hex(servo.feetechStatus(id, 0, out[0].params)), packet, example);
    }
    // Example 2's position: 0x0518 = 1304, little-endian on STS
    const [p] = d.feed(bytes('FF FF 01 04 00 18 05 DD'));
    assert.equal(new DataView(p.params.buffer, p.params.byteOffset).getUint16(0, true), 1304);
    const bad = bytes('FF FF 01 04 00 18 05 DD');
    bad[5] = 0x19;
    assert.deepEqual(d.feed(bad).map((e) => e.code), ['checksum']);
    assert.deepEqual(d.feed(bytes('FF FF 02 0A 00 FF')), []);
    assert.deepEqual(d.timeout().map((e) => e.code), ['truncated']);
  });
  assert.deepEqual(servo.feetechStatusBits.map((b) => [b.bit, b.name]),
    [[1, 'voltage'], [2, 'angle sensor'], [4, 'overheat'], [8, 'overcurrent'], [32, 'overload']]);
  withDecoder(servo.FeetechStatusDecoder, (d) => {
    const [p] = d.feed(servo.feetechStatus(1, 0x24, []));
    assert.deepEqual(p.errorNames, ['overheat', 'overload']);
    assert.equal(p.errorTexts.length, 2);
    assert.match(p.errorTexts[1], /^overload/);
  });
});

test('servo builders refuse bad arguments by name instead of wrapping them', () => {
  assert.throws(() => servo.dynamixelPing(300), /id: must be a whole number from 0 to 255/);
  assert.throws(() => servo.dynamixelPing(253), /dynamixelPing: servo ID out of range/);
  assert.throws(() => servo.feetechWrite(1, 0x2a, [0, 256]), /data\[1\]: must be a whole number from 0 to 255/);
  assert.throws(() => servo.dynamixelSyncWrite(116, 4, [1, 2], [1, 2, 3]), /ids.length × length = 8 bytes, got 3/);
  assert.throws(() => servo.dynamixelBulkRead([1, 2], [144], [2, 1]), /one entry per servo/);
  assert.throws(() => servo.feetechSyncRead(0x38, 8, []), /no servos/);
  assert.throws(() => servo.dynamixelRead(1, 1.5, 4), /address: must be a whole number/);
});
