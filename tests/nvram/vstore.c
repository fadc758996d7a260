// SPDX-License-Identifier: GPL-2.0-or-later
// The variable store of an OVMF VARS file: parsing that trusts no length,
// and edits that only append in erased space and clear State bits, as the
// firmware's writes do (see vstore.h). Offsets and field positions are
// EDK II's; every multi-byte field is little-endian.
#include "vstore.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// EFI_FIRMWARE_VOLUME_HEADER (PI spec vol. 3, 3.2.1): field offsets.
#define FV_FILE_SYSTEM_GUID 16
#define FV_LENGTH 32
#define FV_SIGNATURE 40
#define FV_HEADER_LENGTH 48
#define FV_REVISION 55
#define FV_BLOCK_MAP 56
#define FV_BLOCK_ENTRY 8	// NumBlocks, Length: two UINT32
#define FV_MIN_HEADER (FV_BLOCK_MAP + 2 * FV_BLOCK_ENTRY)	// one entry and the {0,0} end

// VARIABLE_STORE_HEADER: the signature GUID, Size, Format, State, reserved.
#define STORE_SIZE 16
#define STORE_FORMAT 20
#define STORE_STATE 21
#define STORE_HEADER 28
#define STORE_FORMATTED 0x5a
#define STORE_HEALTHY 0xfe

// VARIABLE_HEADER and AUTHENTICATED_VARIABLE_HEADER: the fields both have
// at the same place, then those that move.
#define VAR_START_ID 0
#define VAR_STATE 2
#define VAR_ATTRIBUTES 4
#define VAR_DATA_START 0x55aa
#define VAR_ERASED_ID 0xffff
#define AUTH_HEADER 60		// + MonotonicCount, TimeStamp, PubKeyIndex
#define AUTH_NAME_SIZE 36
#define PLAIN_HEADER 32
#define PLAIN_NAME_SIZE 8
#define HEADER_ALIGNMENT 4	// VariableFormat.h's HEADER_ALIGNMENT

// EFI_FAULT_TOLERANT_WORKING_BLOCK_HEADER (SystemNvDataGuid.h): the
// signature GUID, a CRC, a state byte, WriteQueueSize; then the queue, write
// headers (a state byte, the caller's GUID, NumberOfWrites,
// PrivateDataSize) each followed by its records (a state byte, Lba, Offset,
// Length, RelativeOffset, private data). State bits are 0 once reached.
#define FTW_BLOCK_ALIGN 0x1000
#define FTW_QUEUE_SIZE 24
#define FTW_WORKING_HEADER 32
#define FTW_WRITE_HEADER 40
#define FTW_NUMBER_OF_WRITES 24
#define FTW_PRIVATE_DATA_SIZE 32
#define FTW_RECORD 40
#define FTW_LBA 8
#define FTW_OFFSET 16
#define FTW_LENGTH 24
#define FTW_HEADER_ALLOCATED 0x1
#define FTW_COMPLETE 0x4
#define FTW_SPARE_COMPLETE 0x2
#define FTW_DESTINATION_COMPLETE 0x4

static const uint8_t ftw_working_block_guid[VS_GUID_BYTES] = {	// 9e58292b-7c68-497d-a0ce-6500fd9f1b95
	0x2b, 0x29, 0x58, 0x9e, 0x68, 0x7c, 0x7d, 0x49, 0xa0, 0xce, 0x65, 0x00, 0xfd, 0x9f, 0x1b, 0x95 };
static const uint8_t system_nv_data_fv_guid[VS_GUID_BYTES] = {	// fff12b8d-7696-4c8b-a985-2747075b4f50
	0x8d, 0x2b, 0xf1, 0xff, 0x96, 0x76, 0x8b, 0x4c, 0xa9, 0x85, 0x27, 0x47, 0x07, 0x5b, 0x4f, 0x50 };
static const uint8_t auth_store_guid[VS_GUID_BYTES] = {		// aaf32c78-947b-439a-a180-2e144ec37792
	0x78, 0x2c, 0xf3, 0xaa, 0x7b, 0x94, 0x9a, 0x43, 0xa1, 0x80, 0x2e, 0x14, 0x4e, 0xc3, 0x77, 0x92 };
static const uint8_t plain_store_guid[VS_GUID_BYTES] = {	// ddcf3616-3275-4164-98b6-fe85707ffe7d
	0x16, 0x36, 0xcf, 0xdd, 0x75, 0x32, 0x64, 0x41, 0x98, 0xb6, 0xfe, 0x85, 0x70, 0x7f, 0xfe, 0x7d };

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }

