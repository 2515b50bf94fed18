// libFuzzer target: the servo-bus codecs (servo/dynamixel.hpp, servo/feetech.hpp) on arbitrary bytes.
//  1. both status decoders swallow the bytes (one at a time, draining next(), then a read timeout); every packet
//     they accept re-encodes with the status builders to exactly the bytes received (decode → encode = identity);
//  2. Dynamixel stuffing on exact-size heap copies: unstuff(stuff(x)) = x, and whatever unstuff accepts
//     restuffs to its input;
//  3. the multi-servo builders with IDs, addresses and data taken from the input, into an exact-size heap
//     buffer and into one byte less (which must fail with BufferTooSmall, never write past it).
// Built with clang -fsanitize=fuzzer,address,undefined; ctest runs it for a bounded time (bridge_fuzz_servo).
#include <stdlib.h>
#include <string.h>

#include "servo/dynamixel.hpp"
#include "servo/feetech.hpp"

using namespace achain::bridge::servo;

namespace {
uint8_t* heapCopy(const uint8_t* p, size_t n) {
  uint8_t* c = static_cast<uint8_t*>(malloc(n ? n : 1));
  if (n) memcpy(c, p, n);
  return c;
}

/// Re-encodes the decoder's packet with `build` into an exact-size heap buffer: must equal the received bytes.
template <class Decoder, class Build>
void reencode(const Decoder& d, Build build) {
  const int n = d.rawLength();
  const int k = d.paramCount();
  if (n <= 0 || k < 0 || k > n) __builtin_trap();
  uint8_t* params = heapCopy(d.params(), static_cast<size_t>(k));
  uint8_t* raw = heapCopy(d.rawPacket(), static_cast<size_t>(n));
  uint8_t* out = static_cast<uint8_t*>(malloc(static_cast<size_t>(n)));
  Error e = Error::None;
  const size_t m = build(d.id(), d.errorByte(), params, static_cast<size_t>(k), out, static_cast<size_t>(n), &e);
  if (m != static_cast<size_t>(n) || memcmp(out, raw, m) != 0) __builtin_trap();
  free(out);
  free(raw);
  free(params);
}

template <class Decoder, class Build>
void decodeStream(const uint8_t* data, size_t size, Build build) {
  Decoder* d = new Decoder;
  auto handle = [&](Event e) {
    while (e != Event::None) {
      if (e == Event::Packet) reencode(*d, build);
      else if (d->error() == Error::None || text(d->error())[0] == 0) __builtin_trap();
      e = d->next();
    }
  };
  for (size_t i = 0; i < size; ++i) handle(d->feed(data[i]));
  // the line goes quiet: each timeout drops at least one byte, so this ends with nothing half-read
  for (size_t guard = 0; d->midPacket(); ++guard) {
    if (guard > size) __builtin_trap();
    handle(d->timeout());
  }
  delete d;
}

void stuffing(const uint8_t* data, size_t size) {
  uint8_t* in = heapCopy(data, size);
  const size_t cap = size + size / 3 + 1;  // at most one stuffing byte per three input bytes
  uint8_t* s = static_cast<uint8_t*>(malloc(cap));
  const size_t k = dxl::stuff(in, size, s, cap);
  if (size > 0 && k == 0) __builtin_trap();
  uint8_t* back = static_cast<uint8_t*>(malloc(size ? size : 1));
  if (dxl::unstuff(s, k, back, size) != static_cast<int>(size) || memcmp(back, in, size) != 0) __builtin_trap();
  // arbitrary input through unstuff; if accepted, stuffing it again gives the input back
  const int m = dxl::unstuff(in, size, back, size);
  if (m >= 0) {
    uint8_t* again = static_cast<uint8_t*>(malloc(size ? size : 1));
    if (dxl::stuff(back, static_cast<size_t>(m), again, size) != size || memcmp(again, in, size) != 0) __builtin_trap();
    free(again);
  }
  free(back);
  free(s);
  free(in);
}

/// Builds into a roomy buffer to learn the size, then into exact-size and one-byte-short heap buffers.
template <class Build>
void exactBuffers(Build build) {
  static uint8_t big[70000];
  Error e = Error::None;
  const size_t n = build(big, sizeof big, &e);
  if ((n == 0) != (e != Error::None)) __builtin_trap();
  if (n == 0) return;
  uint8_t* exact = static_cast<uint8_t*>(malloc(n));
  if (build(exact, n, &e) != n || memcmp(exact, big, n) != 0) __builtin_trap();
  if (build(exact, n - 1, &e) != 0 || e != Error::BufferTooSmall) __builtin_trap();
  free(exact);
}

void builders(const uint8_t* data, size_t size) {
  if (size < 4) return;
  const size_t count = data[0] % 8 + (data[0] & 0x80 ? 0 : 1);  // sometimes zero servos
  const uint8_t length = data[1] % 9;                            // sometimes zero bytes each
  const uint16_t address = static_cast<uint16_t>(data[2] | (data[3] << 8));
  const uint8_t* rest = data + 4;
  const size_t left = size - 4;
  if (left < count * (1 + 4 + length)) return;
  uint8_t* ids = heapCopy(rest, count);
  uint8_t* values = heapCopy(rest + count, count * length);
  uint16_t* addrs = static_cast<uint16_t*>(malloc(sizeof(uint16_t) * (count ? count : 1)));
  uint16_t* lens = static_cast<uint16_t*>(malloc(sizeof(uint16_t) * (count ? count : 1)));
  size_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    addrs[i] = static_cast<uint16_t>(rest[count + count * length + 2 * i] | (address & 0xFF00));
    lens[i] = static_cast<uint16_t>(rest[count + count * length + 2 * i + 1] % 5);
    total += lens[i];
  }
  uint8_t* bulk = static_cast<uint8_t*>(malloc(total ? total : 1));
  for (size_t i = 0; i < total; ++i) bulk[i] = static_cast<uint8_t>(0xFD + (i & 3));  // FD FE FF 00: stuffing
  exactBuffers([&](uint8_t* o, size_t c, Error* e) { return dxl::syncWrite(address, length, ids, values, count, o, c, e); });
  exactBuffers([&](uint8_t* o, size_t c, Error* e) { return dxl::syncRead(address, length, ids, count, o, c, e); });
  exactBuffers([&](uint8_t* o, size_t c, Error* e) { return dxl::bulkRead(ids, addrs, lens, count, o, c, e); });
  exactBuffers([&](uint8_t* o, size_t c, Error* e) { return dxl::bulkWrite(ids, addrs, lens, bulk, count, o, c, e); });
  exactBuffers([&](uint8_t* o, size_t c, Error* e) { return dxl::write(count ? ids[0] : 1, address, values, count * length, o, c, e); });
  exactBuffers([&](uint8_t* o, size_t c, Error* e) {
    return feetech::syncWrite(static_cast<uint8_t>(address), length, ids, values, count, o, c, e);
  });
  exactBuffers([&](uint8_t* o, size_t c, Error* e) { return feetech::syncRead(static_cast<uint8_t>(address), length, ids, count, o, c, e); });
  free(bulk);
  free(lens);
  free(addrs);
  free(values);
  free(ids);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t* copy = heapCopy(data, size);  // exact size: ASan sees any read past the input
  decodeStream<dxl::StatusDecoder>(copy, size, dxl::status);
  decodeStream<feetech::StatusDecoder>(copy, size, feetech::status);
  stuffing(copy, size);
  builders(copy, size);
  free(copy);
  return 0;
}
