// SPDX-License-Identifier: GPL-2.0-or-later
// All the USB stack's state, fixed in size: the controllers, the devices
// on them (keyboards and hubs), the ports being watched and the keys typed.
// The caller owns one struct usb_host; only lib/usb/ reads its fields.
#ifndef RAMSIFT_LIB_USB_HOST_H
#define RAMSIFT_LIB_USB_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usb/env.h"
#include "usb/hc.h"

#define USB_MAX_HCS 4		// controllers taken
#define USB_MAX_DEVICES 16	// devices at once, hubs included, on all controllers
#define USB_MAX_ROOT_PORTS 32	// root ports watched per controller
#define USB_MAX_HUB_PORTS 8	// ports watched per hub
#define USB_MAX_DEPTH 5		// hub tiers below a root port (USB 2.0 allows 5)
#define USB_KEY_QUEUE 32	// keys waiting for usb_key()
#define USB_REPORT_BYTES 8	// a boot keyboard's report
#define USB_DEV_BUF_BYTES 512	// a device's transfer buffer (descriptors, reports)
#define USB_STEP_US 1000000u	// the most one enumeration step may take
#define USB_ENUM_RESET 0xfeu	// hc_enum: a port reset holds the controller

// One port, a root port or a hub's: what the core is doing with it.
struct usb_port {
	uint8_t state;		// enum usb_port_state (core)
	uint8_t child;		// device index attached, or USB_NO_DEVICE
	uint64_t deadline;	// of the current step, env->now_us
};

// One device: where it is, how far its enumeration went, what it is.
struct usb_device {
	bool used;
	uint8_t hc;		// controller index
	struct usb_dev_where where;
	uint8_t depth;		// hubs above it
	uint8_t address;	// USB address (0 until set)
	uint8_t state;		// enum usb_dev_state (core)
	uint8_t phase;		// 0: start the state's operation, 1: poll it
	uint64_t deadline;	// of the current state, env->now_us
	uint16_t ep0_mps;
	// From the descriptors.
	uint8_t config;		// bConfigurationValue
	uint16_t config_len;	// bytes of the configuration to read (at most the buffer)
	uint8_t iface;		// bInterfaceNumber of the keyboard interface
	uint8_t ep;		// interrupt-IN endpoint number (keyboards and hubs)
	uint16_t ep_mps;
	uint8_t ep_interval;
	bool is_hub;
	uint8_t hub_ports;	// ports the hub has (watched: at most USB_MAX_HUB_PORTS)
	uint16_t hub_power_ms;	// bPwrOn2PwrGood * 2
	uint8_t hub_think;	// TT think time, 0-3
	uint8_t hub_next;	// the hub port being looked at (from 0)
	uint8_t hub_op;		// what the hub's control transfer in flight is (hub.c)
	bool hub_scanned;	// every port looked at once
	struct usb_port ports[USB_MAX_HUB_PORTS];
	const char *lost;	// why its transfers failed (DEV_LOST)
	uint8_t report[USB_REPORT_BYTES];	// the last report (keyboards)
	struct usb_buf buf;	// USB_DEV_BUF_BYTES of DMA memory (taken once per index)
};

struct usb_host {
	const struct usb_env *env;
	struct usb_dma dma;
	unsigned nhc;
	struct usb_hc hcs[USB_MAX_HCS];
	uint8_t hc_state[USB_MAX_HCS];		// enum usb_hc_state (core)
	uint8_t hc_ports[USB_MAX_HCS];		// root ports watched
	uint8_t hc_next[USB_MAX_HCS];		// next root port to look at
	// The one port reset or default-address device a controller has at
	// a time: USB_NO_DEVICE, USB_ENUM_RESET, or the device's index.
	uint8_t hc_enum[USB_MAX_HCS];
	bool hc_scanned[USB_MAX_HCS];		// every root port looked at once, settled
	uint64_t hc_started[USB_MAX_HCS];	// env->now_us when it started
	struct usb_port root[USB_MAX_HCS][USB_MAX_ROOT_PORTS];
	struct usb_device devs[USB_MAX_DEVICES];
	unsigned generation;
	uint8_t keys[USB_KEY_QUEUE];
	unsigned key_head, key_tail;		// free-running: head - tail keys wait
};

#endif
