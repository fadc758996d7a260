// SPDX-License-Identifier: GPL-2.0-or-later
// The controller-driver interface: what the core (lib/usb/core*.c) asks of
// an xHCI or EHCI driver. Every op is non-blocking: it does a bounded
// number of register accesses and returns. What takes time is a start op
// and a poll op; the poll says USB_PENDING until it is over. The core owns
// every deadline (env->now_us): a driver never waits and never gives up on
// time by itself, except the controller's own start (the BIOS handoff and
// the resets, each bounded to USB_HC_WAIT_US).
//
// Devices are named by the core's device index (0 .. USB_MAX_DEVICES - 1,
// the same index in every call); a driver keeps what it needs per index in
// its own state (struct usb_hc's drv). Ports are numbered from 1 as the
// controller numbers them. The core asks one thing of a device at a time,
// and has at most one device being set up per controller at a time.
#ifndef RAMSIFT_LIB_USB_HC_H
#define RAMSIFT_LIB_USB_HC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/env.h"

#define USB_HC_WAIT_US 1000000u	// the most a controller's handoff or reset waits

enum usb_speed { USB_SPEED_LOW, USB_SPEED_FULL, USB_SPEED_HIGH, USB_SPEED_SUPER };

// How a start-then-poll operation stands. USB_STALL: the device answered
// with a STALL handshake (a request it does not support); USB_FAILED: any
// other error (transaction error, babble, the controller refused).
enum usb_step { USB_PENDING, USB_DONE, USB_STALL, USB_FAILED };

// A piece of the DMA block: where the CPU sees it and where the controller does.
struct usb_buf {
	void *virt;
	uint64_t phys;
};

// The DMA block as a bump allocator, shared by every controller and the core.
struct usb_dma {
	uint8_t *virt;
	uint64_t phys;
	size_t bytes, used;
};

// A zeroed piece of bytes aligned to align (a power of two, at most 4096),
// not crossing a 4 KiB boundary when bytes <= 4096. False when the block is
// full (nothing taken).
bool usb_dma_take(struct usb_dma *d, size_t bytes, size_t align, struct usb_buf *out);

struct usb_port_status {
	bool connected;		// a device is attached (current connect status)
	bool enabled;		// the port is enabled: reset done, traffic flows
	bool changed;		// some change bit is set (connect, enable, reset, ...)
	bool overcurrent;
	enum usb_speed speed;	// valid when connected (EHCI: only after reset)
	bool companion;		// EHCI: a full/low-speed device the driver handed on
};

// Where a device is: what a controller needs to reach it before it has an address.
struct usb_dev_where {
	enum usb_speed speed;
	uint8_t root_port;	// the root port the chain starts at (from 1)
	uint8_t parent;		// device index of its hub, USB_NO_DEVICE at a root port
	uint8_t hub_port;	// the port of that hub (from 1), 0 at a root port
	uint32_t route;		// xHCI route string: a hub port per tier, 4 bits each, first tier lowest
	// A full/low-speed device behind a high-speed hub: that hub's device
	// index and USB address and the port the chain leaves it by (split
	// transactions, the xHCI TT fields); USB_NO_DEVICE, 0, 0 otherwise.
	uint8_t tt_hub;
	uint8_t tt_hub_addr;
	uint8_t tt_port;
};
#define USB_NO_DEVICE 0xffu

// A control request's setup stage (USB 2.0 9.3), values in host order.
struct usb_setup {
	uint8_t type;		// bmRequestType
	uint8_t request;	// bRequest
	uint16_t value, index, length;
};

struct usb_hc;

struct usb_hc_ops {
	const char *kind;	// "xHCI", "EHCI": the usb_describe and warning text

	// Take the controller from the firmware, reset it and run it: call
	// start once, then poll start_poll until not USB_PENDING. USB_FAILED
	// means it was warned about and left (or put back) as found.
	void (*start)(struct usb_hc *hc);
	enum usb_step (*start_poll)(struct usb_hc *hc);

	// Root ports (valid once started).
	unsigned (*port_count)(struct usb_hc *hc);
	// False when the registers no longer answer (all ones): the
	// controller is gone; it was warned about and will do nothing more.
	bool (*port_status)(struct usb_hc *hc, unsigned port, struct usb_port_status *st);
	// Acknowledge every change bit of the port.
	void (*port_clear)(struct usb_hc *hc, unsigned port);
	// Reset the port (a USB2 port needs one; a USB3 port trains by itself
	// and this only waits for it): USB_DONE when the port is enabled,
	// USB_FAILED when the device left or the controller disabled it.
	void (*port_reset)(struct usb_hc *hc, unsigned port);
	enum usb_step (*port_reset_poll)(struct usb_hc *hc, unsigned port);
	// Turn the port off (a device that failed stays off until replugged).
	void (*port_disable)(struct usb_hc *hc, unsigned port);