static uint64_t align_header(uint64_t n) { return (n + HEADER_ALIGNMENT - 1) & ~(uint64_t)(HEADER_ALIGNMENT - 1); }

__attribute__((format(printf, 3, 4)))
static bool fail(struct vs_error *err, size_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof err->text, fmt, ap);
	va_end(ap);
	err->off = off;
	return false;
}

// The 16-bit words of the volume header sum to 0 (PI spec: Checksum).
static bool fv_checksum_ok(const uint8_t *fv, size_t header_len)
{
	uint16_t sum = 0;
	for (size_t i = 0; i + 1 < header_len; i += 2)
		sum = (uint16_t)(sum + get16(fv + i));
	return sum == 0;
}

// The block map: {NumBlocks, Length} runs ending in {0, 0} inside the
// header, covering exactly the volume.
static bool fv_block_map_ok(const uint8_t *fv, size_t header_len, uint64_t fv_len)
{
	uint64_t covered = 0;
	for (size_t at = FV_BLOCK_MAP; at + FV_BLOCK_ENTRY <= header_len; at += FV_BLOCK_ENTRY) {
		uint64_t blocks = get32(fv + at), length = get32(fv + at + 4);
		if (blocks == 0 && length == 0)
			return covered == fv_len;
		if (blocks * length > fv_len - covered)	// each product fits 64 bits
			return false;
		covered += blocks * length;
	}
	return false;
}

static bool parse_volume(struct vs_store *s, struct vs_error *err)
{
	const uint8_t *f = s->file;
	if (s->file_len < FV_MIN_HEADER)
		return fail(err, 0, "the file is %zu bytes, shorter than a firmware volume header", s->file_len);
	if (memcmp(f + FV_SIGNATURE, "_FVH", 4) != 0)
		return fail(err, FV_SIGNATURE, "no firmware volume signature \"_FVH\": not an OVMF VARS file");
	if (memcmp(f + FV_FILE_SYSTEM_GUID, system_nv_data_fv_guid, VS_GUID_BYTES) != 0)
		return fail(err, FV_FILE_SYSTEM_GUID, "the volume's file system GUID is not the system NV data one");
	uint64_t fv_len = get64(f + FV_LENGTH);
	size_t header_len = get16(f + FV_HEADER_LENGTH);
	if (fv_len > s->file_len)
		return fail(err, FV_LENGTH, "the volume is %llu bytes but the file only %zu: truncated",
			    (unsigned long long)fv_len, s->file_len);
	if (header_len < FV_MIN_HEADER || header_len % 2 || header_len + STORE_HEADER > fv_len)
		return fail(err, FV_HEADER_LENGTH, "a volume HeaderLength of %zu bytes does not fit the volume", header_len);
	if (f[FV_REVISION] != 2)
		return fail(err, FV_REVISION, "volume header revision %u, not 2", f[FV_REVISION]);
	if (!fv_checksum_ok(f, header_len))
		return fail(err, 0, "the volume header's checksum does not sum to 0");
	if (!fv_block_map_ok(f, header_len, fv_len))
		return fail(err, FV_BLOCK_MAP, "the volume's block map does not end in {0,0} or cover its %llu bytes",
			    (unsigned long long)fv_len);
	s->fv_len = fv_len;
	s->store_off = header_len;
	return true;
}

static bool parse_store_header(struct vs_store *s, struct vs_error *err)
{
	const uint8_t *h = s->file + s->store_off;
	if (memcmp(h, auth_store_guid, VS_GUID_BYTES) == 0)
		s->auth = true;
	else if (memcmp(h, plain_store_guid, VS_GUID_BYTES) == 0)
		s->auth = false;
	else
		return fail(err, s->store_off, "the variable store's signature is neither the authenticated nor the plain variable GUID");
	if (h[STORE_FORMAT] != STORE_FORMATTED || h[STORE_STATE] != STORE_HEALTHY)
		return fail(err, s->store_off + STORE_FORMAT, "the variable store is not formatted and healthy (0x%02x 0x%02x, want 0x5a 0xfe)",
			    h[STORE_FORMAT], h[STORE_STATE]);
	uint64_t size = get32(h + STORE_SIZE);
	if (size < STORE_HEADER || size > s->fv_len - s->store_off)
		return fail(err, s->store_off + STORE_SIZE, "a variable store Size of %llu bytes does not fit the volume's %zu after its header",
			    (unsigned long long)size, s->fv_len - s->store_off);
	s->store_size = size;
	s->end = s->store_off + size;
	s->first = align_header(s->store_off + STORE_HEADER);
	s->header_size = s->auth ? AUTH_HEADER : PLAIN_HEADER;
	return true;
}

