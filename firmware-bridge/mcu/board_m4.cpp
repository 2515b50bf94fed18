// Minimal Cortex-M4 board for the reference firmware: a stubbed HAL on memory-mapped "registers",
// SysTick at the servo rate calling tick(), the UART RX interrupt feeding onRxByte(), the main loop
// calling poll(). It proves the firmware builds for an MCU (no heap, no exceptions, no RTTI, no
// libc beyond memcpy/memset and four math functions) and gives its flash/RAM size.
//
// Build (as firmware-bridge/CMakeLists.txt does when the tools exist):
//   arm-none-eabi-g++ … board_m4.cpp protocol.cpp controller.cpp        (Debian gcc-arm-none-eabi), or
//   clang++ --target=thumbv7em-none-eabihf -ffreestanding -Ifirmware-bridge/mcu/board_m4/include … + ld.lld
#include <stdint.h>

#include "../protocol/protocol.hpp"
#include "controller.hpp"

using namespace achain::bridge;

namespace {
// Stand-ins for peripheral registers (a real port maps these to TIMx/PWM, quadrature timers, USART).
volatile float g_pwm[kMaxJoints];
volatile int32_t g_qei[kMaxJoints];
volatile uint32_t g_us;
volatile uint8_t g_uart_tx;
volatile uint8_t g_enable;

class BoardHal final : public Hal {
 public:
  void setMotorTorque(int joint, float t) override { g_pwm[joint] = t; }
  void setDriveEnabled(bool e) override { g_enable = e ? 1 : 0; }
  int32_t readEncoder(int joint) override { return g_qei[joint]; }
  uint32_t micros() override { return g_us; }
  size_t serialWrite(const uint8_t* d, size_t n) override {
    for (size_t i = 0; i < n; ++i) g_uart_tx = d[i];
    return n;
  }
};

BoardHal g_hal;
Controller* g_ctrl = nullptr;
alignas(Controller) uint8_t g_ctrl_storage[sizeof(Controller)];  // static storage, no heap
}  // namespace

extern "C" void SysTick_Handler() {
  g_us += 1000;
  g_ctrl->tick();
}
extern "C" void USART1_IRQHandler() {
  const uint8_t b = static_cast<uint8_t>(g_uart_tx);  // a real port reads the data register
  g_ctrl->onRxByte(b);
}

void* operator new(size_t, void* p) noexcept { return p; }

int main() {
  g_ctrl = new (g_ctrl_storage) Controller(g_hal, 4, 1000, "achain-m4");
  for (;;) g_ctrl->poll();
}

// ---- freestanding runtime pieces (newlib would provide these) ----
extern "C" {
void* memcpy(void* dst, const void* src, size_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  while (n--) *d++ = *s++;
  return dst;
}
void* memset(void* dst, int c, size_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  while (n--) *d++ = static_cast<uint8_t>(c);
  return dst;
}
void __aeabi_memcpy(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void* d, const void* s, size_t n) { memcpy(d, s, n); }
double fabs(double x) { return x < 0 ? -x : x; }
double sqrt(double x) {
  if (!(x > 0)) return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 30; ++i) r = 0.5 * (r + x / r);
  return r;
}
double exp(double x) {  // range reduction by halving + Taylor: ample for the filter constant
  int k = 0;
  while (x > 0.5 || x < -0.5) { x *= 0.5; ++k; }
  double s = 1, t = 1;
  for (int i = 1; i < 12; ++i) { t *= x / i; s += t; }
  while (k--) s *= s;
  return s;
}
long lround(double x) { return static_cast<long>(x >= 0 ? x + 0.5 : x - 0.5); }
void __cxa_pure_virtual() { for (;;) {} }
// vector table (minimal)
extern uint32_t _estack;
void Reset_Handler() { main(); }
__attribute__((section(".isr_vector"), used)) void (*const g_vectors[])() = {
    reinterpret_cast<void (*)()>(&_estack), Reset_Handler, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, SysTick_Handler};
}
