// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestBase} from "./Vm.sol";
import {FixedPointMath} from "../src/FixedPointMath.sol";

contract FixedPointMathTest is TestBase {
    function testFuzz_sqrtIsExact(uint256 x) public pure {
        uint256 r = FixedPointMath.sqrtDown(x);
        require(r * r <= x, "r^2 <= x");
        if (r < type(uint128).max) require((r + 1) * (r + 1) > x, "(r+1)^2 > x");
        uint256 u = FixedPointMath.sqrtUp(x);
        require(u == r || (u == r + 1 && r * r != x), "ceil");
    }

    function testFuzz_mulDivMatchesNarrow(uint128 a, uint128 b, uint256 d) public pure {
        d = d == 0 ? 1 : d;
        uint256 p = uint256(a) * uint256(b);
        require(FixedPointMath.mulDivDown(a, b, d) == p / d, "floor");
        require(FixedPointMath.mulDivUp(a, b, d) == p / d + (p % d == 0 ? 0 : 1), "ceil");
    }

    function testFuzz_mulDivWide(uint256 a, uint256 b, uint256 d) public pure {
        vm.assume(d != 0);
        // (a·b)/d with a 512-bit product: check q·d + r = a·b modulo 2^256
        (bool ok, uint256 q) = _tryMulDiv(a, b, d);
        if (!ok) return;
        // q·d + (a·b mod d) == a·b, checked mod 2^256
        unchecked {
            require(q * d + mulmod(a, b, d) == a * b, "q*d + r == a*b (mod 2^256)");
        }
    }

    function _tryMulDiv(uint256 a, uint256 b, uint256 d) internal pure returns (bool, uint256) {
        uint256 hi;
        uint256 lo;
        unchecked {
            lo = a * b;
        }
        assembly {
            let mm := mulmod(a, b, not(0))
            hi := sub(sub(mm, lo), lt(mm, lo))
        }
        if (hi >= d) return (false, 0);
        return (true, FixedPointMath.mulDivDown(a, b, d));
    }

    function testFuzz_bitLength(uint256 x) public pure {
        uint256 n = FixedPointMath.bitLength(x);
        if (x == 0) require(n == 0, "0");
        else require(x >> (n - 1) == 1, "top bit");
    }
}
