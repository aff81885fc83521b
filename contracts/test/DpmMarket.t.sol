// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketTestBase} from "./MarketTestBase.sol";
import {ReentrantToken} from "./ReentrantToken.sol";
import {CollateralToken} from "../src/CollateralToken.sol";
import {DynamicParimutuelGateway} from "../src/DynamicParimutuelGateway.sol";
import {DpmMarket} from "../src/DpmMarket.sol";
import {ERC6909} from "../src/ERC6909.sol";
import {IMarketErrors} from "../src/IMarketErrors.sol";
import {MarketGateway} from "../src/MarketGateway.sol";
import {MarketFactory} from "../src/MarketFactory.sol";
import {MarketConfig} from "../src/MarketTypes.sol";

contract DpmMarketTest is MarketTestBase {
    uint256 internal constant K = 2e18;
    uint256 internal constant FEE = 1e16;

    function newMarket() internal returns (address m) {
        m = create(dpm6, 3, K, FEE, 1_000e6);
        fund(dpm6, m, ALICE, 1e12);
        fund(dpm6, m, BOB, 1e12);
        fund(dpm6, m, CAROL, 1e12);
    }

    // ------------------------------------------------------------ creation

    function test_creationStateAndFactory() public {
        address m = create(dpm6, 3, K, FEE, 1_000e6);
        DpmMarket.DpmState memory s = dpm6.getMarket(m);
        uint256 shares = uint256(1_000e6) * 1e12 * 1e18 / (K * 3);
        vm.assertEq(dpm6.marketCreatorSharesPerOutcome(m), shares, "creator shares");
        vm.assertEq(s.sumTerm36, 3 * shares * shares, "sumTerm");
        (uint256 pool, uint256 refund) = dpm6.calculateInitialPoolAndRefund(1_000e6, 3);
        vm.assertEq(s.initialPool, pool, "initial pool");
        vm.assertEq(s.refund, refund, "refund");
        vm.assertEq(pool + refund, 1_000e6, "deposit split");
        vm.assertEq(s.winningOutcomeIdx, type(uint256).max, "no winner");
        vm.assertEq(dpm6.balanceOf(m, m, 2), shares, "market holds the creator's shares");
        vm.assertEq(dpm6.totalSupply(m, 1), shares, "supply");
        vm.assertEq(dpm6.outcomeSuppliesSum(m), 3 * shares, "supplies sum");
        vm.assertEq(token6.balanceOf(m), 1_000e6, "the proxy holds the deposit");
        vm.assertEq(dpm6.marketCreator(m), CREATOR, "creator");
        vm.assertEq(dpm6.marketMetadata(m).uri, "ipfs://question", "metadata");
        vm.assertEq(uint256(dpm6.marketStatus(m)), 0, "open");
        assertSolvent(m);

        MarketFactory f = factoryOf(dpm6);
        address m2 = create(dpm6, 2, K, FEE, 5e6);
        vm.assertEq(f.getTotalMarketProxiesCount(), 2, "count");
        address[] memory ps = f.getMarketProxies(0, 1);
        vm.assertEq(ps[0], m, "first");
        vm.assertEq(ps[1], m2, "second");
        address[] memory q = new address[](2);
        q[0] = m2;
        q[1] = ALICE;
        bool[] memory e = f.marketProxiesExist(q);
        vm.assertTrue(e[0] && !e[1], "exist");
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.MarketProxyRangeInvalid.selector, 1, 2, 2));
        f.getMarketProxies(1, 2);
        vm.assertTrue(keccak256(m.code) == keccak256(m2.code) && m.code.length == 45, "EIP-1167 clones");
        (uint256 d, uint256 r) = dpm6.calculateInitialDepositAndRefund(pool, 3);
        (uint256 p2,) = dpm6.calculateInitialPoolAndRefund(d, 3);
        vm.assertLe(p2, pool, "deposit for a pool");
        vm.assertEq(d - p2, r, "its refund");
    }

    function _createReverts(uint256 n, uint256 k, uint256 fee, uint256 deposit, bytes memory e) internal {
        MarketFactory f = factoryOf(dpm6);
        token6.mint(CREATOR, deposit);
        vm.prank(CREATOR);
        token6.approve(address(f), deposit);
        vm.expectRevert(e);
        vm.prank(CREATOR);
        f.deployNewMarketProxy(deposit, meta(), cfg(n, k, fee));
    }

    function test_creationLimits() public {
        _createReverts(1, K, FEE, 1e6, err(IMarketErrors.OutcomeCountTooLow.selector, 1, 2));
        _createReverts(21, K, FEE, 1e6, err(IMarketErrors.OutcomeCountTooHigh.selector, 21, 20));
        _createReverts(2, 1e18 - 1, FEE, 1e6, err(IMarketErrors.KTooLow.selector, 1e18 - 1, 1e18));
        _createReverts(2, 100e18 + 1, FEE, 1e6, err(IMarketErrors.KTooHigh.selector, 100e18 + 1, 100e18));
        _createReverts(2, K, 5e15 - 1, 1e6, err(IMarketErrors.TradingFeeTooLow.selector, 5e15 - 1, 5e15));
        _createReverts(2, K, 5e16 + 1, 1e6, err(IMarketErrors.TradingFeeTooHigh.selector, 5e16 + 1, 5e16));
        _createReverts(2, K, FEE, 1e6 - 1, err(IMarketErrors.InitialDepositTooLow.selector, 1e6 - 1, 1e6));
        _createReverts(2, K, FEE, 1e12 + 1, err(IMarketErrors.InitialDepositTooHigh.selector, 1e12 + 1, 1e12));
        // windows
        MarketFactory f = factoryOf(dpm6);
        token6.mint(CREATOR, 2e6);
        vm.startPrank(CREATOR);
        token6.approve(address(f), 2e6);
        vm.expectRevert(
            abi.encodeWithSelector(IMarketErrors.TradingWindowOutOfBounds.selector, 119, 2 minutes, 365 days)
        );
        f.deployNewMarketProxy(1e6, meta(), abi.encode(MarketConfig(2, K, FEE, T0 + 119, T0 + 119 + 1 hours)));
        vm.expectRevert(
            abi.encodeWithSelector(IMarketErrors.SettlementWindowOutOfBounds.selector, 25 hours, 1 hours, 24 hours)
        );
        f.deployNewMarketProxy(1e6, meta(), abi.encode(MarketConfig(2, K, FEE, T0 + 1 days, T0 + 2 days + 1 hours)));
        // the extreme accepted config
        f.deployNewMarketProxy(1e6, meta(), abi.encode(MarketConfig(20, 100e18, 5e16, T0 + 120, T0 + 120 + 24 hours)));
        vm.stopPrank();
        // the creator must have approved the factory
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.ERC20InsufficientAllowance.selector, address(f), 0, 1e6));
        vm.prank(ALICE);
        f.deployNewMarketProxy(1e6, meta(), cfg(2, K, FEE));
    }

    function test_tokenDecimalsLimits() public {
        CollateralToken t5 = new CollateralToken("t", "t", 5, 0, 1, address(this));
        CollateralToken t19 = new CollateralToken("t", "t", 19, 0, 1, address(this));
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.TokenDecimalsTooLow.selector, uint8(5)));
        new DynamicParimutuelGateway(address(t5), ORACLE);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.TokenDecimalsTooHigh.selector, uint8(19)));
        new DynamicParimutuelGateway(address(t19), ORACLE);
        vm.assertEq(dpm18.TOKEN_DECIMAL_SCALER(), 1, "18-dec scaler");
        vm.assertEq(dpm6.TOKEN_DECIMAL_SCALER(), 1e12, "6-dec scaler");
        vm.assertEq(dpm6.MIN_TOKENS_DELTA(), 1e4, "0.01 token");
        address m6 = create(dpm6, 2, K, FEE, 1e6);
        address m18 = create(dpm18, 2, K, FEE, 1e18);
        vm.assertEq(dpm6.minInitialDeposit(m6), 1e6, "min deposit");
        vm.assertEq(dpm18.maxInitialDeposit(m18), 1e24, "max deposit");
        vm.assertEq(dpm18.maxOutcomeCount(m18), 20, "max outcomes");
        vm.expectRevert(err(IMarketErrors.MarketProxyNotDeployedByFactory.selector, uint256(uint160(m6))));
        dpm18.minK(m6);
    }

    function test_onlyProxiesOfTheGatewaysFactory() public {
        address m18 = create(dpm18, 2, K, FEE, 1e18);
        vm.expectRevert(err(IMarketErrors.MarketProxyNotDeployedByFactory.selector, uint256(uint160(m18))));
        dpm6.quoteBuyExactOut(m18, 0, 1e18);
        vm.expectRevert(err(IMarketErrors.MarketProxyNotDeployedByFactory.selector, uint256(uint160(ALICE))));
        vm.prank(ALICE);
        dpm6.buyExactOut(ALICE, 0, 1e18, 1e18);
        // nobody but the gateway can trade on the proxy directly
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.NotGateway.selector, ALICE));
        vm.prank(ALICE);
        DpmMarket(m18).buy(ALICE, 0, 1e18, type(uint256).max);
        vm.expectRevert(IMarketErrors.AlreadyInitialized.selector);
        DpmMarket(m18).initialize(ALICE, ALICE, 1, ALICE, 1, meta(), cfg(2, K, FEE));
        address impl = factoryOf(dpm18).IMPLEMENTATION();
        vm.expectRevert(IMarketErrors.AlreadyInitialized.selector);
        DpmMarket(impl).initialize(ALICE, ALICE, 1, ALICE, 1, meta(), cfg(2, K, FEE));
    }

    // ------------------------------------------------------------ trading

    function test_tradeMovesCollateralAndShares() public {
        address m = newMarket();
        uint256 quote = dpm6.quoteBuyExactOut(m, 1, 10e18);
        uint256 before = token6.balanceOf(ALICE);
        vm.expectEmit(true, true, true, true);
        emit MarketGateway.GatewayBuy(m, ALICE, 1, quote, 10e18);
        uint256 paid = buy(dpm6, m, ALICE, 1, 10e18);
        vm.assertEq(paid, quote, "paid the quote");
        vm.assertEq(before - token6.balanceOf(ALICE), paid, "collateral out");
        vm.assertEq(dpm6.balanceOf(m, ALICE, 1), 10e18, "shares in");
        uint256 q2 = dpm6.quoteSellExactIn(m, 1, 4e18);
        vm.expectEmit(true, true, true, true);
        emit MarketGateway.GatewaySell(m, ALICE, 1, 4e18, q2);
        vm.assertEq(sell(dpm6, m, ALICE, 1, 4e18), q2, "sell pays the quote");
        vm.assertEq(dpm6.balanceOf(m, ALICE, 1), 6e18, "shares burned");
        assertSolvent(m);
        // a seller needs the shares, not just the supply
        vm.expectRevert(abi.encodeWithSelector(ERC6909.ERC6909InsufficientBalance.selector, BOB, 0, 1e18, 1));
        vm.prank(BOB);
        dpm6.sellExactIn(m, 1, 1e18, 0);
        // and a buyer an allowance for the market proxy
        vm.prank(BOB);
        token6.approve(m, 0);
        uint256 q3 = dpm6.quoteBuyExactOut(m, 0, 1e18);
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.ERC20InsufficientAllowance.selector, m, 0, q3));
        vm.prank(BOB);
        dpm6.buyExactOut(m, 0, 1e18, q3);
    }

    function test_noTradeAfterTheDeadline() public {
        address m = newMarket();
        buy(dpm6, m, ALICE, 0, 5e18);
        vm.warp(TRADING_DEADLINE);
        buy(dpm6, m, ALICE, 0, 1e18); // the deadline itself is still open
        vm.warp(TRADING_DEADLINE + 1);
        vm.assertEq(uint256(dpm6.marketStatus(m)), 1, "awaiting");
        vm.expectRevert(IMarketErrors.MarketNotOpen.selector);
        dpm6.quoteBuyExactOut(m, 0, 1e18);
        vm.expectRevert(IMarketErrors.MarketNotOpen.selector);
        dpm6.quoteSellExactIn(m, 0, 1e18);
        vm.expectRevert(IMarketErrors.MarketNotOpen.selector);
        buy(dpm6, m, ALICE, 0, 1e18);
        vm.expectRevert(IMarketErrors.MarketNotOpen.selector);
        sell(dpm6, m, ALICE, 0, 1e18);
    }

    // ------------------------------------------------------------ settlement and redemption

    function test_settleAndRedeemPaysThePoolExactly() public {
        address m = newMarket();
        buy(dpm6, m, ALICE, 0, 30e18);
        buy(dpm6, m, BOB, 0, 7e18);
        buy(dpm6, m, BOB, 1, 12e18);
        buy(dpm6, m, CAROL, 1, 20e18);
        sell(dpm6, m, BOB, 0, 2e18);

        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 0, 1));
        dpm6.resolveMarket(m);
        vm.warp(TRADING_DEADLINE + 1);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.NotOracleRelayer.selector, ALICE));
        vm.prank(ALICE);
        dpm6.settleMarket(m, 0);
        vm.expectEmit(true, true, false, false);
        emit MarketGateway.MarketResolutionRequested(m, CAROL);
        vm.prank(CAROL);
        dpm6.resolveMarket(m);
        vm.expectRevert(IMarketErrors.MarketResolutionLocked.selector);
        dpm6.resolveMarket(m);
        vm.expectRevert(IMarketErrors.MarketResolutionLocked.selector);
        vm.prank(CREATOR);
        dpm6.submitWinner(m, 0);
        vm.warp(SETTLEMENT_DEADLINE + 1 days);
        vm.assertEq(uint256(dpm6.marketStatus(m)), 1, "a pending resolution keeps the market awaiting");

        vm.expectRevert(IMarketErrors.WinningOutcomeOutOfBounds.selector);
        vm.prank(ORACLE);
        dpm6.settleMarket(m, 3);

        DpmMarket.DpmState memory s = dpm6.getMarket(m);
        uint256 reward = dpm6.marketCreatorWinningSharesSettlementValue(m, 0);
        uint256 creatorBefore = token6.balanceOf(CREATOR);
        vm.expectEmit(true, false, false, true);
        emit MarketGateway.GatewayMarketSettled(m, 0, reward, s.refund, s.tradingFees);
        vm.prank(ORACLE);
        dpm6.settleMarket(m, 0);
        vm.assertEq(token6.balanceOf(CREATOR) - creatorBefore, reward + s.refund + s.tradingFees, "creator paid");
        vm.assertEq(uint256(dpm6.marketStatus(m)), 2, "settled");
        assertSolvent(m);

        uint256 poolAfter = s.pool - reward;
        vm.prank(ALICE);
        (uint256 aShares, uint256 aOut) = dpm6.redeem(m);
        vm.assertEq(aShares, 30e18, "alice's shares in");
        vm.assertEq(aOut, poolAfter * 30e18 / (35e18), "alice's share of the pool");
        vm.assertEq(dpm6.balanceOf(m, ALICE, 0), 0, "shares transferred in");
        vm.expectRevert(IMarketErrors.RedeemZeroShares.selector);
        vm.prank(ALICE);
        dpm6.redeem(m);
        vm.expectRevert(IMarketErrors.RedeemZeroShares.selector);
        vm.prank(CAROL);
        dpm6.redeem(m);
        vm.prank(BOB);
        (, uint256 bOut) = dpm6.redeem(m);
        vm.assertEq(aOut + bOut, poolAfter, "the last redeemer gets the rest exactly");
        vm.assertEq(dpm6.getMarket(m).pool, 0, "pool empty");
        vm.assertEq(token6.balanceOf(m), 0, "nothing left behind");
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 2, 3));
        vm.prank(CAROL);
        dpm6.liquidate(m, new uint256[](1));
    }

    function test_submitWinnerLegacy() public {
        address m = newMarket();
        buy(dpm6, m, ALICE, 2, 3e18);
        vm.prank(CREATOR);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 0, 1));
        dpm6.submitWinner(m, 2);
        vm.warp(TRADING_DEADLINE + 1);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.NotMarketCreator.selector, ALICE));
        vm.prank(ALICE);
        dpm6.submitWinner(m, 2);
        uint256 reward = dpm6.marketCreatorWinningSharesSettlementValue(m, 2);
        DpmMarket.DpmState memory s = dpm6.getMarket(m);
        vm.expectEmit(true, false, false, true);
        emit MarketGateway.GatewayWinnerSubmitted(m, 2, reward, s.refund, s.tradingFees);
        vm.prank(CREATOR);
        (uint256 r, uint256 refund, uint256 fees) = dpm6.submitWinner(m, 2);
        vm.assertEq(r + refund + fees, reward + s.refund + s.tradingFees, "returns");
        vm.assertEq(dpm6.getMarket(m).winningOutcomeIdx, 2, "winner");
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 2, 1));
        vm.prank(ORACLE);
        dpm6.settleMarket(m, 1);
        vm.prank(ALICE);
        dpm6.redeem(m);
        vm.assertEq(token6.balanceOf(m), 0, "all paid");
    }

    // ------------------------------------------------------------ expiry, failure, liquidation

    function test_expiredLiquidationInAnyOrderStaysCovered() public {
        address m = newMarket();
        buy(dpm6, m, ALICE, 0, 30e18);
        buy(dpm6, m, BOB, 0, 7e18);
        buy(dpm6, m, BOB, 1, 12e18);
        buy(dpm6, m, CAROL, 2, 50e18);
        vm.warp(SETTLEMENT_DEADLINE + 1);
        vm.assertEq(uint256(dpm6.marketStatus(m)), 3, "expired");
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 3, 2));
        vm.prank(ALICE);
        dpm6.redeem(m);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 3, 1));
        dpm6.resolveMarket(m);

        uint256[] memory none = new uint256[](0);
        vm.expectRevert(IMarketErrors.EmptyOutcomeIndices.selector);
        vm.prank(ALICE);
        dpm6.liquidate(m, none);
        uint256[] memory twice = new uint256[](2);
        vm.expectRevert(IMarketErrors.ZeroSharesIn.selector);
        vm.prank(ALICE);
        dpm6.liquidate(m, twice);
        uint256[] memory bad = new uint256[](1);
        bad[0] = 7;
        vm.expectRevert(err(IMarketErrors.OutcomeIdxOutOfBounds.selector, 7, 3));
        vm.prank(ALICE);
        dpm6.liquidate(m, bad);

        DpmMarket.DpmState memory s = dpm6.getMarket(m);
        uint256 creatorValue = dpm6.marketCreatorTotalSharesLiquidationValue(m);
        uint256[] memory bobIdx = new uint256[](2);
        bobIdx[0] = 1;
        bobIdx[1] = 0;
        vm.prank(BOB);
        (uint256[] memory bobIn, uint256 total) = dpm6.liquidate(m, bobIdx);
        vm.assertEq(bobIn[0], 12e18, "bob outcome 1");
        vm.assertEq(bobIn[1], 7e18, "bob outcome 0");
        vm.assertEq(dpm6.marketCreatorTotalSharesLiquidationValue(m), creatorValue, "frozen prices");
        vm.assertEq(dpm6.getMarket(m).sumTerm36, s.sumTerm36, "supplies frozen");
        uint256 creatorBefore = token6.balanceOf(CREATOR);
        uint256 paid = dpm6.liquidateMarketCreationShares(m);
        vm.assertEq(paid, creatorValue + s.refund + s.tradingFees, "creator's exit");
        vm.assertEq(token6.balanceOf(CREATOR) - creatorBefore, paid, "paid to the creator");
        vm.assertTrue(dpm6.marketCreationSharesLiquidated(m), "flag");
        vm.expectRevert(IMarketErrors.MarketCreationSharesAlreadyLiquidated.selector);
        dpm6.liquidateMarketCreationShares(m);
        total += _liquidateOne(m, ALICE, 0) + _liquidateOne(m, CAROL, 2);
        vm.assertLe(total + creatorValue, s.pool, "all holdings covered by the pool");
        _assertDust(m);
    }

    function _liquidateOne(address m, address who, uint256 i) internal returns (uint256 out) {
        uint256[] memory one = new uint256[](1);
        one[0] = i;
        vm.prank(who);
        (, out) = dpm6.liquidate(m, one);
    }

    function _assertDust(address m) internal view {
        uint256 pool = dpm6.getMarket(m).pool;
        vm.assertEq(token6.balanceOf(m), pool, "only the pool's dust left");
        vm.assertLt(pool, 10, "dust");
    }

    function test_failMarket() public {
        address m = newMarket();
        buy(dpm6, m, ALICE, 0, 3e18);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.WrongMarketStatus.selector, 0, 1));
        vm.prank(ORACLE);
        dpm6.failMarket(m);
        vm.warp(TRADING_DEADLINE + 1);
        vm.expectRevert(abi.encodeWithSelector(IMarketErrors.NotOracleRelayer.selector, ALICE));
        vm.prank(ALICE);
        dpm6.failMarket(m);
        dpm6.resolveMarket(m);
        vm.expectEmit(true, false, false, false);
        emit MarketGateway.GatewayMarketFailed(m);
        vm.prank(ORACLE);
        dpm6.failMarket(m);
        vm.assertEq(uint256(dpm6.marketStatus(m)), 4, "failed");
        uint256[] memory one = new uint256[](1);
        vm.prank(ALICE);
        (, uint256 out) = dpm6.liquidate(m, one);
        vm.assertGt(out, 0, "liquidated");
        dpm6.liquidateMarketCreationShares(m);
        vm.assertLt(token6.balanceOf(m), 10, "dust");
    }

    // ------------------------------------------------------------ shares are ERC-6909

    function test_erc6909() public {
        address m = newMarket();
        buy(dpm6, m, ALICE, 0, 5e18);
        ERC6909 s = ERC6909(m);
        vm.prank(ALICE);
        s.transfer(BOB, 0, 1e18);
        vm.assertEq(s.balanceOf(BOB, 0), 1e18, "transfer");
        vm.expectRevert(abi.encodeWithSelector(ERC6909.ERC6909InsufficientAllowance.selector, CAROL, 0, 1e18, 0));
        vm.prank(CAROL);
        s.transferFrom(ALICE, CAROL, 0, 1e18);
        vm.prank(ALICE);
        s.approve(CAROL, 0, 2e18);
        vm.assertEq(dpm6.allowance(m, ALICE, CAROL, 0), 2e18, "allowance via gateway");
        vm.prank(CAROL);
        s.transferFrom(ALICE, CAROL, 0, 1e18);
        vm.assertEq(s.allowance(ALICE, CAROL, 0), 1e18, "allowance spent");
        vm.prank(ALICE);
        s.setOperator(BOB, true);
        vm.assertTrue(dpm6.isOperator(m, ALICE, BOB), "operator");
        vm.prank(BOB);
        s.transferFrom(ALICE, BOB, 0, 3e18);
        vm.assertEq(s.balanceOf(ALICE, 0), 0, "operator moved all");
        address[] memory owners = new address[](2);
        owners[0] = BOB;
        owners[1] = CAROL;
        uint256[] memory ids = new uint256[](2);
        uint256[] memory bals = dpm6.batchBalanceOf(m, owners, ids);
        vm.assertEq(bals[0] + bals[1], 5e18, "batch balances");
        vm.expectRevert(IMarketErrors.ArrayLengthMismatch.selector);
        dpm6.batchBalanceOf(m, owners, new uint256[](1));
        vm.assertTrue(s.supportsInterface(0x0f632fb3), "ERC-6909 interface id");
        // the new holder can sell
        sell(dpm6, m, BOB, 0, 4e18);
    }

    // ------------------------------------------------------------ re-entrancy

    function test_reentrancyIsBlocked() public {
        ReentrantToken t = new ReentrantToken();
        DynamicParimutuelGateway gw = new DynamicParimutuelGateway(address(t), ORACLE);
        MarketFactory f = MarketFactory(gw.delphiFactory());
        t.mint(CREATOR, 100e6);
        vm.startPrank(CREATOR);
        t.approve(address(f), 100e6);
        address m = f.deployNewMarketProxy(100e6, meta(), cfg(2, K, FEE));
        vm.stopPrank();
        t.mint(ALICE, 1e12);
        vm.prank(ALICE);
        t.approve(m, type(uint256).max);
        vm.prank(ALICE);
        gw.buyExactOut(m, 0, 10e18, type(uint256).max);

        // buy → token callback → buy again
        t.arm(address(gw), abi.encodeCall(gw.buyExactOut, (m, 0, 1e18, type(uint256).max)));
        vm.expectRevert(IMarketErrors.ReentrantCall.selector);
        vm.prank(ALICE);
        gw.buyExactOut(m, 0, 1e18, type(uint256).max);
        // sell → token callback → sell again
        t.arm(address(gw), abi.encodeCall(gw.sellExactIn, (m, 0, 1e18, 0)));
        vm.expectRevert(IMarketErrors.ReentrantCall.selector);
        vm.prank(ALICE);
        gw.sellExactIn(m, 0, 1e18, 0);
        t.arm(address(0), "");
        vm.prank(ALICE);
        gw.sellExactIn(m, 0, 1e18, 0);
    }

    // ------------------------------------------------------------ fuzz: rounding never favours the trader

    function _fuzzMarket(bool eighteen, uint256 n, uint256 k, uint256 fee, uint256 deposit)
        internal
        returns (DynamicParimutuelGateway gw, address m)
    {
        gw = eighteen ? dpm18 : dpm6;
        uint256 unit = eighteen ? 1e18 : 1e6;
        n = bound(n, 2, 20);
        k = bound(k, 1e18, 100e18);
        fee = bound(fee, 5e15, 5e16);
        deposit = bound(deposit, unit, 1_000_000 * unit);
        m = create(gw, n, k, fee, deposit);
        fund(gw, m, ALICE, 1e15 * unit);
    }

    function testFuzz_buyThenSellNeverProfits(
        bool eighteen,
        uint256 n,
        uint256 k,
        uint256 fee,
        uint256 deposit,
        uint256 shares
    ) public {
        (DynamicParimutuelGateway gw, address m) = _fuzzMarket(eighteen, n, k, fee, deposit);
        shares = bound(shares, 1e17, 1e24);
        uint256 paid = buy(gw, m, ALICE, 0, shares);
        try gw.quoteSellExactIn(m, 0, shares) returns (uint256 q) {
            vm.assertLe(q, paid, "a round trip never pays");
            vm.assertEq(sell(gw, m, ALICE, 0, shares), q, "sell pays its quote");
        } catch {}
        assertSolvent(m);
    }

    function testFuzz_splittingATradeNeverHelps(
        bool eighteen,
        uint256 n,
        uint256 k,
        uint256 fee,
        uint256 deposit,
        uint256 a,
        uint256 b
    ) public {
        (DynamicParimutuelGateway gw, address m) = _fuzzMarket(eighteen, n, k, fee, deposit);
        a = bound(a, 1e17, 1e23);
        b = bound(b, 1e17, 1e23);
        uint256 whole = gw.quoteBuyExactOut(m, 1, a + b);
        uint256 first = buy(gw, m, ALICE, 1, a);
        uint256 second = buy(gw, m, ALICE, 1, b);
        vm.assertGe(first + second, whole, "two buys cost at least one");
        // selling in two parts pays at most selling at once
        try gw.quoteSellExactIn(m, 1, a + b) returns (uint256 once) {
            uint256 s1 = sell(gw, m, ALICE, 1, a);
            try gw.quoteSellExactIn(m, 1, b) returns (uint256 s2) {
                vm.assertLe(s1 + s2, once, "two sells pay at most one");
            } catch {}
        } catch {}
        assertSolvent(m);
    }
}
