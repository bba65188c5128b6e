#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Sixteen byte lanes of a vector test as sixteen bits, lane 0 → bit 0: what the readings that test sixteen bytes at
/// a time (``InputScan``, ``ByteMarks``, ``AuthorityLanes``, ``PercentEncodeSet``) walk to find the bytes they
/// picked out.
///
/// On x86-64 it is one instruction (SSE2's `pmovmskb`, which every x86-64 processor has), through the compiler's own
/// intrinsics module; elsewhere each half's top bits are gathered with a multiply.
enum LaneBits {
    /// One bit for each lane whose top bit is set.
    @inline(__always)
    static func of(_ lanes: SIMD16<Int8>) -> UInt32 {
        #if arch(x86_64)
        UInt32(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(lanes, to: __m128i.self)))
        #else
        gathered(unsafeBitCast(lanes, to: SIMD2<UInt64>.self))
        #endif
    }

    /// One bit for each lane of `mask` that is set.
    @inline(__always)
    static func of(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt32 {
        of(unsafeBitCast(mask, to: SIMD16<Int8>.self))
    }

    /// The top bit of each byte of two words, as sixteen bits: the reading where no single instruction does it.
    @inline(__always)
    static func gathered(_ words: SIMD2<UInt64>) -> UInt32 {
        guard words[0] | words[1] != 0 else { return 0 }
        return UInt32(compress(words[0])) | UInt32(compress(words[1])) << 8
    }

    /// The top bit of each of a word's eight bytes, as eight bits (byte 0 → bit 0).
    @inline(__always)
    private static func compress(_ word: UInt64) -> UInt64 {
        ((word & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) >> 56
    }
}
