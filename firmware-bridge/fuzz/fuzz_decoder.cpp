// libFuzzer target: the firmware's receive path on arbitrary bytes.
//  1. FrameDecoder, COBS and every message decoder on exact-size heap copies (ASan sees any overrun);
//  2. decode → encode must reproduce the body byte for byte (encode∘decode = identity);
//  3. the whole controller (simulated board) swallowing the bytes with servo ticks in between.
// Built with clang -fsanitize=fuzzer,address,undefined; ctest runs it for a bounded time.
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.hpp"
#include "sim/virtual_controller.hpp"

using namespace achain::bridge;

namespace {
template <class M>
void roundTrip(const uint8_t* body, size_t n) {
  uint8_t* copy = static_cast<uint8_t*>(malloc(n ? n : 1));
  if (n) memcpy(copy, body, n);
  M m;
  if (decode(copy, n, m)) {
    uint8_t out[kMaxBody + 16];
    const size_t k = encode(m, out, sizeof out);
    if (k != n || memcmp(out, copy, n) != 0) __builtin_trap();
  }
  free(copy);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FrameDecoder* dec = new FrameDecoder;
  for (size_t i = 0; i < size; ++i) {
    if (dec->feed(data[i]) == FrameDecoder::kFrame) {
      const int n = dec->bodyLength();
      if (n < 0 || n > kMaxBody) __builtin_trap();
      const uint8_t* b = dec->body();
      roundTrip<Hello>(b, n);
      roundTrip<JointConfig>(b, n);
      roundTrip<GlobalConfig>(b, n);
      roundTrip<Segment>(b, n);
      roundTrip<Home>(b, n);
      roundTrip<Ack>(b, n);
      roundTrip<Nak>(b, n);
      roundTrip<Status>(b, n);
      roundTrip<Event>(b, n);
    }
  }
  delete dec;

  // raw COBS decode into an exact-size heap buffer
  if (size > 0) {
    uint8_t* in = static_cast<uint8_t*>(malloc(size));
    memcpy(in, data, size);
    const size_t cap = size;
    uint8_t* out = static_cast<uint8_t*>(malloc(cap));
    cobsDecode(in, size, out, cap);
    free(out);
    free(in);
  }

  // the firmware itself
  static SimProfile profile = prototypeProfile();
  VirtualController* vc = new VirtualController(profile);
  uint8_t sink[512];
  for (size_t i = 0; i < size; ++i) {
    vc->write(data + i, 1);
    if ((i & 31) == 31) vc->step(1);
    while (vc->read(sink, sizeof sink) > 0) {
    }
  }
  vc->step(3);
  delete vc;
  return 0;
}
