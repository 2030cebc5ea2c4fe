/* bcryptprimitives.dll for Wine 8 (Debian bookworm), which lacks it: Rust's
 * std calls ProcessPrng from it (Windows 10 and later ship it). Answers from
 * RtlGenRandom, which Wine has. Used only by the Wine test run. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
