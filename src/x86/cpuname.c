// SPDX-License-Identifier: GPL-2.0-or-later
// The CPUID brand string (see cpuname.h).
#include <stdint.h>

#include "cpuname.h"
#include "io.h"

#define CPUID_EXT_MAX	0x80000000u
#define CPUID_BRAND	0x80000002u	// to 0x80000004: 16 bytes each

bool cpu_name(char buf[CPU_NAME_LEN])
{
	uint32_t r[4];
	char raw[CPU_NAME_LEN];
	unsigned n = 0;

	buf[0] = '\0';
	cpuid(CPUID_EXT_MAX, 0, r);
	if (r[0] < CPUID_BRAND + 2)
		return false;
	for (unsigned leaf = 0; leaf < 3; leaf++) {
		cpuid(CPUID_BRAND + leaf, 0, r);
		for (unsigned i = 0; i < 16; i++)
			raw[leaf * 16 + i] = (char)(r[i / 4] >> (8 * (i % 4)));
	}
	raw[48] = '\0';
	// Intel pads it with leading spaces; some makers repeat them inside.
	for (unsigned i = 0; raw[i]; i++)
		if (raw[i] != ' ' || (n && buf[n - 1] != ' '))
			buf[n++] = raw[i];
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return n > 0;
}
