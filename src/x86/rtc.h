// SPDX-License-Identifier: GPL-2.0-or-later
// The PC's real-time clock (the MC146818 registers behind CMOS ports 0x70
// and 0x71): the date and time it keeps, as it keeps them (UTC under
// Linux, local time under Windows; it cannot say which).
#ifndef RAMSIFT_SRC_X86_RTC_H
#define RAMSIFT_SRC_X86_RTC_H

#include <stdbool.h>
#include <stdint.h>

struct rtc_time {
	uint16_t year;
	uint8_t month, day, hour, minute, second;
};

// Read the clock into *t. False when it does not answer sensibly (an
// update that never ends, a field out of range): no clock.
bool rtc_read(struct rtc_time *t);

#endif
