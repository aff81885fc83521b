// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixedPointMath} from "./FixedPointMath.sol";
import {IMarketErrors} from "./IMarketErrors.sol";

/// @title ExpLn
/// @notice Bit-for-bit twin of src/core/markets/exp-ln.ts: e^x rounded to a guaranteed upper bound (WAD) and
/// ln(num/den) rounded to a guaranteed lower / upper bound (RAY), with uint256 operations only. See
/// exp-ln.ts for the method and the error bounds; every loop and rounding here is the same.
library ExpLn {
    uint256 internal constant RAY = 1e27;
    /// ⌊ln 2 · 1e27⌋
    uint256 internal constant LN2_DOWN = 693147180559945309417232121;
    uint256 internal constant MAX_EXP_INPUT_RAY = 130e27;
    uint256 internal constant EXP_ERR_RAY = 200;
    uint256 internal constant LN_ERR_RAY = 1000;

    /// Upper bound of e^(xRay/1e27) in WAD; reverts ExpInputTooBig past MAX_EXP_INPUT_RAY.
    function expUpWad(uint256 xRay) internal pure returns (uint256) {
        if (xRay > MAX_EXP_INPUT_RAY) revert IMarketErrors.ExpInputTooBig(xRay, MAX_EXP_INPUT_RAY);
        if (xRay == 0) return 1e18;
        uint256 k = xRay / LN2_DOWN;
        uint256 r = xRay - k * LN2_DOWN;
        uint256 sum = RAY;
        uint256 term = RAY;
        for (uint256 i = 1;; i++) {
            term = (term * r) / (RAY * i);
            if (term == 0) break;
            sum += term;
        }
        return FixedPointMath.mulDivUp(sum + EXP_ERR_RAY, 1 << k, 1e9);
    }

    /// Lower bound of ln(num/den) in RAY, for num ≥ den > 0; else LnRatioBelowOne(num, den).
    function lnRatioDown(uint256 num, uint256 den) internal pure returns (uint256) {
        if (den == 0 || num < den) revert IMarketErrors.LnRatioBelowOne(num, den);
        uint256 k = FixedPointMath.bitLength(num) - FixedPointMath.bitLength(den);
        if (den << k > num) k -= 1;
        uint256 m = FixedPointMath.mulDivDown(num, RAY, den << k);
        uint256 z = ((m - RAY) * RAY) / (m + RAY);
        uint256 z2 = (z * z) / RAY;
        uint256 term = z;
        uint256 sum = z;
        for (uint256 j = 1;; j++) {
            term = (term * z2) / RAY;
            if (term == 0) break;
            sum += term / (2 * j + 1);
        }
        return 2 * sum + k * LN2_DOWN;
    }

    /// Upper bound of ln(num/den) in RAY, for num ≥ den > 0.
    function lnRatioUp(uint256 num, uint256 den) internal pure returns (uint256) {
        return lnRatioDown(num, den) + LN_ERR_RAY;
    }
}