static bool all_ones(uint64_t v, unsigned bytes) { return v == (bytes == 1 ? 0xffu : 0xffffffffu); }

// The variable whose header is at off (StartId 0x55AA, checked).
static bool parse_var(const struct vs_store *s, size_t off, struct vs_var *v, struct vs_error *err)
{
	const uint8_t *h = s->file + off;
	size_t room = s->end - off;
	if (room < s->header_size)
		return fail(err, off, "a variable header of %zu bytes runs past the store's end at 0x%zx", s->header_size, s->end);
	size_t sizes = s->auth ? AUTH_NAME_SIZE : PLAIN_NAME_SIZE;
	*v = (struct vs_var){ .off = off, .state = h[VAR_STATE], .attributes = get32(h + VAR_ATTRIBUTES),
			      .name_size = get32(h + sizes), .data_size = get32(h + sizes + 4) };
	memcpy(v->guid, h + sizes + 8, VS_GUID_BYTES);
	v->name_off = off + s->header_size;
	// As the firmware's NameSizeOfVariable: a field still erased means no
	// name and no data were written.
	v->partial = all_ones(v->state, 1) || all_ones(v->attributes, 4) || all_ones(v->name_size, 4) ||
		     all_ones(v->data_size, 4);
	uint64_t name = v->partial ? 0 : v->name_size, data = v->partial ? 0 : v->data_size;
	if (!v->partial && (name < 2 || name % 2))
		return fail(err, off, "a NameSize of %llu bytes is no UCS-2 name with its NUL", (unsigned long long)name);
	if (s->header_size + name + data > room)
		return fail(err, off, "a variable of %llu name and %llu data bytes runs past the store's end at 0x%zx",
			    (unsigned long long)name, (unsigned long long)data, s->end);
	if (name && get16(s->file + v->name_off + name - 2) != 0)
		return fail(err, v->name_off, "the variable's name does not end in a NUL");
	v->data_off = v->name_off + name;
	uint64_t next = align_header(v->data_off + data);
	v->size = (next < s->end ? next : s->end) - off;
	return true;
}

static bool add_var(struct vs_store *s, const struct vs_var *v, size_t *cap)
{
	if (s->nvars == *cap) {
		size_t more = *cap ? 2 * *cap : 64;
		struct vs_var *grown = realloc(s->var, more * sizeof *grown);
		if (!grown)
			return false;
		s->var = grown;
		*cap = more;
	}
	s->var[s->nvars++] = *v;
	return true;
}

static bool parse_vars(struct vs_store *s, struct vs_error *err)
{
	size_t off = s->first, cap = 0;
	while (off < s->end && s->end - off >= 2) {
		uint16_t id = get16(s->file + off + VAR_START_ID);
		if (id == VAR_ERASED_ID)
			break;
		if (id != VAR_DATA_START)
			return fail(err, off, "StartId 0x%04x: neither a variable (0x55AA) nor erased flash (0xFFFF)", id);
		struct vs_var v;
		if (!parse_var(s, off, &v, err))
			return false;
		if (!add_var(s, &v, &cap))
			return fail(err, off, "out of memory for %zu variables", s->nvars);
		off += v.size;
	}
	s->tail = off < s->end ? off : s->end;
	for (size_t i = s->tail; i < s->end; i++)
		if (s->file[i] != 0xff)
			return fail(err, i, "byte 0x%02x after the last variable (at 0x%zx) is not erased flash: the firmware would reclaim the store",
				    s->file[i], s->tail);
	return true;
}

// The first record of the write at header h whose target is not done: if
// its spare copy is, the write is pending (FaultTolerantWriteDxe's init).
static void ftw_last_record(struct vs_store *s, size_t h, uint64_t writes, uint64_t record)
{
	for (uint64_t i = 0; i < writes; i++) {
		const uint8_t *r = s->file + h + FTW_WRITE_HEADER + i * record;
		if (!(r[0] & FTW_DESTINATION_COMPLETE))
			continue;
		if (!(r[0] & FTW_SPARE_COMPLETE)) {
			s->ftw = VS_FTW_PENDING;
			s->ftw_lba = get64(r + FTW_LBA);
			s->ftw_offset = get64(r + FTW_OFFSET);
			s->ftw_length = get64(r + FTW_LENGTH);
		}
		return;
	}
}

