// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketTestBase} from "./MarketTestBase.sol";
import {DynamicParimutuelGateway} from "../src/DynamicParimutuelGateway.sol";
import {LmsrGateway} from "../src/LmsrGateway.sol";
import {DpmMarket} from "../src/DpmMarket.sol";
import {LmsrMarket} from "../src/LmsrMarket.sol";
import {MarketGateway} from "../src/MarketGateway.sol";
import {FixedPointMath} from "../src/FixedPointMath.sol";

/// Replay helpers for the generated MarketVectors.t.sol: each checks the gateway against a value the TS
/// spec computed (quotes, trade results, reverts by selector and arguments, state after each trade).
abstract contract MarketVectorsBase is MarketTestBase {
    function _word(bytes memory packed, uint256 i) internal pure returns (uint256 w) {
        assembly {
            w := mload(add(add(packed, 32), mul(i, 32)))
        }
    }

    // ---------------------------------------------------------------- DPM

    function _db(DynamicParimutuelGateway gw, address m, uint256 i, uint256 shares, uint256 tokensIn) internal {
        vm.assertEq(gw.quoteBuyExactOut(m, i, shares), tokensIn, "dpm quoteBuy");
        vm.prank(ALICE);
        vm.assertEq(gw.buyExactOut(m, i, shares, tokensIn), tokensIn, "dpm buy");
    }

    function _dbx(DynamicParimutuelGateway gw, address m, uint256 i, uint256 shares, bytes memory e) internal {
        vm.expectRevert(e);
        gw.quoteBuyExactOut(m, i, shares);
        _dbx(gw, m, i, shares, type(uint256).max, e);
    }

    /// buyExactOut (either rule) reverts with `e`.
    function _dbx(MarketGateway gw, address m, uint256 i, uint256 shares, uint256 max, bytes memory e) internal {
        vm.expectRevert(e);
        vm.prank(ALICE);
        gw.buyExactOut(m, i, shares, max);
    }

    function _ds(DynamicParimutuelGateway gw, address m, uint256 i, uint256 shares, uint256 tokensOut) internal {
        vm.assertEq(gw.quoteSellExactIn(m, i, shares), tokensOut, "dpm quoteSell");
        vm.prank(ALICE);
        vm.assertEq(gw.sellExactIn(m, i, shares, tokensOut), tokensOut, "dpm sell");
    }

    function _dsx(DynamicParimutuelGateway gw, address m, uint256 i, uint256 shares, bytes memory e) internal {
        vm.expectRevert(e);
        gw.quoteSellExactIn(m, i, shares);
        _dsx(gw, m, i, shares, 0, e);
    }

    /// sellExactIn (either rule) reverts with `e`.
    function _dsx(MarketGateway gw, address m, uint256 i, uint256 shares, uint256 min, bytes memory e) internal {
        vm.expectRevert(e);
        vm.prank(ALICE);
        gw.sellExactIn(m, i, shares, min);
    }

    function _dst(address m, uint256 pool, uint256 fees, uint256 sumTerm, uint256 refund) internal view {
        DpmMarket.DpmState memory s = DpmMarket(m).getMarket();
        vm.assertEq(s.pool, pool, "pool");
        vm.assertEq(s.tradingFees, fees, "tradingFees");
        vm.assertEq(s.sumTerm36, sumTerm, "sumTerm36");
        vm.assertEq(s.refund, refund, "refund");
        uint256 sq;
        for (uint256 i; i < s.config.outcomeCount; ++i) {
            uint256 q = DpmMarket(m).totalSupply(i);
            sq += q * q;
        }
        vm.assertEq(sq, sumTerm, "sumTerm36 == sum of squared supplies");
        // the pool covers the cost of all outstanding shares: k·sqrt(S) <= pool (rounded down)
        vm.assertLe(
            FixedPointMath.mulDivDown(s.config.k, FixedPointMath.sqrtDown(sumTerm), 1e18 * DpmMarket(m).tokenScaler()),
            pool,
            "pool >= cost"
        );
        assertSolvent(m);
    }

    function _dviews(DynamicParimutuelGateway gw, address m, bytes memory prices, bytes memory probs) internal view {
        uint256 n = prices.length / 32;
        for (uint256 i; i < n; ++i) {
            vm.assertEq(gw.spotPrice(m, i), _word(prices, i), "spotPrice");
            vm.assertEq(gw.spotImpliedProbability(m, i), _word(probs, i), "impliedProbability");
        }
    }

    function _dcreator(DynamicParimutuelGateway gw, address m, uint256 liquidationValue, uint256 winValue0)
        internal
        view
    {
        vm.assertEq(gw.marketCreatorTotalSharesLiquidationValue(m), liquidationValue, "creator liquidation value");
        vm.assertEq(gw.marketCreatorWinningSharesSettlementValue(m, 0), winValue0, "creator settlement value");
    }

    // ---------------------------------------------------------------- LMSR

    /// expected = abi.encode(tokensIn, outcomeNewExp, newExpSum)
    function _lb(LmsrGateway gw, address m, uint256 i, uint256 shares, bytes memory expected) internal {
        (uint256 t, uint256 qe, uint256 qs) = gw.quoteBuyExactOut(m, i, shares);
        vm.assertEq(abi.encode(t, qe, qs), expected, "lmsr quoteBuy (tokensIn, outcomeNewExp, newExpSum)");
        vm.prank(ALICE);
        vm.assertEq(gw.buyExactOut(m, i, shares, t), t, "lmsr buy");
    }

    function _lbx(LmsrGateway gw, address m, uint256 i, uint256 shares, bytes memory e) internal {
        vm.expectRevert(e);
        gw.quoteBuyExactOut(m, i, shares);
        _dbx(gw, m, i, shares, type(uint256).max, e);
    }

    /// expected = abi.encode(tokensOut, outcomeNewExp, newExpSum)
    function _ls(LmsrGateway gw, address m, uint256 i, uint256 shares, bytes memory expected) internal {
        (uint256 t, uint256 qe, uint256 qs) = gw.quoteSellExactIn(m, i, shares);
        vm.assertEq(abi.encode(t, qe, qs), expected, "lmsr quoteSell (tokensOut, outcomeNewExp, newExpSum)");
        vm.prank(ALICE);
        vm.assertEq(gw.sellExactIn(m, i, shares, t), t, "lmsr sell");
    }

    function _lsx(LmsrGateway gw, address m, uint256 i, uint256 shares, bytes memory e) internal {
        vm.expectRevert(e);
        gw.quoteSellExactIn(m, i, shares);
        _dsx(gw, m, i, shares, 0, e);
    }

    function _lst(address m, uint256 pool, uint256 fees, uint256 expSum) internal view {
        LmsrMarket.LmsrState memory s = LmsrMarket(m).getMarket();
        vm.assertEq(s.pool, pool, "pool");
        vm.assertEq(s.tradingFees, fees, "tradingFees");
        vm.assertEq(s.expSum, expSum, "expSum");
        uint256 scaler = LmsrMarket(m).tokenScaler();
        for (uint256 i; i < s.config.outcomeCount; ++i) {
            vm.assertLe(LmsrMarket(m).totalSupply(i) / scaler, pool, "pool covers every outcome's winners");
        }
        assertSolvent(m);
    }

    function _lviews(LmsrGateway gw, address m, bytes memory prices) internal view {
        uint256 n = prices.length / 32;
        for (uint256 i; i < n; ++i) {
            vm.assertEq(gw.spotPrice(m, i), _word(prices, i), "lmsr price");
        }
    }
}
