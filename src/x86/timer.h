// SPDX-License-Identifier: GPL-2.0-or-later
// Time since boot from the TSC, calibrated against the PIT.
#ifndef RAMSIFT_SRC_X86_TIMER_H
#define RAMSIFT_SRC_X86_TIMER_H

#include <stdbool.h>
#include <stdint.h>

// Measure the TSC frequency with PIT channel 2 and start the clock. Returns
// false (and assumes 1 GHz) when the PIT never answers.
bool timer_init(void);

// TSC ticks per second as calibrated.
uint64_t timer_tsc_hz(void);

// Milliseconds since timer_init().
uint64_t timer_ms(void);

// Microseconds since timer_init().
uint64_t timer_us(void);

// Busy-wait at least us microseconds (us < 2^32).
void timer_delay_us(uint64_t us);

// Busy-wait at least ms milliseconds.
void timer_delay_ms(uint64_t ms);

#endif
