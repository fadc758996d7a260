// SPDX-License-Identifier: GPL-2.0-or-later
// The 32-bit entry's checks and its only way to speak: called from
// boot/entry.S in 32-bit protected mode, paging off, interrupts off, on the
// boot stack, with EBP = load address - link address (every address here is
// the link address plus EBP: the image is position independent there).
// check_cpu halts naming every CPU feature ramsift needs and the CPU lacks;
// check_image_ram halts when the loader's memory information has no RAM
// where the image lies; die32 prints a message on COM1 and the VGA text
// screen and halts.

#include "boot/multiboot.h"
#include "x86/layout.h"

#define COM1		0x3f8
#define EFLAGS_ID	(1 << 21)
// CPUID leaf 1, EDX (SDM vol. 2A, CPUID, "Feature Information"): what the
// image uses unconditionally: rdtsc (the timer, the seed), rdmsr/wrmsr
// (EFER in boot/entry.S, the APIC and PAT in C), PAE (long mode's page
// tables), and SSE2's movnti and mfence (src/x86/memrw.h, io.h).
#define CPUID1_TSC	4
#define CPUID1_MSR	5
#define CPUID1_PAE	6
#define CPUID1_SSE2	26
#define CPUID_EXT_LM	29		// leaf 0x80000001, EDX
#define MB1_INFO_MEMORY	(1 << 0)	// Multiboot 1 spec 3.3: mem_lower/upper
#define MB1_INFO_MMAP	(1 << 6)	// mmap_length/mmap_addr
#define MMAP_USABLE_TYPE 1

	.section .boot.text, "ax"
	.code32
	.globl check_cpu, check_image_ram, die32

// need_bit REG, BIT, MSG: unless bit BIT of REG is set, print MSG and count
// it in EDI.
.macro need_bit reg, bit, msg
	test	$(1 << \bit), \reg
	jnz	9f
	lea	\msg(%ebp), %eax
	call	say32
	inc	%edi
9:
.endm

// Halt with a message naming every CPU feature ramsift needs and this CPU
// lacks: CPUID itself (EFLAGS.ID cannot be toggled on a CPU without it),
// then leaf 1's features, then long mode. Clobbers EAX-EDX, EDI.
check_cpu:
	pushfl
	pop	%eax
	mov	%eax, %ecx
	xor	$EFLAGS_ID, %eax
	push	%eax
	popfl
	pushfl
	pop	%eax
	push	%ecx
	popfl
	xor	%ecx, %eax
	test	$EFLAGS_ID, %eax
	jnz	1f
	lea	msg_no_cpuid(%ebp), %eax
	jmp	die32
1:	xor	%edi, %edi			// features missing
	xor	%eax, %eax
	cpuid
	xor	%edx, %edx			// no leaf 1: no feature
	test	%eax, %eax
	jz	2f
	mov	$1, %eax
	cpuid
2:	need_bit %edx, CPUID1_PAE, msg_no_pae
	need_bit %edx, CPUID1_TSC, msg_no_tsc
	need_bit %edx, CPUID1_MSR, msg_no_msr
	need_bit %edx, CPUID1_SSE2, msg_no_sse2
	mov	$0x80000000, %eax
	cpuid
	xor	%edx, %edx
	cmp	$0x80000001, %eax
	jb	3f
	mov	$0x80000001, %eax
	cpuid
3:	need_bit %edx, CPUID_EXT_LM, msg_no_lm
	test	%edi, %edi
	jnz	4f
	ret
4:	lea	msg_cpu_end(%ebp), %eax
	jmp	die32

