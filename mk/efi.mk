# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift-reserve.efi, the UEFI pre-loader that reserves bad pages before
# the boot loader runs (docs/badram.md, "Before GRUB: ramsift-reserve.efi"):
# built with gnu-efi the way gnu-efi's own applications are, an ELF shared
# object turned into a PE32+ EFI application by objcopy. lib/reserve (and
# the lib/ utilities it uses) is compiled again for it, position-independent.

EFI_LIBDIR := /usr/lib
EFI_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -MMD -MP -ffreestanding -fno-builtin -fpic \
	-fshort-wchar -fno-stack-protector -fno-stack-check -mno-red-zone -maccumulate-outgoing-args \
	-DGNU_EFI_USE_MS_ABI -I/usr/include/efi -I/usr/include/efi/x86_64 -Ilib
EFI_SRCS := efi/ramsift-reserve.c lib/reserve/reserve.c lib/parse.c lib/string.c
EFI_OBJS := $(patsubst %,$(B)/efi/%.o,$(EFI_SRCS))

$(B)/efi/%.c.o: %.c
	$(call say,EFICC,$<)mkdir -p $(@D) && $(CC) $(EFI_CFLAGS) -c $< -o $@
$(B)/efi/ramsift-reserve.so: $(EFI_OBJS)
	$(call say,EFILD,$@)ld -nostdlib -shared -Bsymbolic -znocombreloc -T $(EFI_LIBDIR)/elf_x86_64_efi.lds \
		$(EFI_LIBDIR)/crt0-efi-x86_64.o $^ -o $@ -L$(EFI_LIBDIR) -lefi -lgnuefi
$(B)/ramsift-reserve.efi: $(B)/efi/ramsift-reserve.so
	$(call say,OBJCOPY,$@)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@

# `make efi`: apart from `make` (whose one output stays build/ramsift.elf).
.PHONY: efi
efi: $(B)/ramsift-reserve.efi

# tests/e2e/roundtrip/efi-reserve.sh boots it under OVMF.
check-roundtrip: $(B)/ramsift-reserve.efi

# Fuzzing lib/reserve's parser and runs (tests/fuzz/fuzz_reserve.c), as
# mk/fuzz.mk does the firmware-table parsers: `make fuzz-reserve
# [FUZZ_TIME=60]` with clang and libFuzzer (not part of make check);
# check-fuzz-reserve replays the committed corpus with gcc (check-host).
FUZZ_RESERVE_SRCS := tests/fuzz/fuzz_reserve.c lib/reserve/reserve.c lib/parse.c lib/string.c
FUZZ_RESERVE_CORPUS := $(sort $(wildcard tests/fuzz/corpus/reserve/*))

$(B)/fuzz/fuzz_reserve: $(FUZZ_RESERVE_SRCS) $(wildcard lib/*.h lib/reserve/*.h)
	$(FUZZ_NEED_CC)
	$(call say,CLANG,$@)mkdir -p $(@D) && $(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_RESERVE_SRCS)
$(B)/host/fuzz/replay_reserve: tests/fuzz/fuzz_reserve.c tests/fuzz/replay.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -o $@ \
		tests/fuzz/fuzz_reserve.c tests/fuzz/replay.c $(HOST_LINK) $(HOST_LDFLAGS)

.PHONY: fuzz-reserve check-fuzz-reserve
fuzz-reserve: $(B)/fuzz/fuzz_reserve
	$(Q)mkdir -p $(B)/fuzz/reserve-corpus
	$(Q)$< -max_total_time=$(FUZZ_TIME) -max_len=4096 -print_final_stats=1 \
		-artifact_prefix=$(B)/fuzz/ $(B)/fuzz/reserve-corpus tests/fuzz/corpus/reserve
check-fuzz-reserve: $(B)/host/fuzz/replay_reserve
	$(Q)$< $(FUZZ_RESERVE_CORPUS)

HOST_CHECKS += check-fuzz-reserve
