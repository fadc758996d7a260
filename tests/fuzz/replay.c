// SPDX-License-Identifier: GPL-2.0-or-later
// A main() for a libFuzzer target built without libFuzzer (gcc, the host
// sanitizers): runs LLVMFuzzerTestOneInput once on each file named on the
// command line, so `make check-fuzz-corpus` replays the committed corpus
// without clang. A crash or an abort() in the target fails the run; a file
// that cannot be read does too.
// usage: replay FILE...
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		// An allocation of the input's size, as libFuzzer gives: ASan sees
		// a read past its end.
		FILE *f = fopen(argv[i], "rb");
		long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
		uint8_t *input = n >= 0 ? malloc(n ? (size_t)n : 1) : NULL;
		if (!input || fseek(f, 0, SEEK_SET) != 0 || fread(input, 1, (size_t)n, f) != (size_t)n) {
			fprintf(stderr, "replay: %s cannot be read\n", argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(input, (size_t)n);
		free(input);
	}
	printf("  REPLAY  %s: %d inputs, no failure\n", argv[0], argc - 1);
	return 0;
}
