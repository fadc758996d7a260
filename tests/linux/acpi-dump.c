// SPDX-License-Identifier: GPL-2.0-or-later
// The init of the ACPI fixture initramfs (`tests/linux/fixtures.sh acpi`):
// prints the firmware's ACPI tables that lead to the CPUs, in memdump.h's
// lines, for the unit tests' fixtures (tests/unit/fixtures/acpi_qemu_*.h).
// It finds the RSDP as ramsift does, by scanning the first KiB of the EBDA
// and 0xE0000-0xFFFFF in /dev/mem (Linux lets /dev/mem read the first MiB
// and what is not System RAM, which covers the BIOS area and the ACPI
// tables), then prints the RSDP, the RSDT, the XSDT, every table they point
// to, and the DSDT the FADT points to (its X_DSDT when set, else DSDT; the
// FACS is left out), each with its physical address, and the EBDA segment
// as a note. The MADT read through /dev/mem is compared with
// /sys/firmware/acpi/tables/APIC, the kernel's own copy.
#include "memdump.h"

#define NAME "acpi-dump"
#define TABLE_MAX 262144		// larger is not a table this dump needs
#define MAX_TABLES 64

static uint64_t dumped[MAX_TABLES];
static int ndumped;

// Dump the SDT at addr once; returns its length, or 0 if it cannot be read.
static size_t table(uint64_t addr, uint8_t *buf)
{
	uint32_t len;

	if (!readmem(addr, buf, 36)) {
		printf(NAME ": note table at 0x%llx unreadable\n", (unsigned long long)addr);
		return 0;
	}
	memcpy(&len, buf + 4, 4);
	if (len < 36 || len > TABLE_MAX || !readmem(addr, buf, len)) {
		printf(NAME ": note table %.4s at 0x%llx has length %u or is unreadable\n",
		       (char *)buf, (unsigned long long)addr, len);
		return 0;
	}
	if (sum(buf, len) != 0)
		printf(NAME ": note table %.4s at 0x%llx has a bad checksum\n", (char *)buf,
		       (unsigned long long)addr);
	for (int i = 0; i < ndumped; i++)
		if (dumped[i] == addr)
			return len;
	if (ndumped < MAX_TABLES)
		dumped[ndumped++] = addr;
	memdump_table(NAME, (char *)buf, addr, buf, len);
	return len;
}

// The DSDT of the FADT in f (len bytes): X_DSDT (offset 140, ACPI 2.0+)
// when the table has it and it is set, else DSDT (offset 40).
static void dsdt(const uint8_t *f, size_t len)
{
	static uint8_t t[TABLE_MAX];
	uint64_t addr = 0;
	uint32_t a32;

	if (len >= 148)
		memcpy(&addr, f + 140, 8);
	if (addr == 0 && len >= 44) {
		memcpy(&a32, f + 40, 4);
		addr = a32;
	}
	if (addr)
		table(addr, t);
}

// Dump a root table (entry_size 4: RSDT, 8: XSDT) and what it points to.
static void root(uint64_t addr, size_t entry_size)
{
	static uint8_t rt[TABLE_MAX], t[TABLE_MAX];
	size_t len = table(addr, rt);

	for (size_t off = 36; off + entry_size <= len; off += entry_size) {
		uint64_t entry = 0;
		memcpy(&entry, rt + off, entry_size);
		size_t tlen = table(entry, t);
		if (tlen && memcmp(t, "FACP", 4) == 0)
			dsdt(t, tlen);
	}
}

static int find_rsdp(uint64_t start, uint64_t end, uint8_t rsdp[36], uint64_t *at)
{
	for (uint64_t a = start; a + 20 <= end; a += 16)
		if (readmem(a, rsdp, 20) && memcmp(rsdp, "RSD PTR ", 8) == 0 && sum(rsdp, 20) == 0) {
			*at = a;
			return 1;
		}
	return 0;
}

static void compare_sysfs(void)
{
	static uint8_t a[TABLE_MAX], b[TABLE_MAX];
	int fd = open("/sys/firmware/acpi/tables/APIC", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, a, sizeof(a)) : -1;

	if (fd >= 0)
		close(fd);
	for (int i = 0; i < ndumped; i++) {
		if (!readmem(dumped[i], b, 36) || memcmp(b, "APIC", 4) != 0)
			continue;
		printf(NAME ": note APIC at 0x%llx %s /sys/firmware/acpi/tables/APIC\n",
		       (unsigned long long)dumped[i],
		       n > 36 && readmem(dumped[i], b, (size_t)n) && memcmp(a, b, (size_t)n) == 0 ?
		       "matches" : "differs from");
	}
}

int main(void)
{
	uint8_t rsdp[36];
	uint16_t ebda_seg = 0;
	uint64_t at = 0;

	memdump_begin(NAME);
	if (readmem(0x40e, &ebda_seg, 2))
		printf(NAME ": note EBDA segment 0x%04x\n", ebda_seg);
	int found = (ebda_seg && find_rsdp((uint64_t)ebda_seg << 4, ((uint64_t)ebda_seg << 4) + 1024,
					   rsdp, &at)) ||
		    find_rsdp(0xe0000, 0x100000, rsdp, &at);
	if (!found) {
		printf(NAME ": note no RSDP found\n");
	} else {
		uint32_t rsdt = 0, len = 20;
		uint64_t xsdt = 0;
		memcpy(&rsdt, rsdp + 16, 4);
		if (rsdp[15] >= 2 && readmem(at, rsdp, 36)) {
			memcpy(&len, rsdp + 20, 4);
			memcpy(&xsdt, rsdp + 24, 8);
			len = len > 36 ? 36 : len;
		}
		memdump_table(NAME, "RSDP", at, rsdp, len);
		if (rsdt)
			root(rsdt, 4);
		if (xsdt)
			root(xsdt, 8);
		compare_sysfs();
	}
	memdump_end(NAME);
}
