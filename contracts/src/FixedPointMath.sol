// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title FixedPointMath
/// @notice The integer helpers of src/core/markets/fixed-point.ts: full-precision mulDiv rounded down or up
/// (OpenZeppelin `Math.mulDiv` semantics) and exact integer square roots. A result past 2^256 − 1 or
/// a zero divisor reverts with a panic (the TS twin throws Uint256Overflow / DivisionByZero).
library FixedPointMath {
    uint256 internal constant WAD = 1e18;

    /// ⌊x·y/d⌋ with the 512-bit product.
    function mulDivDown(uint256 x, uint256 y, uint256 d) internal pure returns (uint256 result) {
        unchecked {
            uint256 prod0 = x * y;
            uint256 prod1;
            assembly {
                let mm := mulmod(x, y, not(0))
                prod1 := sub(sub(mm, prod0), lt(mm, prod0))
            }
            if (prod1 == 0) return prod0 / d; // d == 0: panic 0x12
            if (d <= prod1) _panic(0x11);
            uint256 remainder;
            assembly {
                remainder := mulmod(x, y, d)
                prod1 := sub(prod1, gt(remainder, prod0))
                prod0 := sub(prod0, remainder)
            }
            uint256 twos = d & (0 - d);
            assembly {
                d := div(d, twos)
                prod0 := div(prod0, twos)
                twos := add(div(sub(0, twos), twos), 1)
            }
            prod0 |= prod1 * twos;
            uint256 inverse = (3 * d) ^ 2;
            inverse *= 2 - d * inverse;
            inverse *= 2 - d * inverse;
            inverse *= 2 - d * inverse;
            inverse *= 2 - d * inverse;
            inverse *= 2 - d * inverse;
            inverse *= 2 - d * inverse;
            result = prod0 * inverse;
        }
    }

    /// ⌈x·y/d⌉ with the 512-bit product.
    function mulDivUp(uint256 x, uint256 y, uint256 d) internal pure returns (uint256) {
        uint256 q = mulDivDown(x, y, d);
        return mulmod(x, y, d) == 0 ? q : q + 1;
    }

    /// ⌊√x⌋, exact.
    function sqrtDown(uint256 a) internal pure returns (uint256) {
        unchecked {
            if (a <= 1) return a;
            uint256 aa = a;
            uint256 xn = 1;
            if (aa >= 1 << 128) {
                aa >>= 128;
                xn <<= 64;
            }
            if (aa >= 1 << 64) {
                aa >>= 64;
                xn <<= 32;
            }
            if (aa >= 1 << 32) {
                aa >>= 32;
                xn <<= 16;
            }
            if (aa >= 1 << 16) {
                aa >>= 16;
                xn <<= 8;
            }
            if (aa >= 1 << 8) {
                aa >>= 8;
                xn <<= 4;
            }
            if (aa >= 1 << 4) {
                aa >>= 4;
                xn <<= 2;
            }
            if (aa >= 1 << 2) xn <<= 1;
            xn = (3 * xn) >> 1;
            xn = (xn + a / xn) >> 1;
            xn = (xn + a / xn) >> 1;
            xn = (xn + a / xn) >> 1;
            xn = (xn + a / xn) >> 1;
            xn = (xn + a / xn) >> 1;
            xn = (xn + a / xn) >> 1;
            return xn - (xn > a / xn ? 1 : 0);
        }
    }

    /// ⌈√x⌉, exact.
    function sqrtUp(uint256 x) internal pure returns (uint256) {
        uint256 r = sqrtDown(x);
        return r * r == x ? r : r + 1;
    }

    /// Number of significant bits (0 for 0), by binary search.
    function bitLength(uint256 x) internal pure returns (uint256 n) {
        unchecked {
            if (x >= 1 << 128) {
                x >>= 128;
                n += 128;
            }
            if (x >= 1 << 64) {
                x >>= 64;
                n += 64;
            }
            if (x >= 1 << 32) {
                x >>= 32;
                n += 32;
            }
            if (x >= 1 << 16) {
                x >>= 16;
                n += 16;
            }
            if (x >= 1 << 8) {
                x >>= 8;
                n += 8;
            }
            if (x >= 1 << 4) {
                x >>= 4;
                n += 4;
            }
            if (x >= 1 << 2) {
                x >>= 2;
                n += 2;
            }
            if (x >= 1 << 1) {
                x >>= 1;
                n += 1;
            }
            n += x; // x is 0 or 1 here
        }
    }

    function _panic(uint256 code) private pure {
        assembly {
            mstore(0x00, 0x4e487b71)
            mstore(0x20, code)
            revert(0x1c, 0x24)
        }
    }
}
