// SPDX-License-Identifier: GPL-2.0-or-later
// What the core's parts share (usb.c, root.c, hub.c, enum.c, where.c):
// the states of controllers, ports and devices, and the steps between them.
#ifndef RAMSIFT_LIB_USB_CORE_H
#define RAMSIFT_LIB_USB_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/usb.h"

enum usb_hc_state { HC_FREE, HC_RUNNING, HC_DEAD };

enum usb_port_state {
	PORT_EMPTY,		// nothing attached (or not looked at yet)
	PORT_DEBOUNCE,		// attached: let the connection settle (USB 2.0 7.1.7.3)
	PORT_RESET,		// being reset
	PORT_DEVICE,		// its device (child) is enumerating or running
	PORT_FAILED,		// its device failed: to be disabled
	PORT_OFF,		// disabled after a failure: waits to be unplugged
};

enum usb_dev_state {
	DEV_SETUP,		// after the reset recovery, the controller reaches it at the default address
	DEV_DESC8,		// the first 8 bytes of its device descriptor: EP0's size
	DEV_SET_ADDRESS,	// only when the controller does not assign addresses
	DEV_RECOVERY,		// 2 ms after SET_ADDRESS (USB 2.0 9.2.6.3)
	DEV_UPDATE,		// the controller learns EP0's size
	DEV_DESC18,
	DEV_CONFIG9,
	DEV_CONFIG,
	DEV_HUB_DESC,
	DEV_HUB_UPDATE,		// the controller learns it is a hub
	DEV_SET_CONFIG,
	DEV_HUB_DEPTH,		// SET_HUB_DEPTH, USB3 hubs
	DEV_HUB_POWER,		// SET_FEATURE(PORT_POWER), one port a step
	DEV_HUB_SETTLE,		// bPwrOn2PwrGood
	DEV_SET_PROTOCOL,
	DEV_SET_IDLE,
	DEV_INTR_OPEN,
	DEV_RUNNING,		// keyboards: reports; hubs: their ports watched
	DEV_LOST,		// its reports failed: unplugged, or failed if still there in 1 s
	DEV_IDLE,		// not a keyboard or hub: left configured, unused
	DEV_RELEASE,		// being released by the controller
};

#define USB_DEBOUNCE_US 100000u
#define USB_RESET_US 1000000u
#define USB_RESET_RECOVERY_US 10000u	// after a port reset, before the device is spoken to (USB 2.0 7.1.7.5)

// env->now_us.
uint64_t usb_now(const struct usb_host *h);

// A warning line "usb: <what>" (enum.c's and hub.c's about a device use usb_dev_warn).
void usb_warn(struct usb_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// "usb: <device's place>: <fmt>", e.g. "usb: xHCI 00:04.0 port 5 (hub port 2): ...".
void usb_dev_warn(struct usb_host *h, unsigned dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
// The device's place: "xHCI 00:04.0 port 5 (hub port 1, hub port 3)";
// usb_place_text of a place w on controller hc that has no device yet.
size_t usb_where_text(const struct usb_host *h, unsigned dev, char *buf, size_t size);
size_t usb_place_text(const struct usb_host *h, unsigned hc, const struct usb_dev_where *w,
		      char *buf, size_t size);

// The controller the device is on.
struct usb_hc *usb_hc_of(struct usb_host *h, unsigned dev);
// The device moves to state s, to start its operation, with USB_STEP_US.
void usb_dev_next(struct usb_host *h, unsigned dev, enum usb_dev_state s);
// The device no longer holds its controller's one enumeration (it has its address).
void usb_dev_release_enum(struct usb_host *h, unsigned dev);
// One step of a device being released (DEV_RELEASE): when its controller
// is done, or after USB_STEP_US, its index is free.
void usb_dev_release_step(struct usb_host *h, unsigned dev);

// A new device at a port that just finished its reset (root.c, hub.c):
// its index, or USB_NO_DEVICE (warned) when there is no room.
unsigned usb_dev_new(struct usb_host *h, unsigned hc, const struct usb_dev_where *where,
		     unsigned depth);
// One step of the device's enumeration or of its work once running.
void usb_dev_step(struct usb_host *h, unsigned dev);
// Unplugged or failed: release it and every device below it.
void usb_dev_remove(struct usb_host *h, unsigned dev);
// Give up on the device: warn "<its place>: <what>: device left alone, ...",
// remove it and all below it, disable its port until it is unplugged.
void usb_dev_fail(struct usb_host *h, unsigned dev, const char *what);
// A running device's transfers failed (why: a phrase, kept): most often it
// was unplugged, and its port will say so within USB_STEP_US; it fails
// with why if it does not.
void usb_dev_lost(struct usb_host *h, unsigned dev, const char *why);
// True while the device is being enumerated (not running, idle or failed).
bool usb_dev_settling(const struct usb_device *d);

// One step of the controller's root ports (root.c) and of a running hub's
// ports (hub.c).
void usb_root_step(struct usb_host *h, unsigned hc);
void usb_hub_step(struct usb_host *h, unsigned dev);

// A control request on the device's endpoint 0 (enum.c): usb_ctl starts it
// with the device's buffer, usb_ctl_poll polls it.
void usb_ctl(struct usb_host *h, unsigned dev, uint8_t type, uint8_t request, uint16_t value,
	     uint16_t index, uint16_t length);
enum usb_step usb_ctl_poll(struct usb_host *h, unsigned dev, size_t *actual);

#endif
