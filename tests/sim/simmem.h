// SPDX-License-Identifier: GPL-2.0-or-later
// A simulated memory of 64-bit words at a chosen physical window, with at most
// one injected fault from van de Goor's functional models (stuck-at,
// transition, address-decoder, coupling, data retention). The memory tests
// reach it through tests/sim/memrw.h; unit tests and the coverage simulator
// set it up and inspect it here. Host-only, one static instance; simulated
// CPUs (tests/sim/par.c) take turns on one thread, each with its own cache
// in the flush check (sim_set_cpu), switched between any two accesses by a
// hook (sim_set_tick). A cell is one bit; address-decoder faults act on whole
// words, as a decoder serves every bit of a word; a coupling acts after the
// write that triggers it, also inside one word, or intra-word coupling could
// never be observed.
#ifndef RAMSIFT_TESTS_SIM_SIMMEM_H
#define RAMSIFT_TESTS_SIM_SIMMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Largest simulated memory, in words.
#define SIM_MAX_WORDS (1u << 20) // 8 MiB: room for more than one chunk

// Simulated CPUs, each with its own cache (sim_set_cpu).
#define SIM_MAX_CPUS 64

enum sim_kind {
	SIM_NONE,
	SIM_SAF,      // cell (vword, vbit) is stuck at value
	SIM_TF,       // cell (vword, vbit) cannot go 0->1 (up) or 1->0 (!up)
	SIM_AF_ALIAS, // address of vword reaches aword's cell; vword's cell is
		      // unreachable (two addresses to one cell)
	SIM_AF_NONE,  // address of vword reaches no cell: writes are lost, reads
		      // float to all-ones (value) or all-zeros (!value)
	SIM_AF_MULTI, // address of vword reaches cells vword and aword: writes go
		      // to both, reads return their wired-OR (value) or AND (!value)
	SIM_ALINE,    // word-address line abit stuck at value: every word whose
		      // index differs in that bit reaches the wrong cell
	SIM_CFIN,     // an up (or down, !up) transition of cell (aword, abit)
		      // inverts cell (vword, vbit)
	SIM_CFID,     // an up (or down) transition of the aggressor sets the
		      // victim to value
	SIM_CFST,     // while the aggressor holds state, the victim is forced to
		      // value
	SIM_RET,      // cell (vword, vbit) decays to value delay_s simulated
		      // seconds after its word was last written
};

struct sim_fault {
	enum sim_kind kind;
	size_t vword;     // victim word (or the faulty address, for AF)
	unsigned vbit;    // victim bit, 0..63
	size_t aword;     // aggressor word (CF) or the other cell (AF)
	unsigned abit;    // aggressor bit (CF) or address line (ALINE)
	bool up;          // TF, CFin, CFid: which transition
	bool state;       // CFst: aggressor state that forces the victim
	bool value;       // the forced, stuck, floating or decayed value
	uint32_t delay_s; // RET
};

// Start over: nwords words (1..SIM_MAX_WORDS) at physical address base
// (8-byte aligned, base + 8 * nwords - 1 representable), filled with
// pseudo-random contents from seed, no fault, simulated time 0, access
// counters 0, CPU 0, every cache clean, no tick, strict discipline.
void sim_reset(uint64_t base, size_t nwords, uint64_t seed);

// The CPU (0..SIM_MAX_CPUS-1) whose accesses follow. The cache discipline is
// per CPU: a cached store sits in the cache of the CPU that made it until
// that CPU flushes (mem_flush_cache), and a load of it before then, by any
// CPU, is a bug in the test (hardware would serve it from a cache).
void sim_set_cpu(unsigned cpu);

// Call tick before every load and store (NULL: none). The parallel driver
// switches CPUs from it.
void sim_set_tick(void (*tick)(void));

// strict (the default): a broken cache discipline aborts the program with a
// message. Not strict: it is only counted (sim_discipline_breaks), so a unit
// test can show that a schedule breaks it.
void sim_set_strict(bool strict);
uint64_t sim_discipline_breaks(void);

// Simulated seconds since sim_reset.
uint64_t sim_now(void);

// Keep (or, by default, not) a digest per word of the accesses to it since
// sim_reset or this call: the kind (load, cached store, non-temporal store)
// and the value stored, in order. Two runs that make the same accesses to a
// word, in the same order, leave the same digest, whatever they do to other
// words in between.
void sim_set_history(bool on);
uint64_t sim_history(size_t word);

// Inject f (replacing any earlier fault); a fault naming a word or bit outside
// the memory aborts. Effects that hold from the start (a stuck cell, a state
// coupling) are applied to the current contents at once.
void sim_inject(const struct sim_fault *f);

// The physical address of word index word.
uint64_t sim_addr(size_t word);

// The raw contents of cell word, bypassing decoder, cache check and faults.
uint64_t sim_cell(size_t word);

// Let seconds of simulated time pass (retention faults decay). Memory
// accesses take no simulated time.
void sim_sleep(uint32_t seconds);

// Loads and stores made since sim_reset.
uint64_t sim_reads(void);
uint64_t sim_writes(void);

#endif
