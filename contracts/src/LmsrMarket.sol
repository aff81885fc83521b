// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ExpLn} from "./ExpLn.sol";
import {FixedPointMath} from "./FixedPointMath.sol";
import {MarketBase} from "./MarketBase.sol";
import {MarketConfig} from "./MarketTypes.sol";

/// @title LmsrMarket
/// @notice Logarithmic market scoring rule market (cost b·ln Σe^{qᵢ/b}), the implementation behind every
/// LmsrFactory proxy; formulas, roundings and reverts are those of src/core/markets/lmsr/lmsr.ts and src/core/markets/exp-ln.ts.
/// `config.k` is the liquidity parameter b. One winning share (1e18 wei-shares) pays one token.
/// - eᵢ = expUpWad(⌈qᵢ·1e27/b⌉), E = Σeᵢ; prices πᵢ = ⌊eᵢ·1e18/E⌋
/// - buy: net = ⌈b·lnRatioUp(max(E', E), E)/(1e27·scaler)⌉; sell: gross = ⌊b·lnRatioDown(E, E')/(1e27·scaler)⌋
/// - creator pays initialPool = ⌈b·lnRatioUp(n·1e18, 1e18)/(1e27·scaler)⌉ and gets pool − ⌊q_w/scaler⌋ + fees.
/// Liquidation (expired/failed; not in lmsr.ts, defined here): a holding is worth
/// ⌊Σᵢ⌊sᵢ·eᵢ/E⌋ / scaler⌋ at the frozen prices (lmsr.ts liquidationValue); the creator takes the pool
/// above ⌈Σᵢ⌈oᵢ·eᵢ/E⌉ / scaler⌉, oᵢ the supply not yet liquidated (liquidated shares sit on this
/// proxy), which bounds what the remaining holders can claim in any order (creatorLiquidationValue).
contract LmsrMarket is MarketBase {
    uint256 internal constant RAY = 1e27;
    uint256 public constant MIN_LIQUIDITY = 1e18;
    uint256 public constant MAX_LIQUIDITY = 5_000_000e18;
    uint256 public constant MIN_OUTCOME_COUNT = 2;
    uint256 public constant MAX_OUTCOME_COUNT = 20;
    uint256 public constant MAX_TRADING_FEE = 5e16;

    struct LmsrState {
        MarketConfig config;
        uint256 initialPool;
        uint256 pool;
        uint256 tradingFees;
        uint256 expSum;
        uint256 winningOutcomeIdx;
    }

    /// eᵢ (WAD)
    mapping(uint256 => uint256) public outcomeExp;
    /// E = Σ eᵢ (WAD)
    uint256 public expSum;

    function getMarket() external view returns (LmsrState memory) {
        return LmsrState(_config, initialPool, pool, tradingFees, expSum, winningOutcomeIdx);
    }

    function _initMaths(MarketConfig memory c, uint256 deposit) internal override returns (uint256) {
        uint256 n = c.outcomeCount;
        if (n < MIN_OUTCOME_COUNT) revert OutcomeCountTooLow(n, MIN_OUTCOME_COUNT);
        if (n > MAX_OUTCOME_COUNT) revert OutcomeCountTooHigh(n, MAX_OUTCOME_COUNT);
        if (c.k < MIN_LIQUIDITY) revert LiquidityParameterTooLow(c.k, MIN_LIQUIDITY);
        if (c.k > MAX_LIQUIDITY) revert LiquidityParameterTooHigh(c.k, MAX_LIQUIDITY);
        if (c.tradingFee > MAX_TRADING_FEE) revert TradingFeeTooHigh(c.tradingFee, MAX_TRADING_FEE);
        uint256 pool0 = FixedPointMath.mulDivUp(c.k, ExpLn.lnRatioUp(n * WAD, WAD), RAY * tokenScaler);
        // The creator funds exactly the maximum loss; a smaller deposit cannot.
        if (deposit < pool0) revert InitialDepositTooLow(deposit, pool0);
        initialPool = pool0;
        pool = pool0;
        for (uint256 i; i < n; ++i) {
            outcomeExp[i] = WAD;
        }
        expSum = n * WAD;
        return pool0;
    }

    function _tradingWindowBounds() internal pure override returns (uint256, uint256) {
        return (30 seconds, 3650 days);
    }

    function _settlementWindowBounds() internal pure override returns (uint256, uint256) {
        return (30 seconds, 3650 days);
    }

    function _exp(uint256 supply) internal view returns (uint256) {
        return ExpLn.expUpWad(FixedPointMath.mulDivUp(supply, RAY, _config.k));
    }

    function _computeBuy(uint256 i, uint256 sharesOut)
        internal
        view
        override
        returns (uint256 tokensIn, uint256 net, uint256 newExp, uint256 newExpSum)
    {
        uint256 q = _checkBuySize(i, sharesOut);
        newExp = _exp(q + sharesOut);
        uint256 e = expSum;
        newExpSum = e - outcomeExp[i] + newExp;
        uint256 top = newExpSum > e ? newExpSum : e;
        net = FixedPointMath.mulDivUp(_config.k, ExpLn.lnRatioUp(top, e), RAY * tokenScaler);
        tokensIn = _grossUp(net);
    }

    function _computeSell(uint256 i, uint256 sharesIn)
        internal
        view
        override
        returns (uint256 tokensOut, uint256 gross, uint256 newExp, uint256 newExpSum)
    {
        uint256 q = _checkSellSize(i, sharesIn);
        newExp = _exp(q - sharesIn);
        uint256 e = expSum;
        newExpSum = e - outcomeExp[i] + newExp;
        if (newExpSum >= e) revert GrossTokensOutNotPositive();
        gross = FixedPointMath.mulDivDown(_config.k, ExpLn.lnRatioDown(e, newExpSum), RAY * tokenScaler);
        tokensOut = _netDown(gross);
    }

    function _commitTrade(uint256 i, uint256 newExp, uint256 newExpSum) internal override {
        outcomeExp[i] = newExp;
        expSum = newExpSum;
    }

    function _settle(uint256 w) internal override returns (uint256 reward) {
        uint256 owed = totalSupply[w] / tokenScaler;
        reward = pool - owed;
        pool = owed;
    }

    function _redeemValue(uint256 shares) internal view override returns (uint256) {
        return shares / tokenScaler;
    }

    function _liquidationValue(uint256[] memory shares) internal view override returns (uint256) {
        uint256 e = expSum;
        uint256 sum;
        for (uint256 i; i < shares.length; ++i) {
            if (shares[i] != 0) sum += FixedPointMath.mulDivDown(shares[i], outcomeExp[i], e);
        }
        return sum / tokenScaler;
    }

    function _creatorLiquidationValue() internal view override returns (uint256) {
        uint256 e = expSum;
        uint256 reserve;
        for (uint256 i; i < _config.outcomeCount; ++i) {
            // Shares already liquidated were paid out of the pool: reserve for the outstanding ones only.
            uint256 outstanding = totalSupply[i] - balanceOf[address(this)][i];
            reserve += FixedPointMath.mulDivUp(outstanding, outcomeExp[i], e);
        }
        reserve = FixedPointMath.mulDivUp(reserve, 1, tokenScaler);
        return pool > reserve ? pool - reserve : 0;
    }

    /// πᵢ = ⌊eᵢ·1e18/E⌋ (price = implied probability; prices sum to at most 1e18).
    function spotPrice(uint256 i) public view override returns (uint256) {
        _checkOutcome(i);
        return FixedPointMath.mulDivDown(outcomeExp[i], WAD, expSum);
    }

    function spotImpliedProbability(uint256 i) external view override returns (uint256) {
        return spotPrice(i);
    }
}
