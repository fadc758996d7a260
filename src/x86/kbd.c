// SPDX-License-Identifier: GPL-2.0-or-later
// i8042 keyboard, polled. The controller normally translates the keyboard's
// scan-code set 2 into set 1 (command byte bit 6, set by every BIOS and by
// OVMF's PS/2 driver); without translation set 2 arrives, with 0xf0 before a
// release. Both are decoded for the keys ramsift uses.
#include "io.h"
#include "kbd.h"

#define KBC_DATA	0x60
#define KBC_STATUS	0x64	// read: status; write: command
#define KBC_STATUS_OBF	0x01	// a byte waits in the output buffer
#define KBC_STATUS_IBF	0x02	// the controller has not taken our last byte
#define KBC_STATUS_AUX	0x20	// the waiting byte is the mouse's
#define KBC_CMD_READ_CONFIG 0x20
#define KBC_CONFIG_TRANSLATE 0x40
#define KBC_ABSENT	0xff	// what reads of a missing controller give
#define KBC_SPINS	100000	// far longer than the controller ever takes
#define SET1_RELEASE	0x80
#define SET2_RELEASE	0xf0
#define EXTENDED	0xe0

static bool present, translated;
static bool shift, release, extended;

// Set 1 make codes 0x01-0x39: the main block of a US keyboard, unshifted and
// shifted (0: no character). Esc is 27.
static const char set1[2][0x3a] = {
	{ 0, 27, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', 8, '\t',
	  'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\n', 0, 'a', 's',
	  'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`', 0, '\\', 'z', 'x', 'c', 'v',
	  'b', 'n', 'm', ',', '.', '/', 0, '*', 0, ' ' },
	{ 0, 27, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', 8, '\t',
	  'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\n', 0, 'A', 'S',
	  'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~', 0, '|', 'Z', 'X', 'C', 'V',
	  'B', 'N', 'M', '<', '>', '?', 0, '*', 0, ' ' },
};
#define SET1_LSHIFT 0x2a
#define SET1_RSHIFT 0x36

// Set 2 make codes of the keys that mean something to ramsift, to their set 1
// codes (the rest are ignored).
static const struct { unsigned char set2, set1; } set2_keys[] = {
	{ 0x76, 0x01 }, { 0x15, 0x10 }, { 0x1b, 0x1f }, { 0x4d, 0x19 }, { 0x2d, 0x13 },
	{ 0x35, 0x15 }, { 0x31, 0x31 }, { 0x33, 0x23 }, { 0x4a, 0x35 }, { 0x5a, 0x1c },
	{ 0x29, 0x39 }, { 0x12, SET1_LSHIFT }, { 0x59, SET1_RSHIFT },
};

static bool wait_status(unsigned char mask, bool set)
{
	for (int i = 0; i < KBC_SPINS; i++) {
		if (((inb(KBC_STATUS) & mask) != 0) == set)
			return true;
		cpu_relax();
	}
	return false;
}

bool kbd_init(void)
{
	present = inb(KBC_STATUS) != KBC_ABSENT;
	translated = true;
	if (!present)
		return false;
	// Keys pressed before now mean nothing (GRUB's Enter, for one).
	for (int i = 0; i < 64 && (inb(KBC_STATUS) & KBC_STATUS_OBF); i++)
		(void)inb(KBC_DATA);
	if (wait_status(KBC_STATUS_IBF, false)) {
		outb(KBC_STATUS, KBC_CMD_READ_CONFIG);
		if (wait_status(KBC_STATUS_OBF, true))
			translated = inb(KBC_DATA) & KBC_CONFIG_TRANSLATE;
	}
	return true;
}

static int set1_char(unsigned char code, bool up)
{
	if (code == SET1_LSHIFT || code == SET1_RSHIFT) {
		shift = !up;
		return -1;
	}
	if (up || code >= sizeof(set1[0]) || !set1[shift][code])
		return -1;
	return set1[shift][code];
}

int kbd_read(void)
{
	if (!present)
		return -1;
	unsigned char st = inb(KBC_STATUS);
	if (st == KBC_ABSENT || !(st & KBC_STATUS_OBF))
		return -1;
	unsigned char b = inb(KBC_DATA);
	if (st & KBC_STATUS_AUX)
		return -1;
	if (b == EXTENDED) {
		extended = true;
		return -1;
	}
	if (!translated && b == SET2_RELEASE) {
		release = true;
		return -1;
	}
	bool ext = extended, up = translated ? b & SET1_RELEASE : release;
	extended = release = false;
	if (ext)	// arrows and the like: nothing ramsift uses
		return -1;
	if (translated)
		return set1_char(b & ~SET1_RELEASE, up);
	for (unsigned i = 0; i < sizeof(set2_keys) / sizeof(set2_keys[0]); i++)
		if (set2_keys[i].set2 == b)
			return set1_char(set2_keys[i].set1, up);
	return -1;
}
