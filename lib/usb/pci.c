// SPDX-License-Identifier: GPL-2.0-or-later
// A controller's PCI function made usable: the command register's memory
// space and bus master bits, the power management capability's D0.
#include "usb/pci.h"

#define PCI_COMMAND 0x04		// command (low half), status (high half)
#define PCI_COMMAND_MEMORY 0x0002u
#define PCI_COMMAND_MASTER 0x0004u
#define PCI_COMMAND_ON (PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER)
#define PCI_STATUS_CAPS (1u << 20)	// as read with the command register
#define PCI_CAP_PTR 0x34
#define PCI_CAP_PM 1
#define PCI_PM_STATE 0x3u		// PMCSR's power state, at the capability + 4
#define PCI_CAPS_MAX 48			// capabilities walked at most

static uint32_t cfg_read(struct usb_hc *hc, uint16_t off)
{
	return hc->env->pci_read32(hc->env->ctx, hc->bdf, off);
}

static void cfg_write(struct usb_hc *hc, uint16_t off, uint32_t v)
{
	hc->env->pci_write32(hc->env->ctx, hc->bdf, off, v);
}

// The offset of the power management capability, or 0.
static uint16_t pm_cap(struct usb_hc *hc)
{
	uint16_t at = cfg_read(hc, PCI_CAP_PTR) & 0xfc;

	for (unsigned i = 0; at >= 0x40 && i < PCI_CAPS_MAX; i++) {
		uint32_t v = cfg_read(hc, at);

		if ((v & 0xff) == PCI_CAP_PM)
			return at;
		at = (v >> 8) & 0xfc;
	}
	return 0;
}

enum usb_pci usb_pci_enable(struct usb_hc *hc)
{
	uint32_t cmd = cfg_read(hc, PCI_COMMAND);
	uint16_t pm;
	uint32_t pmcsr;

	if (cmd == 0xffffffffu) {
		usb_hc_warn(hc, "its PCI configuration space reads all ones: left alone");
		return USB_PCI_GONE;
	}
	// The status half written back as read would clear its error bits
	// (write 1 to clear): they are not ours to clear, so write zeros there.
	if ((cmd & PCI_COMMAND_ON) != PCI_COMMAND_ON)
		cfg_write(hc, PCI_COMMAND, (cmd & 0xffff) | PCI_COMMAND_ON);
	if (!(cmd & PCI_STATUS_CAPS) || (pm = pm_cap(hc)) == 0)
		return USB_PCI_READY;
	pmcsr = cfg_read(hc, pm + 4u);
	if ((pmcsr & PCI_PM_STATE) == 0)
		return USB_PCI_READY;
	cfg_write(hc, pm + 4u, pmcsr & 0xffff & ~PCI_PM_STATE);
	return USB_PCI_WOKEN;
}
