// SPDX-License-Identifier: GPL-2.0-or-later
// queryvar.efi: print what the firmware's QueryVariableInfo says of the
// non-volatile variables that ramsift's record uses (NV, BS, RT), one line,
// for tests/nvram/varstore-ovmf.sh to hold ramsift-varstore's "free" to.
// Started by the UEFI shell (its output redirected to a file), returns.
#include <efi.h>
#include <efilib.h>

// gnu-efi's crt0 calls it with the System V ABI, as efi/ramsift-reserve.c's.
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	UINT64 storage, remaining, largest;
	InitializeLib(image, systab);
	EFI_STATUS status = uefi_call_wrapper(RT->QueryVariableInfo, 4, EFI_VARIABLE_NON_VOLATILE |
					      EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS,
					      &storage, &remaining, &largest);
	if (EFI_ERROR(status))
		Print(L"queryvar: QueryVariableInfo failed: %r\n", status);
	else
		Print(L"queryvar: storage=%ld remaining=%ld largest=%ld\n", storage, remaining, largest);
	return status;
}
