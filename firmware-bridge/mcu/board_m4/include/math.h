/* Freestanding shim for the Cortex-M4 size build; board_m4.cpp implements what the firmware uses. */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
double fabs(double x);
double sqrt(double x);
double exp(double x);
long lround(double x);
#ifdef __cplusplus
}
#endif
