// SPDX-License-Identifier: GPL-2.0-or-later
// USB keyboards (see usbkeys.h): which controllers are read and which not,
// and the stack driven from the keys' polls.
#include "log.h"
#include "memstr.h"
#include "run/ram.h"
#include "usb/usb.h"
#include "usbhost.h"
#include "usbkeys.h"
#include "x86/paging.h"
#include "x86/pci_config.h"
#include "x86/timer.h"

#define PCI_CLASS_SERIAL_BUS	0x0c
#define PCI_SUBCLASS_USB	0x03
#define PROG_IF_UHCI		0x00
#define PROG_IF_OHCI		0x10
#define PROG_IF_EHCI		0x20
#define PROG_IF_XHCI		0x30
#define USB_FUNCTIONS_MAX	32	// USB functions looked at; more are named in a warning
// What a warning about a controller left alone tells the user to do.
#define USE_INSTEAD "its keyboards work only through the firmware's PS/2 emulation; " \
		    "use another port or the serial console"
#define SETTLE_MS		2000	// for the keyboards to enumerate before the keys: line

static struct usb_host host;
static struct usb_controller_info found[USB_MAX_HCS];
static size_t nfound;
static bool running;
static unsigned generation;
static char before_move[USBKEYS_DESCRIBE_LEN];

static const char *kind_name(uint8_t prog_if)
{
	switch (prog_if) {
	case PROG_IF_UHCI: return "UHCI";
	case PROG_IF_OHCI: return "OHCI";
	case PROG_IF_EHCI: return "EHCI";
	case PROG_IF_XHCI: return "xHCI";
	default: return NULL;
	}
}

// Keep f, an xHCI or EHCI function, for usbkeys_start when its BAR0 is a
// memory address the page tables can map and there is room.
static void keep(const struct pci_function *f, const char *kind)
{
	uint32_t b = f->bdf;
	uint64_t mmio;

	if (!pci_bar0_memory(b, &mmio)) {
		log_warn("usb: %s %02x:%02x.%x has no memory BAR0 the firmware assigned; left alone: "
			 USE_INSTEAD, kind, PCI_BUS(b), PCI_DEV(b), PCI_FN(b));
		return;
	}
	if (nfound == USB_MAX_HCS) {
		log_warn("usb: %s %02x:%02x.%x left alone: ramsift reads %u USB controllers at most; "
			 USE_INSTEAD, kind, PCI_BUS(b), PCI_DEV(b), PCI_FN(b), USB_MAX_HCS);
		return;
	}
	// A BAR is aligned to its size, at most 1 GiB here: its GiB holds it.
	if (!paging_add_device(mmio)) {
		log_warn("usb: %s %02x:%02x.%x left alone: its registers at 0x%llx cannot be mapped; "
			 USE_INSTEAD, kind, PCI_BUS(b), PCI_DEV(b), PCI_FN(b), (unsigned long long)mmio);
		return;
	}
	found[nfound++] = (struct usb_controller_info){
		f->prog_if == PROG_IF_XHCI ? USB_HC_XHCI : USB_HC_EHCI, b, mmio };
	log_info("usb: %s %02x:%02x.%x (%04x:%04x), registers at 0x%llx", kind, PCI_BUS(b),
		 PCI_DEV(b), PCI_FN(b), f->vendor, f->device, (unsigned long long)mmio);
}

void usbkeys_find(const struct config *cfg)
{
	struct pci_function f[USB_FUNCTIONS_MAX];

	if (!cfg->usb) {
		log_info("usb: off (usb=off): every USB controller is left as the firmware left it");
		return;
	}
	size_t n = pci_find_class(PCI_CLASS_SERIAL_BUS, PCI_SUBCLASS_USB, f, USB_FUNCTIONS_MAX);
	for (size_t i = 0; i < n && i < USB_FUNCTIONS_MAX; i++) {
		uint32_t b = f[i].bdf;
		const char *kind = kind_name(f[i].prog_if);
		if (f[i].prog_if == PROG_IF_XHCI || f[i].prog_if == PROG_IF_EHCI) {
			keep(&f[i], kind);
		} else if (kind) {
			log_info("usb: %s %02x:%02x.%x not read (ramsift reads xHCI and EHCI only); "
				 "a keyboard there works if the firmware emulates PS/2 for it", kind,
				 PCI_BUS(b), PCI_DEV(b), PCI_FN(b));
		}
	}
	if (n > USB_FUNCTIONS_MAX)
		log_warn("usb: %zu USB functions on PCI; only the first %u were looked at", n,
			 USB_FUNCTIONS_MAX);
	if (n == 0)
		log_info("usb: no USB controller on PCI");
}

// Take every controller found, and wait (bounded) for the stack to settle.
static void take_all(uint64_t mem)
{
	usb_init(&host, usbhost_env(), (struct usb_mem){ (void *)(uintptr_t)mem, mem, WORK_USB_BYTES });
	running = false;
	for (size_t i = 0; i < nfound; i++) {
		pci_enable_memory_master(found[i].bdf);
		running |= usb_add(&host, &found[i]);
	}
	for (uint64_t end = timer_ms() + SETTLE_MS; running && usb_busy(&host) && timer_ms() < end;)
		usb_poll(&host);
	generation = usb_generation(&host);
}

void usbkeys_start(uint64_t mem)
{
	if (nfound)
		take_all(mem);
}

bool usbkeys_running(void)
{
	return running;
}

size_t usbkeys_describe(char *buf, size_t size)
{
	if (running)
		return usb_describe(&host, buf, size);
	if (size)
		buf[0] = '\0';
	return 0;
}

static void log_keyboards(const char *list)
{
	log_info("keys: USB keyboards now: %s", list[0] ? list : "none");
}

int usbkeys_read(void)
{
	if (!running)
		return -1;
	usb_poll(&host);
	if (usb_generation(&host) != generation) {
		char line[USBKEYS_DESCRIBE_LEN];
		generation = usb_generation(&host);
		usbkeys_describe(line, sizeof(line));
		log_keyboards(line);
	}
	return usb_key(&host);
}

void usbkeys_stop(void)
{
	if (!running)
		return;
	usbkeys_describe(before_move, sizeof(before_move));
	usb_stop(&host);
}

void usbkeys_moved(uint64_t mem)
{
	char now[USBKEYS_DESCRIBE_LEN];

	if (!running)
		return;
	take_all(mem);
	usbkeys_describe(now, sizeof(now));
	if (!str_eq(now, before_move))
		log_keyboards(now);
}
