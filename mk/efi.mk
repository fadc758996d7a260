# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift-reserve.efi, the UEFI pre-loader that reserves bad pages before
# the boot loader runs (docs/badram.md, "Before GRUB: ramsift-reserve.efi"):
# built with gnu-efi the way gnu-efi's own applications are, an ELF shared
# object turned into a PE32+ EFI application by objcopy. The libraries it
# uses are compiled again for it, position-independent: lib/reserve (the
# words), lib/record (the record, and its fold by lib/badram), the SMBIOS
# parser (the machine's identity) and the lib/ utilities they use.

EFI_LIBDIR := /usr/lib
EFI_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -MMD -MP -ffreestanding -fno-builtin -fpic \
	-fshort-wchar -fno-stack-protector -fno-stack-check -mno-red-zone -maccumulate-outgoing-args \
	-DGNU_EFI_USE_MS_ABI -I/usr/include/efi -I/usr/include/efi/x86_64 -Ilib
# lib/badram/fold_json.c is left out: the pre-loader writes no JSON.
EFI_SRCS := $(sort $(wildcard efi/*.c)) lib/reserve/reserve.c $(sort $(wildcard lib/record/*.c)) \
	$(filter-out lib/badram/fold_json.c,$(sort $(wildcard lib/badram/*.c))) lib/boot/smbios.c \
	lib/run/status.c lib/crc32.c lib/escape.c lib/fmt.c lib/parse.c lib/range.c lib/memstr.c
# The fold counts bits with __builtin_popcountll: libgcc's __popcountdi2,
# as in the image (no popcnt instruction assumed).
EFI_LIBGCC := $(shell $(CC) -print-libgcc-file-name)
EFI_OBJS := $(patsubst %,$(B)/efi/%.o,$(EFI_SRCS))

$(B)/efi/%.c.o: %.c
	$(call say,EFICC,$<)mkdir -p $(@D) && $(CC) $(EFI_CFLAGS) -c $< -o $@
$(B)/efi/ramsift-reserve.so: $(EFI_OBJS)
	$(call say,EFILD,$@)ld -nostdlib -shared --no-undefined -Bsymbolic -znocombreloc -T $(EFI_LIBDIR)/elf_x86_64_efi.lds \
		$(EFI_LIBDIR)/crt0-efi-x86_64.o $^ -o $@ -L$(EFI_LIBDIR) -lefi -lgnuefi $(EFI_LIBGCC)
$(B)/ramsift-reserve.efi: $(B)/efi/ramsift-reserve.so
	$(call say,OBJCOPY,$@)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@

# `make efi`: apart from `make` (whose one output stays build/ramsift.elf).
.PHONY: efi
efi: $(B)/ramsift-reserve.efi

# tests/e2e/roundtrip/efi-reserve.sh and nvram-preloader.sh boot it under
# OVMF; nvram-preloader.sh plants records (mk/record.mk) in the variables
# (mk/varstore.mk) first.
RT_DEPS += $(B)/ramsift-reserve.efi $(B)/host/ramsift-mkrecord $(B)/host/ramsift-varstore
