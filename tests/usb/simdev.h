// SPDX-License-Identifier: GPL-2.0-or-later
// Simulated USB devices for the controller simulators: boot keyboards and
// USB 2 hubs with child ports, with configurable descriptors and faults.
// A device answers control requests (simdev_control) the way chapter 9,
// 11 and HID 1.11 say; a keyboard holds one report until it is taken.
#ifndef TESTS_USB_SIMDEV_H
#define TESTS_USB_SIMDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/hc.h"

#define SIMDEV_PORTS 8

enum simdev_kind { SIMDEV_KEYBOARD, SIMDEV_HUB, SIMDEV_OTHER };
enum simdev_answer { SIMDEV_OK, SIMDEV_STALL, SIMDEV_SILENT };

struct simdev;

struct simdev_port {
	struct simdev *dev;
	bool powered, enabled, resetting;
	uint16_t change;	// wPortChange bits
};

struct simdev {
	enum simdev_kind kind;
	enum usb_speed speed;
	bool attached;		// on a port (removing it makes transfers fail)
	uint8_t address;
	uint8_t config;		// SET_CONFIGURATION's value
	uint8_t protocol;	// SET_PROTOCOL: 0 boot (what the stack must ask)
	bool idle_set;
	uint8_t dev_desc[18];
	uint8_t conf[64];
	size_t conf_len;
	uint8_t hub_desc[12];	// USB 2 (9 bytes) or USB 3 (12), by speed
	bool depth_set;		// SET_HUB_DEPTH came (USB 3 hubs)
	uint8_t hub_depth;
	// Faults.
	bool silent;		// never answers a control request
	bool stall_desc;	// STALLs GET_DESCRIPTOR
	bool stall_idle;	// STALLs SET_IDLE (a real keyboard may: tolerated)
	bool stall_protocol;	// STALLs SET_PROTOCOL (tolerated too)
	size_t desc_cut;	// sends only this much of its device descriptor (0: all)
	bool reset_stuck;	// a hub whose port resets never end
	// Keyboard.
	uint8_t report[8];
	bool report_ready;
	// Hub.
	unsigned nports;
	struct simdev_port ports[SIMDEV_PORTS];
	unsigned requests;	// control requests answered
	uint64_t reset_at;	// when its port was last reset (simdev_clock)
};

// The simulated clock in microseconds, when the controller simulator has
// one: a port reset is then stamped on the device (reset_at).
extern const uint64_t *simdev_clock;

// A boot keyboard at speed (descriptors like a real one: one
// configuration, interface 0 class 3/1/1, endpoint 0x81 of 8 bytes).
void simdev_keyboard(struct simdev *d, enum usb_speed speed);
// A hub of nports ports (at most SIMDEV_PORTS) at speed: a USB 3 hub at
// USB_SPEED_SUPER (its descriptor, port status bits and SET_HUB_DEPTH).
void simdev_hub(struct simdev *d, enum usb_speed speed, unsigned nports);

// The request setup, with its data stage in data (length bytes room): the
// answer, and on SIMDEV_OK the bytes of an IN data stage in *len.
enum simdev_answer simdev_control(struct simdev *d, const struct usb_setup *setup,
				  uint8_t *data, size_t *len);

// A key pressed (usage code, modifiers) or all released: the report the
// keyboard will send next.
void simdev_press(struct simdev *kbd, uint8_t modifiers, uint8_t usage);
void simdev_release(struct simdev *kbd);

// Plug d into port (from 1) of hub, or unplug what is there (d NULL).
void simdev_plug(struct simdev *hub, unsigned port, struct simdev *d);

// The device on port (from 1) of hub d; NULL when d is no hub, the port
// does not exist, has nothing there or is not enabled.
struct simdev *simdev_child(struct simdev *d, unsigned port);

#endif
