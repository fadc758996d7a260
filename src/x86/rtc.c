// SPDX-License-Identifier: GPL-2.0-or-later
// The CMOS clock: registers 0 (seconds), 2 (minutes), 4 (hours), 7 (day),
// 8 (month), 9 (year in the century), status A (bit 7: an update is under
// way) and B (bit 2: binary, not BCD; bit 1: 24-hour). The year is taken
// as 20xx: the century register has no fixed place (the FADT names it).
#include "io.h"
#include "rtc.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define STATUS_A_UIP	0x80
#define STATUS_B_BINARY	0x04
#define STATUS_B_24H	0x02
#define HOUR_PM		0x80
#define TRIES		100000

static uint8_t cmos(uint8_t reg)
{
	outb(CMOS_INDEX, reg);	// bit 7 clear: NMIs stay unmasked
	return inb(CMOS_DATA);
}

static bool updating(void)
{
	return cmos(0x0a) & STATUS_A_UIP;
}

static void read_raw(uint8_t r[6])
{
	static const uint8_t reg[6] = { 0, 2, 4, 7, 8, 9 };

	for (int i = 0; i < 6; i++)
		r[i] = cmos(reg[i]);
}

static uint8_t from_bcd(uint8_t v, bool binary)
{
	return binary ? v : (uint8_t)((v >> 4) * 10 + (v & 15));
}

// Two equal reads outside an update: no field was read mid-update.
static bool read_stable(uint8_t r[6])
{
	uint8_t again[6];

	for (int tries = 0; tries < TRIES; tries++) {
		if (updating())
			continue;
		read_raw(r);
		if (updating())
			continue;
		read_raw(again);
		bool same = true;
		for (int i = 0; i < 6; i++)
			same = same && r[i] == again[i];
		if (same)
			return true;
	}
	return false;
}

bool rtc_read(struct rtc_time *t)
{
	uint8_t r[6];

	if (!read_stable(r))
		return false;
	uint8_t b = cmos(0x0b);
	bool binary = b & STATUS_B_BINARY, pm = !(b & STATUS_B_24H) && (r[2] & HOUR_PM);
	uint8_t hour = from_bcd(r[2] & (uint8_t)~HOUR_PM, binary);
	if (!(b & STATUS_B_24H))
		hour = (uint8_t)(hour % 12 + (pm ? 12 : 0));
	*t = (struct rtc_time){
		.year = (uint16_t)(2000 + from_bcd(r[5], binary)),
		.month = from_bcd(r[4], binary),
		.day = from_bcd(r[3], binary),
		.hour = hour,
		.minute = from_bcd(r[1], binary),
		.second = from_bcd(r[0], binary),
	};
	return t->year < 2100 && t->month >= 1 && t->month <= 12 && t->day >= 1 && t->day <= 31 &&
	       t->hour < 24 && t->minute < 60 && t->second < 60;
}