// The write queue from off: done writes, then the last one, allocated or not.
static bool parse_ftw_queue(struct vs_store *s, size_t off, struct vs_error *err)
{
	uint64_t size = get64(s->file + off + FTW_QUEUE_SIZE);
	if (size > s->fv_len - off - FTW_WORKING_HEADER)
		return fail(err, off + FTW_QUEUE_SIZE, "the FTW write queue of %llu bytes runs past the volume",
			    (unsigned long long)size);
	size_t h = off + FTW_WORKING_HEADER, end = h + size;
	while (end - h >= FTW_WRITE_HEADER) {
		const uint8_t *w = s->file + h;
		uint64_t writes = get64(w + FTW_NUMBER_OF_WRITES), private = get64(w + FTW_PRIVATE_DATA_SIZE);
		uint64_t record = FTW_RECORD + (private < size ? private : size);	// no wrap
		if (w[0] & FTW_HEADER_ALLOCATED)
			break;
		if (private > size || writes > size || writes * record > end - h - FTW_WRITE_HEADER)
			return fail(err, h, "an FTW write of %llu records of %llu bytes runs past its queue",
				    (unsigned long long)writes, (unsigned long long)record);
		if (w[0] & FTW_COMPLETE) {
			ftw_last_record(s, h, writes, record);
			break;
		}
		h += FTW_WRITE_HEADER + writes * record;
	}
	return true;
}

static bool parse_ftw(struct vs_store *s, struct vs_error *err)
{
	s->ftw = VS_FTW_ABSENT;
	for (size_t off = (s->end + FTW_BLOCK_ALIGN - 1) & ~(size_t)(FTW_BLOCK_ALIGN - 1);
	     off < s->fv_len && s->fv_len - off >= FTW_WORKING_HEADER; off += FTW_BLOCK_ALIGN) {
		if (memcmp(s->file + off, ftw_working_block_guid, VS_GUID_BYTES) != 0)
			continue;
		s->ftw = VS_FTW_IDLE;
		s->ftw_off = off;
		return parse_ftw_queue(s, off, err);
	}
	return true;
}

static bool same_variable(const struct vs_store *s, const struct vs_var *v, const uint8_t *name,
			  size_t name_size, const uint8_t *guid)
{
	return !v->partial && v->name_size == name_size && memcmp(v->guid, guid, VS_GUID_BYTES) == 0 &&
	       memcmp(s->file + v->name_off, name, name_size) == 0;
}

static bool has_added_copy(const struct vs_store *s, const struct vs_var *v)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (s->var[i].state == VS_ADDED &&
		    same_variable(s, &s->var[i], s->file + v->name_off, v->name_size, v->guid))
			return true;
	return false;
}

// Live: what QueryVariableInfo counts while boot services run.
static void mark_live(struct vs_store *s)
{
	for (size_t i = 0; i < s->nvars; i++) {
		struct vs_var *v = &s->var[i];
		v->live = !v->partial && (v->state == VS_ADDED ||
			  (v->state == (VS_ADDED & VS_IN_DELETED_TRANSITION) && !has_added_copy(s, v)));
	}
}

bool vs_parse(struct vs_store *s, uint8_t *file, size_t len, struct vs_error *err)
{
	*s = (struct vs_store){ .file = file, .file_len = len };
	if (!parse_volume(s, err) || !parse_store_header(s, err) || !parse_vars(s, err) || !parse_ftw(s, err)) {
		vs_release(s);
		return false;
	}
	mark_live(s);
	return true;
}

void vs_release(struct vs_store *s)
{
	free(s->var);
	s->var = NULL;
	s->nvars = 0;
}

// After an edit: the store must parse as before, or the edit is wrong.
static void reparse(struct vs_store *s)
{
	struct vs_error err;
	vs_release(s);
	if (!vs_parse(s, s->file, s->file_len, &err)) {
		fprintf(stderr, "ramsift-varstore: internal error: an edit left the store unreadable at 0x%zx: %s\n",
			err.off, err.text);
		abort();
	}
}

const struct vs_var *vs_find(const struct vs_store *s, const uint8_t *name, size_t name_size,
			     const uint8_t *guid)
{
	const struct vs_var *replaced = NULL;
	for (size_t i = 0; i < s->nvars; i++) {
		const struct vs_var *v = &s->var[i];
		if (!v->live || !same_variable(s, v, name, name_size, guid))
			continue;
		if (v->state == VS_ADDED)
			return v;
		replaced = v;
	}
	return replaced;
}

