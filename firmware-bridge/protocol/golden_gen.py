#!/usr/bin/env python3
"""Independent (Python) implementation of the bridge wire format, used only to produce the golden
vectors in tests/firmware-bridge/golden.json that pin the C++ codec (Catch2) and the wasm/JS side
(node --test) to the same bytes. Run: python3 firmware-bridge/protocol/golden_gen.py > tests/firmware-bridge/golden.json"""
import json, struct

def crc16(data, crc=0xFFFF):
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc

def cobs(data):
    out, block, full = bytearray(), bytearray(), False
    for b in data:
        if b == 0:
            out += bytes([len(block) + 1]) + block; block = bytearray(); full = False
        else:
            block.append(b)
            if len(block) == 254:
                out += bytes([255]) + block; block = bytearray(); full = True
                continue
            full = False
    if not (full and not block):  # canonical: no empty block after a full one at the end
        out += bytes([len(block) + 1]) + block
    return bytes(out)

def frame(t, seq, body):
    raw = bytes([t, seq]) + body
    return cobs(raw + struct.pack('<H', crc16(raw))) + b'\x00'

f32 = lambda x: struct.pack('<f', x)
msgs = []
def add(name, t, seq, body, fields):
    msgs.append({"name": name, "type": t, "seq": seq, "fields": fields, "body": body.hex(), "frame": frame(t, seq, body).hex()})

add("hello", 0x01, 0, struct.pack('<HI', 1, 0x0AC4A1), {"version": 1, "nonce": 0x0AC4A1})
name = b'achain-sim'.ljust(12, b'\x00')
add("caps", 0x81, 0, struct.pack('<HHBHHHHI', 1, 0x1234, 4, 1000, 64, 112, 50, 7) + name,
    {"version": 1, "schema": 0x1234, "joints": 4, "servo_hz": 1000, "queue_capacity": 64, "max_body": 112, "status_hz": 50, "nonce": 7, "name": "achain-sim"})
jc = [1.0471975511965976, 5.235987755982989, 3.141592653589793, 12.566370614359172, 39.5, 1000.0, 5000.0, 20.0, 0.5, 0.25]
add("config_joint", 0x02, 3, struct.pack('<BfIi', 2, -50.0, 4096, -12345) + b''.join(f32(x) for x in jc),
    {"joint": 2, "gear_ratio": -50.0, "counts_per_rev": 4096, "zero_offset": -12345, "q_min": jc[0], "q_max": jc[1], "v_max": jc[2],
     "a_max": jc[3], "torque_max": jc[4], "kp": jc[5], "ki": jc[6], "kd": jc[7], "inertia_ff": jc[8], "viscous_ff": jc[9]})
add("config_global", 0x03, 4, struct.pack('<HH', 200, 20) + f32(1.5) + f32(0.1) + f32(0.01),
    {"watchdog_ms": 200, "status_period_ms": 20, "accel_margin": 1.5, "following_error_max": 0.1, "start_tolerance": 0.01})
knots = [(1047198, 0, 1047234, 7175), (1047198, -1, 1047234, 7175), (0, 0, 0, 0), (-2000000, 3141593, -1990000, 3141593)]
body = struct.pack('<IIIB', 42, 250000, 10000, 2) + b''.join(struct.pack('<iiii', *k) for k in knots)
add("segment", 0x04, 255, body, {"id": 42, "t_start_us": 250000, "duration_us": 10000, "flags": 2,
    "a": [[k[0], k[1]] for k in knots], "b": [[k[2], k[3]] for k in knots]})
add("start", 0x05, 9, b'', {})
add("home", 0x0A, 10, struct.pack('<Bi', 1, 1047198), {"joint": 1, "q": 1047198})
add("estop", 0x11, 0, b'', {})
add("stop", 0x10, 0, b'', {})
add("ack", 0x80, 0, struct.pack('<BH', 17, 60), {"next_seq": 17, "credits": 60})
add("nak", 0x82, 0, struct.pack('<BB', 16, 1), {"expected_seq": 16, "reason": 1})
q = [1047198, 2000000, -3, 5235988]; v = [0, 100, -100, 2984513]; qc = [1047198, 2000001, 0, 5235988]
add("status", 0x83, 0, struct.pack('<IBBHBHHIII', 123456789, 2, 0, 0x0003, 0xFF, 12, 52, 41, 40, 400000) +
    b''.join(struct.pack('<iii', q[j], v[j], qc[j]) for j in range(4)),
    {"time_us": 123456789, "state": 2, "estop": 0, "faults": 3, "fault_joint": 255, "queue_fill": 12, "credits": 52,
     "segment_id": 41, "segments_done": 40, "traj_time_us": 400000, "q": q, "v": v, "q_cmd": qc})
add("event", 0x84, 0, struct.pack('<HBIi', 1, 3, 77, -5), {"fault": 1, "joint": 3, "segment_id": 77, "value": -5})

cobs_vectors = [
    ("00", "0101"), ("0000", "010101"), ("112200 33".replace(' ', ''), "0311220233"), ("11223344", "0511223344"),
    ("11000000", "0211010101"), (bytes(range(1, 255)).hex(), "ff" + bytes(range(1, 255)).hex()),
    (bytes(range(0, 255)).hex(), "01ff" + bytes(range(1, 255)).hex()),
    (bytes(range(1, 256)).hex(), "ff" + bytes(range(1, 255)).hex() + "02ff")]
for raw, enc in cobs_vectors:
    assert cobs(bytes.fromhex(raw)).hex() == enc, raw
print(json.dumps({
    "description": "Golden vectors of the achain bridge protocol v1, produced by an independent Python implementation (firmware-bridge/protocol/golden_gen.py). Frames are COBS(type seq body crc16le) 00.",
    "crc16": [{"data": b"123456789".hex(), "crc": 0x29B1}, {"data": "", "crc": 0xFFFF}, {"data": "00", "crc": crc16(b"\x00")}],
    "cobs": [{"raw": r, "encoded": e} for r, e in cobs_vectors],
    "messages": msgs}, indent=1))
