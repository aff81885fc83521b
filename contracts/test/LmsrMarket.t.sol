// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketTestBase} from "./MarketTestBase.sol";
import {ExpLn} from "../src/ExpLn.sol";
import {IMarketErrors} from "../src/IMarketErrors.sol";
import {LmsrGateway} from "../src/LmsrGateway.sol";
import {LmsrMarket} from "../src/LmsrMarket.sol";
import {MarketFactory} from "../src/MarketFactory.sol";
import {MarketGateway} from "../src/MarketGateway.sol";

contract LmsrMarketTest is MarketTestBase {
    uint256 internal constant B = 100e18;

    function newMarket(LmsrGateway gw, uint256 n, uint256 b, uint256 fee) internal returns (address m) {
        m = create(gw, n, b, fee, gw.calculateInitialPool(b, n));
        uint256 unit = 1e18 / gw.TOKEN_DECIMAL_SCALER();
        fund(gw, m, ALICE, 1e12 * unit);
        fund(gw, m, BOB, 1e12 * unit);
        fund(gw, m, CAROL, 1e12 * unit);
    }

    function test_creation() public {
        uint256 pool = lmsr6.calculateInitialPool(B, 4);
        // b·ln 4 = 138.629436... tokens, rounded up
        vm.assertEq(pool, 138_629_437, "initial pool = ceil(b ln n)");
        address m = newMarket(lmsr6, 4, B, 1e16);
        LmsrMarket.LmsrState memory s = lmsr6.getMarket(m);
        vm.assertEq(s.pool, pool, "pool");
        vm.assertEq(s.expSum, 4e18, "E = n");
        vm.assertEq(token6.balanceOf(m), pool, "the creator paid exactly the pool");
        vm.assertEq(lmsr6.spotPrice(m, 3), 25e16, "uniform prices");
        uint256[] memory exps = lmsr6.outcomeExps(m);
        vm.assertEq(exps.length, 4, "exps");
        // a deposit below the pool, and the LMSR limits
        MarketFactory f = factoryOf(lmsr6);
        token6.mint(CREATOR, 1e12);
        vm.startPrank(CREATOR);
        token6.approve(address(f), 1e12);
        vm.expectRevert(err(IMarketErrors.InitialDepositTooLow.selector, pool - 1, pool));
        f.deployNewMarketProxy(pool - 1, meta(), cfg(4, B, 0));
        vm.expectRevert(err(IMarketErrors.LiquidityParameterTooLow.selector, 1e18 - 1, 1e18));
        f.deployNewMarketProxy(pool, meta(), cfg(4, 1e18 - 1, 0));
        vm.expectRevert(err(IMarketErrors.LiquidityParameterTooHigh.selector, 5_000_000e18 + 1, 5_000_000e18));
        f.deployNewMarketProxy(pool, meta(), cfg(4, 5_000_000e18 + 1, 0));
        vm.expectRevert(err(IMarketErrors.TradingFeeTooHigh.selector, 5e16 + 1, 5e16));
        f.deployNewMarketProxy(pool, meta(), cfg(4, B, 5e16 + 1));
        vm.expectRevert(err(IMarketErrors.OutcomeCountTooHigh.selector, 21, 20));
        f.deployNewMarketProxy(pool, meta(), cfg(21, B, 0));
        // a larger deposit takes only the pool
        uint256 before = token6.balanceOf(CREATOR);
        f.deployNewMarketProxy(pool + 5e6, meta(), cfg(4, B, 0));
        vm.assertEq(before - token6.balanceOf(CREATOR), pool, "only the pool taken");
        vm.stopPrank();
    }

    function test_expInputTooBig() public {
        address m = newMarket(lmsr6, 2, 1e18, 0);
        // (q + Δ)/b = 131 > 130
        vm.expectRevert(err(IMarketErrors.ExpInputTooBig.selector, 131e27, 130e27));
        lmsr6.quoteBuyExactOut(m, 0, 131e18);
        (uint256 t,,) = lmsr6.quoteBuyExactOut(m, 0, 130e18);
        vm.assertGt(t, 128e6, "a near-certain outcome costs about one token a share");
    }

    function test_expLnKnownValues() public pure {
        // e^1 = 2.718281828459045235360287...; the bound is above and within 1e-24 relative + 1
        uint256 e1 = ExpLn.expUpWad(1e27);
        require(e1 >= 2718281828459045235 && e1 <= 2718281828459045236, "e");
        require(ExpLn.expUpWad(0) == 1e18, "e^0");
        // ln 2 lower bound within LN_ERR of floor(ln2 1e27)
        uint256 l2 = ExpLn.lnRatioDown(2, 1);
        require(l2 <= ExpLn.LN2_DOWN && l2 + ExpLn.LN_ERR_RAY >= ExpLn.LN2_DOWN, "ln 2");
        require(ExpLn.lnRatioDown(7, 7) == 0, "ln 1");
    }

    function test_lnRatioBelowOne() public {
        LnHarness h = new LnHarness();
        vm.expectRevert(err(IMarketErrors.LnRatioBelowOne.selector, 1, 2));
        h.lnDown(1, 2);
    }

    function testFuzz_expLnBounds(uint256 x) public pure {
        x = bound(x, 0, 130e27);
        uint256 e = ExpLn.expUpWad(x);
        // ln(e/1e18) must be ≥ x (upper bound of e^x), up to the ln slack
        uint256 l = ExpLn.lnRatioUp(e, 1e18);
        require(l + 1e9 >= x, "exp is an upper bound");
    }

    function test_settleRedeemsOneTokenPerShare() public {
        address m = newMarket(lmsr6, 3, B, 2e16);
        buy(lmsr6, m, ALICE, 0, 40e18);
        buy(lmsr6, m, BOB, 0, 15e18 + 7);
        buy(lmsr6, m, CAROL, 1, 80e18);
        sell(lmsr6, m, CAROL, 1, 30e18);
        vm.warp(TRADING_DEADLINE + 1);
        LmsrMarket.LmsrState memory s = lmsr6.getMarket(m);
        uint256 owed = uint256(55e18 + 7) / 1e12;
        uint256 before = token6.balanceOf(CREATOR);
        vm.expectEmit(true, false, false, true);
        emit MarketGateway.GatewayMarketSettled(m, 0, s.pool - owed, 0, s.tradingFees);
        vm.prank(ORACLE);
        lmsr6.settleMarket(m, 0);
        vm.assertEq(token6.balanceOf(CREATOR) - before, s.pool - owed + s.tradingFees, "creator's take");
        vm.prank(ALICE);
        (uint256 sh, uint256 out) = lmsr6.redeem(m);
        vm.assertEq(sh, 40e18, "shares");
        vm.assertEq(out, 40e6, "one token a share");
        vm.prank(BOB);
        (, out) = lmsr6.redeem(m);
        vm.assertEq(out, 15e6, "floored");
        vm.expectRevert(IMarketErrors.RedeemZeroShares.selector);
        vm.prank(BOB);
        lmsr6.redeem(m);
        vm.assertEq(token6.balanceOf(m), 0, "all collateral paid out");
    }

    function test_redeemZeroTokensOut() public {
        address m = newMarket(lmsr6, 2, B, 0);
        buy(lmsr6, m, ALICE, 0, 1e18);
        vm.prank(ALICE);
        ERC6909Like(m).transfer(BOB, 0, 1e11); // 1e11 wei-shares < one base unit
        vm.warp(TRADING_DEADLINE + 1);
        vm.prank(ORACLE);
        lmsr6.settleMarket(m, 0);
        vm.expectRevert(IMarketErrors.RedeemZeroTokensOut.selector);
        vm.prank(BOB);
        lmsr6.redeem(m);
    }

    function test_expiredLiquidationIsCovered() public {
        address m = newMarket(lmsr18, 4, 50e18, 1e16);
        buy(lmsr18, m, ALICE, 0, 40e18);
        buy(lmsr18, m, BOB, 1, 25e18);
        buy(lmsr18, m, BOB, 3, 5e18);
        buy(lmsr18, m, CAROL, 0, 60e18);
        vm.warp(SETTLEMENT_DEADLINE + 1);
        uint256 pool = lmsr18.getMarket(m).pool;
        uint256 creator = lmsr18.liquidateMarketCreationShares(m);
        vm.assertGt(creator, 0, "creator takes the excess");
        uint256[] memory idx = new uint256[](1);
        vm.prank(ALICE);
        (, uint256 a) = lmsr18.liquidate(m, idx);
        vm.prank(CAROL);
        (, uint256 c) = lmsr18.liquidate(m, idx);
        uint256[] memory bobIdx = new uint256[](2);
        bobIdx[0] = 3;
        bobIdx[1] = 1;
        vm.prank(BOB);
        (, uint256 b) = lmsr18.liquidate(m, bobIdx);
        vm.assertLe(a + b + c, pool, "holders covered");
        vm.assertEq(token18.balanceOf(m), lmsr18.getMarket(m).pool, "solvent");
        vm.assertLt(lmsr18.getMarket(m).pool, 1e9, "dust only");
    }

    function test_resolveThenFailThenLiquidate() public {
        address m = newMarket(lmsr6, 3, B, 1e16);
        buy(lmsr6, m, ALICE, 0, 10e18);
        buy(lmsr6, m, BOB, 2, 4e18);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 0, 1));
        lmsr6.resolveMarket(m);
        vm.warp(TRADING_DEADLINE + 1);
        vm.expectEmit(true, true, false, false);
        emit MarketGateway.MarketResolutionRequested(m, CAROL);
        vm.prank(CAROL);
        lmsr6.resolveMarket(m);
        vm.expectRevert(IMarketErrors.MarketResolutionLocked.selector);
        vm.prank(CREATOR);
        lmsr6.submitWinner(m, 0);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.NotOracleRelayer.selector, ALICE));
        vm.prank(ALICE);
        lmsr6.failMarket(m);
        vm.expectEmit(true, false, false, false);
        emit MarketGateway.GatewayMarketFailed(m);
        vm.prank(ORACLE);
        lmsr6.failMarket(m);
        vm.assertEq(uint256(lmsr6.marketStatus(m)), 4, "failed");
        uint256[] memory idx = new uint256[](1);
        vm.prank(ALICE);
        (, uint256 a) = lmsr6.liquidate(m, idx);
        vm.assertGt(a, 0, "alice liquidated");
        lmsr6.liquidateMarketCreationShares(m);
        idx[0] = 2;
        vm.prank(BOB);
        lmsr6.liquidate(m, idx);
        vm.assertLt(token6.balanceOf(m), 10, "dust only");
    }

    function test_submitWinnerLegacy() public {
        address m = newMarket(lmsr6, 2, B, 1e16);
        buy(lmsr6, m, ALICE, 1, 8e18);
        vm.warp(TRADING_DEADLINE + 1);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.NotMarketCreator.selector, ALICE));
        vm.prank(ALICE);
        lmsr6.submitWinner(m, 1);
        vm.prank(CREATOR);
        lmsr6.submitWinner(m, 1);
        vm.assertEq(uint256(lmsr6.marketStatus(m)), 2, "settled");
        vm.prank(ALICE);
        (, uint256 out) = lmsr6.redeem(m);
        vm.assertEq(out, 8e6, "one token per winning share");
    }

    function test_creatorAfterHoldersTakesTheRest() public {
        address m = newMarket(lmsr18, 3, 50e18, 1e16);
        buy(lmsr18, m, ALICE, 0, 40e18);
        buy(lmsr18, m, BOB, 2, 25e18);
        vm.warp(SETTLEMENT_DEADLINE + 1);
        uint256[] memory idx = new uint256[](1);
        vm.prank(ALICE);
        lmsr18.liquidate(m, idx);
        idx[0] = 2;
        vm.prank(BOB);
        lmsr18.liquidate(m, idx);
        lmsr18.liquidateMarketCreationShares(m);
        // liquidated shares are not reserved twice: nothing but rounding dust stays locked
        vm.assertLt(token18.balanceOf(m), 1e9, "dust only");
    }

    function testFuzz_roundTripNeverProfits(uint256 n, uint256 b, uint256 fee, uint256 shares, bool eighteen) public {
        LmsrGateway gw = eighteen ? lmsr18 : lmsr6;
        n = bound(n, 2, 20);
        b = bound(b, 1e18, 5_000_000e18);
        fee = bound(fee, 0, 5e16);
        address m = newMarket(gw, n, b, fee);
        shares = bound(shares, 1e16, 100 * b);
        try gw.quoteBuyExactOut(m, 0, shares) returns (uint256 paidQuote, uint256, uint256) {
            uint256 paid = buy(gw, m, ALICE, 0, shares);
            vm.assertEq(paid, paidQuote, "paid the quote");
            try gw.quoteSellExactIn(m, 0, shares) returns (uint256 back, uint256, uint256) {
                vm.assertLe(back, paid, "a round trip never pays");
            } catch {}
            vm.assertLe(shares / gw.TOKEN_DECIMAL_SCALER(), gw.getMarket(m).pool, "pool covers the winners");
        } catch {}
        assertSolvent(m);
    }
}

interface ERC6909Like {
    function transfer(address receiver, uint256 id, uint256 amount) external returns (bool);
}

contract LnHarness {
    function lnDown(uint256 a, uint256 b) external pure returns (uint256) {
        return ExpLn.lnRatioDown(a, b);
    }
}