// Halt with a message when the loader's memory information has usable RAM
// but none holding the image [load address, image_end_phys): QEMU loads it
// with -m 2M, where it does not fit, and ramsift would run on memory that
// is not there, silently. A map (Multiboot 1 mmap, Multiboot 2 tag 6) or
// mem_upper (Multiboot 1 flag 0, Multiboot 2 tag 4) gives the ranges; with
// neither the check is left to C. EBX: the boot information; ESI: the magic.
// Clobbers EAX-EDX, EDI.
check_image_ram:
	xor	%edi, %edi			// usable ranges seen
	cmp	$MB1_BOOT_MAGIC, %esi
	jne	5f
	mov	(%ebx), %ecx			// Multiboot 1 flags
	test	$MB1_INFO_MEMORY, %ecx
	jz	1f
	mov	8(%ebx), %edx			// mem_upper, KiB from 1 MiB
	call	upper_covers
1:	testl	$MB1_INFO_MMAP, (%ebx)
	jz	4f
	mov	48(%ebx), %ecx			// mmap_addr
	mov	44(%ebx), %eax
	lea	(%ecx,%eax), %edx		// its end
2:	cmp	%edx, %ecx
	jae	4f
	push	%edx
	lea	4(%ecx), %eax			// base, length, type after the size
	call	entry_covers
	pop	%edx
	mov	(%ecx), %eax			// size: the entry's bytes after it
	lea	4(%ecx,%eax), %ecx
	jmp	2b
4:	cmpl	$0, image_in_ram(%ebp)
	jne	3f
	test	%edi, %edi
	jnz	no_ram
3:	ret
5:	mov	(%ebx), %edx			// Multiboot 2: total_size
	lea	(%ebx,%edx), %edx
	lea	8(%ebx), %ecx			// the first tag
6:	lea	8(%ecx), %eax
	cmp	%edx, %eax
	ja	4b
	mov	(%ecx), %eax			// tag type
	test	%eax, %eax
	jz	4b
	cmp	$MB2_TAG_MEMINFO, %eax
	jne	7f
	push	%edx
	mov	12(%ecx), %edx			// mem_upper
	call	upper_covers
	pop	%edx
7:	cmp	$MB2_TAG_MMAP, %eax
	jne	9f
	push	%ecx
	push	%edx
	mov	4(%ecx), %edx			// tag size
	lea	(%ecx,%edx), %edx		// the tag's end
	mov	8(%ecx), %eax			// entry_size
	push	%eax
	add	$16, %ecx			// the first entry
8:	lea	24(%ecx), %eax
	cmp	%edx, %eax
	ja	10f
	mov	%ecx, %eax
	call	entry_covers
	add	(%esp), %ecx
	cmpl	$24, (%esp)
	jae	8b
10:	add	$4, %esp
	pop	%edx
	pop	%ecx
9:	mov	4(%ecx), %eax			// next tag: size rounded up to 8
	add	$7, %eax
	and	$~7, %eax
	jz	4b
	add	%eax, %ecx
	jmp	6b

// covers for the usable RAM from 1 MiB, EDX KiB long.
upper_covers:
	push	%eax
	push	%ecx
	mov	%edx, %ecx
	mov	$0x100000, %eax
	cmp	$(0x100000000 - 0x100000) >> 10, %ecx
	jae	1f				// it reaches 4 GiB
	shl	$10, %ecx
	add	%eax, %ecx
	jmp	2f
1:	xor	%ecx, %ecx			// end 0: 4 GiB
2:	call	covers
	pop	%ecx
	pop	%eax
	ret

// The same for a map entry at EAX: u64 base, u64 length, u32 type.
entry_covers:
	push	%eax
	push	%ecx
	push	%edx
	cmpl	$MMAP_USABLE_TYPE, 16(%eax)
	jne	2f
	cmpl	$0, 4(%eax)			// above 4 GiB: no 32-bit image there
	jne	2f
	mov	8(%eax), %ecx
	mov	12(%eax), %edx
	mov	(%eax), %eax
	add	%eax, %ecx
	adc	$0, %edx
	jz	1f
	xor	%ecx, %ecx			// ends at or past 4 GiB
1:	call	covers
2:	pop	%edx
	pop	%ecx
	pop	%eax
	ret