	// Make the device at where reachable at the default address with an
	// endpoint 0 of max packet size mps (8 for low and full speed until
	// its descriptor says, 64 high speed, 512 super speed). A controller
	// that assigns addresses itself (xHCI: Address Device) gives it one
	// now and sets *address (non-zero) when dev_setup_poll says USB_DONE;
	// otherwise *address is 0 and the core sends SET_ADDRESS itself, then
	// calls dev_address.
	void (*dev_setup)(struct usb_hc *hc, unsigned dev, const struct usb_dev_where *where,
			  unsigned mps);
	enum usb_step (*dev_setup_poll)(struct usb_hc *hc, unsigned dev, uint8_t *address);
	// The device now answers at address (after the core's SET_ADDRESS);
	// NULL for a controller that assigns addresses itself.
	void (*dev_address)(struct usb_hc *hc, unsigned dev, uint8_t address);
	// Endpoint 0's max packet size is mps (from the device descriptor),
	// and the device is a hub of ports ports (0: not a hub) with that TT
	// think time (0-3, units of 8 FS bit times) and multi-TT flag: start,
	// then poll to USB_DONE. A controller with nothing to tell may say
	// USB_DONE at once.
	void (*dev_update)(struct usb_hc *hc, unsigned dev, unsigned mps, unsigned ports,
			   unsigned think, bool mtt);
	enum usb_step (*dev_update_poll)(struct usb_hc *hc, unsigned dev);

	// A control transfer to the device's endpoint 0: setup, then
	// setup->length bytes in data (direction from setup->type's bit 7),
	// then status. The poll says USB_DONE with *actual the bytes moved.
	// One at a time per device.
	void (*control)(struct usb_hc *hc, unsigned dev, const struct usb_setup *setup,
			struct usb_buf data);
	enum usb_step (*control_poll)(struct usb_hc *hc, unsigned dev, size_t *actual);

	// Open the device's interrupt-IN endpoint ep (1-15) of max packet
	// mps and bInterval interval, after SET_CONFIGURATION, with a report
	// buffer of mps bytes: start, then poll to USB_DONE (xHCI: Configure
	// Endpoint). Then intr_poll says USB_DONE, with *actual, each time a
	// report has come into buf (and asks for the next), USB_PENDING while
	// none has, USB_STALL/USB_FAILED when the endpoint broke.
	void (*intr_open)(struct usb_hc *hc, unsigned dev, unsigned ep, unsigned mps,
			  unsigned interval, struct usb_buf buf);
	enum usb_step (*intr_open_poll)(struct usb_hc *hc, unsigned dev);
	enum usb_step (*intr_poll)(struct usb_hc *hc, unsigned dev, size_t *actual);

	// Forget the device (unplugged, failed, or timed out with a transfer
	// in flight): stop its transfers and free its slot; poll to not
	// USB_PENDING. Its index may then be set up again.
	void (*dev_release)(struct usb_hc *hc, unsigned dev);
	enum usb_step (*dev_release_poll)(struct usb_hc *hc, unsigned dev);

	// Halt and reset the controller: no DMA after it returns (bounded,
	// the one op that waits, at most USB_HC_WAIT_US by the env's clock).
	void (*stop)(struct usb_hc *hc);
};

// One controller: what the core and its driver share. The driver's own
// state lives in drv (its size checked by a _Static_assert in the driver).
#define USB_HC_DRV_BYTES 8192
struct usb_hc {
	const struct usb_hc_ops *ops;
	const struct usb_env *env;
	struct usb_dma *dma;
	uint32_t bdf;
	uint64_t mmio;
	char name[16];		// "xHCI 00:04.0"
	bool dead;		// gave up on: the core calls nothing more but stop
	_Alignas(8) uint8_t drv[USB_HC_DRV_BYTES];
};

// The controller's register at offset off from its BAR.
static inline uint32_t usb_hc_read(struct usb_hc *hc, uint32_t off)
{
	return hc->env->mmio_read32(hc->env->ctx, hc->mmio + off);
}

static inline void usb_hc_write(struct usb_hc *hc, uint32_t off, uint32_t value)
{
	hc->env->mmio_write32(hc->env->ctx, hc->mmio + off, value);
}

static inline uint64_t usb_hc_now(struct usb_hc *hc)
{
	return hc->env->now_us(hc->env->ctx);
}

// A warning line "usb: <hc->name>: <fmt...>" through env->warn.
void usb_hc_warn(struct usb_hc *hc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// The drivers' op tables.
extern const struct usb_hc_ops usb_xhci_ops;
extern const struct usb_hc_ops usb_ehci_ops;

#endif
