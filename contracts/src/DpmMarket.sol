// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DpmMath} from "./DpmMath.sol";
import {FixedPointMath} from "./FixedPointMath.sol";
import {MarketBase} from "./MarketBase.sol";
import {MarketConfig} from "./MarketTypes.sol";

/// @title DpmMarket
/// @notice Dynamic parimutuel market (cost k·√Σq²), the implementation behind every DelphiFactory proxy.
/// Every formula, rounding and revert is the one of src/core/markets/dpm/dpm.ts, in the same order:
/// - buy Δ of i:  S' = S + Δ(2qᵢ + Δ); net = ⌈k·(⌈√S'⌉ − ⌊√S⌋)/(1e18·scaler)⌉; tokensIn = ⌈net·1e18/(1e18 − fee)⌉
/// - sell Δ of i: S' = S − Δ(2qᵢ − Δ); gross = ⌊k·(⌊√S⌋ − ⌈√S'⌉)/(1e18·scaler)⌋; tokensOut = ⌊gross·(1e18 − fee)/1e18⌋
/// - creation: sharesPerOutcome = ⌊D·scaler·1e18/(k·n)⌋ held by the market for the creator.
/// - settlement: creator reward ⌊pool·creatorShares/q_w⌋; redeem ⌊pool·s/unclaimed⌋.
/// - liquidation (expired/failed): ⌊k·Σ(sᵢ·qᵢ)/(⌈√S⌉·1e18·scaler)⌋.
contract DpmMarket is MarketBase {
    struct DpmState {
        MarketConfig config;
        uint256 initialPool;
        uint256 pool;
        uint256 tradingFees;
        uint256 refund;
        uint256 sumTerm36;
        uint256 winningOutcomeIdx;
    }

    /// Σ qᵢ² (36 decimals)
    uint256 public sumTerm36;
    uint256 public creatorSharesPerOutcome;
    /// Winning shares not redeemed yet (set at settlement: q_w − creator's shares).
    uint256 public unclaimedWinningShares;

    function getMarket() external view returns (DpmState memory) {
        return DpmState(_config, initialPool, pool, tradingFees, refund, sumTerm36, winningOutcomeIdx);
    }

    function _initMaths(MarketConfig memory c, uint256 deposit) internal override returns (uint256) {
        uint256 n = c.outcomeCount;
        if (n < DpmMath.MIN_OUTCOME_COUNT) revert OutcomeCountTooLow(n, DpmMath.MIN_OUTCOME_COUNT);
        if (n > DpmMath.MAX_OUTCOME_COUNT) revert OutcomeCountTooHigh(n, DpmMath.MAX_OUTCOME_COUNT);
        if (c.k < DpmMath.MIN_K) revert KTooLow(c.k, DpmMath.MIN_K);
        if (c.k > DpmMath.MAX_K) revert KTooHigh(c.k, DpmMath.MAX_K);
        if (c.tradingFee < DpmMath.MIN_TRADING_FEE) revert TradingFeeTooLow(c.tradingFee, DpmMath.MIN_TRADING_FEE);
        if (c.tradingFee > DpmMath.MAX_TRADING_FEE) revert TradingFeeTooHigh(c.tradingFee, DpmMath.MAX_TRADING_FEE);
        uint256 scaler = tokenScaler;
        uint256 unit = WAD / scaler;
        uint256 minDeposit = DpmMath.MIN_INITIAL_DEPOSIT_TOKENS * unit;
        uint256 maxDeposit = DpmMath.MAX_INITIAL_DEPOSIT_TOKENS * unit;
        if (deposit < minDeposit) revert InitialDepositTooLow(deposit, minDeposit);
        if (deposit > maxDeposit) revert InitialDepositTooHigh(deposit, maxDeposit);

        uint256 shares = FixedPointMath.mulDivDown(deposit * scaler, WAD, c.k * n);
        (uint256 pool0, uint256 refund0) = DpmMath.initialPoolAndRefund(deposit, n);
        initialPool = pool0;
        pool = pool0;
        refund = refund0;
        creatorSharesPerOutcome = shares;
        sumTerm36 = n * shares * shares;
        for (uint256 i; i < n; ++i) {
            _mint(address(this), i, shares);
        }
        return deposit;
    }

    function _tradingWindowBounds() internal pure override returns (uint256, uint256) {
        return (DpmMath.MIN_TRADING_WINDOW, DpmMath.MAX_TRADING_WINDOW);
    }

    function _settlementWindowBounds() internal pure override returns (uint256, uint256) {
        return (DpmMath.MIN_SETTLEMENT_WINDOW, DpmMath.MAX_SETTLEMENT_WINDOW);
    }

    function _computeBuy(uint256 i, uint256 sharesOut)
        internal
        view
        override
        returns (uint256 tokensIn, uint256 net, uint256 newSumTerm, uint256)
    {
        uint256 q = _checkBuySize(i, sharesOut);
        uint256 s = sumTerm36;
        newSumTerm = s + sharesOut * (2 * q + sharesOut);
        uint256 rootDelta = FixedPointMath.sqrtUp(newSumTerm) - FixedPointMath.sqrtDown(s);
        net = FixedPointMath.mulDivUp(_config.k, rootDelta, WAD * tokenScaler);
        tokensIn = _grossUp(net);
        return (tokensIn, net, newSumTerm, 0);
    }

    function _computeSell(uint256 i, uint256 sharesIn)
        internal
        view
        override
        returns (uint256 tokensOut, uint256 gross, uint256 newSumTerm, uint256)
    {
        uint256 q = _checkSellSize(i, sharesIn);
        uint256 newSupply = q - sharesIn;
        if (newSupply != 0 && newSupply < MIN_SHARES_DELTA) {
            revert OutcomeSupplyBelowMinDelta(newSupply, MIN_SHARES_DELTA);
        }
        uint256 s = sumTerm36;
        newSumTerm = s - sharesIn * (2 * q - sharesIn);
        uint256 oldRoot = FixedPointMath.sqrtDown(s);
        uint256 newRoot = FixedPointMath.sqrtUp(newSumTerm);
        if (newRoot > oldRoot) revert SqrtOverlap();
        gross = FixedPointMath.mulDivDown(_config.k, oldRoot - newRoot, WAD * tokenScaler);
        tokensOut = _netDown(gross);
        return (tokensOut, gross, newSumTerm, 0);
    }

    function _commitTrade(uint256, uint256 newSumTerm, uint256) internal override {
        sumTerm36 = newSumTerm;
    }

    function _settle(uint256 w) internal override returns (uint256 reward) {
        reward = marketCreatorWinningSharesSettlementValue(w);
        pool -= reward;
        unclaimedWinningShares = totalSupply[w] - creatorSharesPerOutcome;
    }

    function _redeemValue(uint256 shares) internal override returns (uint256 tokensOut) {
        uint256 unclaimed = unclaimedWinningShares;
        if (shares > unclaimed) revert SharesInExceedSupply(shares, unclaimed);
        tokensOut = FixedPointMath.mulDivDown(pool, shares, unclaimed);
        unclaimedWinningShares = unclaimed - shares;
    }

    function _liquidationValue(uint256[] memory shares) internal view override returns (uint256) {
        uint256 dot;
        for (uint256 i; i < shares.length; ++i) {
            dot += shares[i] * totalSupply[i];
        }
        if (dot == 0) return 0;
        return FixedPointMath.mulDivDown(_config.k, dot, FixedPointMath.sqrtUp(sumTerm36) * WAD * tokenScaler);
    }

    function _creatorLiquidationValue() internal view override returns (uint256) {
        return marketCreatorTotalSharesLiquidationValue();
    }

    // ------------------------------------------------------------ views (dpm.ts twins)

    /// ⌊k·qᵢ/(⌊√S⌋·scaler)⌋ base units per whole share.
    function spotPrice(uint256 i) external view override returns (uint256) {
        _checkOutcome(i);
        return FixedPointMath.mulDivDown(_config.k, totalSupply[i], FixedPointMath.sqrtDown(sumTerm36) * tokenScaler);
    }

    /// ⌊qᵢ²·1e18/S⌋
    function spotImpliedProbability(uint256 i) external view override returns (uint256) {
        _checkOutcome(i);
        uint256 q = totalSupply[i];
        return FixedPointMath.mulDivDown(q * q, WAD, sumTerm36);
    }

    /// ⌊pool·creatorShares/q_w⌋ (0 when q_w = 0).
    function marketCreatorWinningSharesSettlementValue(uint256 w) public view returns (uint256) {
        _checkOutcome(w);
        uint256 q = totalSupply[w];
        if (q == 0) return 0;
        return FixedPointMath.mulDivDown(pool, creatorSharesPerOutcome, q);
    }

    function marketCreatorTotalSharesLiquidationValue() public view returns (uint256) {
        uint256 n = _config.outcomeCount;
        uint256[] memory shares = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            shares[i] = creatorSharesPerOutcome;
        }
        return _liquidationValue(shares);
    }

    function outcomeSuppliesSum() external view returns (uint256 sum) {
        for (uint256 i; i < _config.outcomeCount; ++i) {
            sum += totalSupply[i];
        }
    }
}