// EAX..ECX (0: 4 GiB) is usable RAM: count it in EDI, and set image_in_ram
// when it holds the image. Clobbers EDX.
covers:
	inc	%edi
	lea	KERNEL_LOAD_PHYS(%ebp), %edx
	cmp	%edx, %eax
	ja	1f
	lea	image_end_phys(%ebp), %edx
	jecxz	2f
	cmp	%ecx, %edx
	ja	1f
2:	movl	$1, image_in_ram(%ebp)
1:	ret

no_ram:
	lea	msg_no_ram(%ebp), %eax
	jmp	die32

// Print the NUL-terminated message at EAX on COM1 and on the VGA text
// screen, below what was printed before. Called only before long mode, when
// nothing else can report. Keeps every register.
say32:
	pushal
	mov	%eax, %esi
	mov	$COM1 + 1, %dx;	mov $0x00, %al;	outb %al, %dx	// no interrupts
	mov	$COM1 + 3, %dx;	mov $0x80, %al;	outb %al, %dx	// DLAB
	mov	$COM1 + 0, %dx;	mov $0x01, %al;	outb %al, %dx	// 115200 baud
	mov	$COM1 + 1, %dx;	mov $0x00, %al;	outb %al, %dx
	mov	$COM1 + 3, %dx;	mov $0x03, %al;	outb %al, %dx	// 8N1
	mov	vga_at(%ebp), %edi
1:	movzbl	(%esi), %ebx
	test	%bl, %bl
	jz	4f
	mov	$100000, %ecx			// bounded wait: the UART may be absent
	mov	$COM1 + 5, %dx
2:	inb	%dx, %al
	test	$0x20, %al
	jnz	3f
	loop	2b
3:	mov	$COM1, %dx
	mov	%bl, %al
	outb	%al, %dx
	cmp	$'\r', %bl
	je	5f
	cmp	$'\n', %bl
	je	6f
	mov	%bl, %al
	mov	$0x4f, %ah			// white on red
	mov	%ax, (%edi)
	add	$2, %edi
	jmp	5f
6:	lea	-VGA_TEXT_PHYS(%edi), %eax	// the next row of cells
	xor	%edx, %edx
	mov	$(VGA_TEXT_COLS * 2), %ecx
	div	%ecx
	inc	%eax
	mul	%ecx
	lea	VGA_TEXT_PHYS(%eax), %edi
5:	inc	%esi
	jmp	1b
4:	mov	%edi, vga_at(%ebp)
	popal
	ret

// say32, then halt.
die32:
	call	say32
1:	cli
	hlt
	jmp	1b

	.section .boot.data, "aw"
vga_at:	.long VGA_TEXT_PHYS		// where say32 writes next
image_in_ram:	.long 0			// check_image_ram found RAM holding the image

msg_no_cpuid:
	.ascii "ramsift: this CPU has no CPUID instruction (a 386 or early 486).\r\n"
	.asciz "ramsift needs an x86-64 CPU; this is not a memory fault. Halted.\r\n"
msg_no_lm:
	.asciz "ramsift: this CPU has no 64-bit long mode.\r\n"
msg_no_pae:
	.asciz "ramsift: this CPU has no PAE (CPUID leaf 1 EDX bit 6), which long mode's page tables need.\r\n"
msg_no_tsc:
	.asciz "ramsift: this CPU has no time-stamp counter (CPUID leaf 1 EDX bit 4), ramsift's clock.\r\n"
msg_no_msr:
	.asciz "ramsift: this CPU has no RDMSR/WRMSR (CPUID leaf 1 EDX bit 5), which long mode needs.\r\n"
msg_no_sse2:
	.asciz "ramsift: this CPU has no SSE2 (CPUID leaf 1 EDX bit 26), whose movnti and mfence the tests use.\r\n"
msg_cpu_end:
	.asciz "ramsift needs an x86-64 CPU with these; this is not a memory fault. Halted.\r\n"
msg_no_ram:
	.ascii "ramsift: too little memory: the loader's memory map has no RAM where ramsift's image lies.\r\n"
	.asciz "Give the machine more memory (ramsift needs about 9 MiB in all). Halted.\r\n"
