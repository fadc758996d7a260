// SPDX-License-Identifier: GPL-2.0-or-later
// The descriptors the stack reads (USB 2.0 9.6, 11.23; USB 3.2 10.15.2;
// HID 1.11 boot keyboards), parsed from bytes a device sent with every
// length and bound checked. Pure: no device access. On a bad descriptor
// each parser returns false and sets *why to a phrase naming the fault
// ("configuration descriptor's wTotalLength is 4").
#ifndef RAMSIFT_LIB_USB_DESC_H
#define RAMSIFT_LIB_USB_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USB_DESC_DEVICE 1
#define USB_DESC_CONFIG 2
#define USB_DESC_INTERFACE 4
#define USB_DESC_ENDPOINT 5
#define USB_DESC_HUB 0x29
#define USB_DESC_SS_HUB 0x2a
#define USB_CLASS_HID 3
#define USB_CLASS_HUB 9

struct usb_device_desc {
	uint16_t bcd_usb;
	uint8_t cls, subclass, protocol;
	uint16_t mps0;		// endpoint 0's max packet size in bytes (512 for USB3's 2^9)
	uint16_t vendor, product;
	uint8_t configs;
};

enum usb_function { USB_FN_OTHER, USB_FN_KEYBOARD, USB_FN_HUB };

// What a configuration offers: the first boot keyboard interface (class 3,
// subclass 1, protocol 1) or else a hub interface (class 9), with its
// interrupt-IN endpoint.
struct usb_config_info {
	uint8_t value;		// bConfigurationValue
	uint16_t total;		// wTotalLength
	enum usb_function function;
	uint8_t iface;		// bInterfaceNumber
	uint8_t ep;		// endpoint number, 1-15
	uint16_t ep_mps;	// bytes, up to USB_EP_MPS_MAX (keyboards: at least 8)
	uint8_t ep_interval;	// bInterval as sent
};
#define USB_EP_MPS_MAX 512

struct usb_hub_info {
	uint8_t ports;		// bNbrPorts, at least 1
	uint16_t power_ms;	// bPwrOn2PwrGood in ms
	uint8_t think;		// TT think time, 0-3 (USB2 hubs)
};

// The first len bytes of a device descriptor: len 8 yields only mps0,
// len >= 18 all of it. mps0 must be 8, 16, 32 or 64 (or 9, an exponent,
// for bcdUSB 3.x: decoded to 512).
bool usb_parse_device(const uint8_t *b, size_t len, struct usb_device_desc *d, const char **why);

// A configuration descriptor's first 9 bytes: its value and wTotalLength.
bool usb_parse_config_head(const uint8_t *b, size_t len, struct usb_config_info *c,
			   const char **why);

// A whole configuration (len bytes, at most wTotalLength used): walks every
// descriptor in it. function stays USB_FN_OTHER when it has neither a boot
// keyboard nor a hub (true: nothing is wrong with it).
bool usb_parse_config(const uint8_t *b, size_t len, struct usb_config_info *c, const char **why);

// A hub descriptor, USB2 (type 0x29) or USB3 (ss, type 0x2a).
bool usb_parse_hub(const uint8_t *b, size_t len, bool ss, struct usb_hub_info *h, const char **why);

#endif