uint64_t vs_space(const struct vs_store *s)
{
	return s->store_size - STORE_HEADER;
}

uint64_t vs_live_bytes(const struct vs_store *s)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < s->nvars; i++)
		sum += s->var[i].live ? s->var[i].size : 0;
	return sum;
}

uint64_t vs_remaining(const struct vs_store *s)
{
	uint64_t live = vs_live_bytes(s);
	return live < vs_space(s) ? vs_space(s) - live : 0;
}

uint64_t vs_entry_size(const struct vs_store *s, uint64_t name_size, uint64_t data_size)
{
	return align_header(s->header_size + name_size + data_size);
}

// Clear the State bits of mask's zeros in every live copy; how many bytes
// those copies took.
static uint64_t clear_state(struct vs_store *s, const uint8_t *name, size_t name_size,
			    const uint8_t *guid, uint8_t mask, bool write)
{
	uint64_t bytes = 0;
	for (size_t i = 0; i < s->nvars; i++) {
		struct vs_var *v = &s->var[i];
		if (!v->live || !same_variable(s, v, name, name_size, guid))
			continue;
		bytes += v->size;
		if (write)
			s->file[v->off + VAR_STATE] &= mask;
	}
	return bytes;
}

// Write the variable at the tail, which the caller made room for.
static void append(struct vs_store *s, const uint8_t *name, size_t name_size, const uint8_t *guid,
		   uint32_t attributes, const uint8_t *data, size_t data_size)
{
	uint8_t *h = s->file + s->tail;
	size_t sizes = s->auth ? AUTH_NAME_SIZE : PLAIN_NAME_SIZE;
	// Reserved, the monotonic count, the time stamp and the key index are
	// zero, as the firmware writes them for a variable without time-based
	// authentication; the padding after the data stays erased.
	memset(h, 0, s->header_size);
	put16(h + VAR_START_ID, VAR_DATA_START);
	h[VAR_STATE] = VS_ADDED;
	put32(h + VAR_ATTRIBUTES, attributes);
	put32(h + sizes, (uint32_t)name_size);
	put32(h + sizes + 4, (uint32_t)data_size);
	memcpy(h + sizes + 8, guid, VS_GUID_BYTES);
	memcpy(h + s->header_size, name, name_size);
	if (data_size)
		memcpy(h + s->header_size + name_size, data, data_size);
}

bool vs_set(struct vs_store *s, const uint8_t *name, size_t name_size, const uint8_t *guid,
	    uint32_t attributes, const uint8_t *data, size_t data_size)
{
	uint64_t entry = vs_entry_size(s, name_size, data_size);
	uint64_t kept = vs_live_bytes(s) - clear_state(s, name, name_size, guid, 0xff, false);
	uint64_t room = s->end - s->first < vs_space(s) ? s->end - s->first : vs_space(s);
	if (kept + entry > room)
		return false;
	// The firmware's end state of a replaced copy: in deleted transition,
	// then deleted.
	clear_state(s, name, name_size, guid, VS_IN_DELETED_TRANSITION & VS_DELETED, true);
	reparse(s);
	if (s->end - s->tail < entry)
		vs_reclaim(s);
	append(s, name, name_size, guid, attributes, data, data_size);
	reparse(s);
	return true;
}

bool vs_delete(struct vs_store *s, const uint8_t *name, size_t name_size, const uint8_t *guid)
{
	if (!clear_state(s, name, name_size, guid, VS_DELETED, true))
		return false;
	reparse(s);
	return true;
}

// Copy the variables that keep (added ones, or live ones being replaced)
// to out; the bytes copied.
static size_t copy_kept(const struct vs_store *s, uint8_t *out, bool added)
{
	size_t at = 0;
	for (size_t i = 0; i < s->nvars; i++) {
		const struct vs_var *v = &s->var[i];
		if (!v->live || (v->state == VS_ADDED) != added)
			continue;
		memcpy(out + at, s->file + v->off, v->size);
		out[at + VAR_STATE] = VS_ADDED;	// as the firmware promotes one being replaced
		at += v->size;
	}
	return at;
}

void vs_reclaim(struct vs_store *s)
{
	size_t len = s->end - s->first;
	uint8_t *out = malloc(len);
	if (!out) {
		fprintf(stderr, "ramsift-varstore: out of memory for %zu bytes\n", len);
		exit(3);
	}
	memset(out, 0xff, len);
	size_t at = copy_kept(s, out, true);
	copy_kept(s, out + at, false);
	memcpy(s->file + s->first, out, len);
	free(out);
	reparse(s);
}
