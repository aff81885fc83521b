// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC6909} from "./ERC6909.sol";
import {FixedPointMath} from "./FixedPointMath.sol";
import {IMarketErrors} from "./IMarketErrors.sol";
import {MarketConfig, MarketMetadata, MarketStatus} from "./MarketTypes.sol";
import {SafeTransfer} from "./SafeTransfer.sol";

/// @title MarketBase
/// @notice What a DPM and an LMSR market proxy share: ERC-6909 outcome shares (ids 0..n−1), the
/// collateral they hold (`pool` backs the shares, `tradingFees` and `refund` belong to the creator),
/// the lifecycle (open → awaiting settlement → settled | expired | failed), trade bookkeeping with the
/// gateway's slippage bounds, redemption, liquidation at frozen prices and the creator's exit.
/// The pricing rule supplies the hooks. Every state-changing entry point is callable by the gateway
/// only, takes the trader as an argument and is guarded against re-entry (transient lock).
///
/// Each proxy is an EIP-1167 clone initialised once by its factory; the implementation itself is
/// locked by its constructor.
abstract contract MarketBase is ERC6909, IMarketErrors {
    uint256 public constant MIN_SHARES_DELTA = 1e6;
    uint256 internal constant WAD = 1e18;
    uint256 internal constant NO_WINNER = type(uint256).max;

    address public gateway;
    address public token;
    address public creator;
    /// 10^(18 − token decimals)
    uint256 public tokenScaler;
    MarketConfig internal _config;
    MarketMetadata internal _metadata;
    uint256 public initialDeposit;
    uint256 public initialPool;
    /// Collateral backing the shares (base units).
    uint256 public pool;
    /// Fees collected by trades (base units); paid to the creator when the market ends.
    uint256 public tradingFees;
    /// Part of the deposit returned to the creator when the market ends.
    uint256 public refund;
    uint256 public winningOutcomeIdx;
    bool public failed;
    bool public resolutionRequested;
    /// The creator has been paid out of an expired or failed market.
    bool public creationSharesLiquidated;
    bool private transient _entered;

    modifier onlyGateway() {
        if (msg.sender != gateway) revert NotGateway(msg.sender);
        if (_entered) revert ReentrantCall();
        _entered = true;
        _;
        _entered = false;
    }

    constructor() {
        gateway = address(1); // the implementation is never initialised
    }

    // ------------------------------------------------------------ initialisation

    /// Called by the factory right after cloning; returns the collateral the factory must move from the
    /// creator to this proxy. Validates the config (maths limits first, in the TS order, then windows).
    function initialize(
        address gateway_,
        address token_,
        uint256 tokenScaler_,
        address creator_,
        uint256 initialDeposit_,
        MarketMetadata calldata metadata_,
        bytes calldata abiEncodedConfig
    ) external returns (uint256 amountIn) {
        if (gateway != address(0)) revert AlreadyInitialized();
        gateway = gateway_;
        token = token_;
        tokenScaler = tokenScaler_;
        creator = creator_;
        initialDeposit = initialDeposit_;
        _metadata = metadata_;
        MarketConfig memory c = abi.decode(abiEncodedConfig, (MarketConfig));
        _config = c;
        winningOutcomeIdx = NO_WINNER;
        amountIn = _initMaths(c, initialDeposit_);
        _checkWindow(c.tradingDeadline > block.timestamp ? c.tradingDeadline - block.timestamp : 0, true);
        _checkWindow(c.settlementDeadline > c.tradingDeadline ? c.settlementDeadline - c.tradingDeadline : 0, false);
    }

    function _checkWindow(uint256 window, bool trading) private pure {
        (uint256 lo, uint256 hi) = trading ? _tradingWindowBounds() : _settlementWindowBounds();
        if (window < lo || window > hi) {
            if (trading) revert TradingWindowOutOfBounds(window, lo, hi);
            revert SettlementWindowOutOfBounds(window, lo, hi);
        }
    }

    // ------------------------------------------------------------ pricing-rule hooks

    /// Validates the config and deposit in the TS order, sets the initial state, returns the amount in.
    function _initMaths(MarketConfig memory c, uint256 deposit) internal virtual returns (uint256 amountIn);
    function _tradingWindowBounds() internal pure virtual returns (uint256 min, uint256 max);
    function _settlementWindowBounds() internal pure virtual returns (uint256 min, uint256 max);
    /// Quote of a buy: tokens in (fee included), the net part for the pool, and two words of new state.
    function _computeBuy(uint256 i, uint256 sharesOut)
        internal
        view
        virtual
        returns (uint256 tokensIn, uint256 net, uint256 s0, uint256 s1);
    /// Quote of a sell: tokens out (fee deducted), the gross part leaving the pool, and new state.
    function _computeSell(uint256 i, uint256 sharesIn)
        internal
        view
        virtual
        returns (uint256 tokensOut, uint256 gross, uint256 s0, uint256 s1);
    /// Stores the new state words of a trade on outcome i.
    function _commitTrade(uint256 i, uint256 s0, uint256 s1) internal virtual;
    /// Settles on outcome w (w < n): returns the creator's reward taken out of the pool.
    function _settle(uint256 w) internal virtual returns (uint256 marketCreatorReward);
    /// Tokens paid for redeeming `shares` winning shares (may revert).
    function _redeemValue(uint256 shares) internal virtual returns (uint256 tokensOut);
    /// Value of a holding (per outcome) at the frozen prices of an expired or failed market.
    function _liquidationValue(uint256[] memory shares) internal view virtual returns (uint256);
    /// What the creator takes out of the pool when an expired or failed market is wound up.
    function _creatorLiquidationValue() internal view virtual returns (uint256);
    function spotPrice(uint256 i) external view virtual returns (uint256);
    function spotImpliedProbability(uint256 i) external view virtual returns (uint256);

    // ------------------------------------------------------------ views

    function config() external view returns (MarketConfig memory) {
        return _config;
    }

    function metadata() external view returns (MarketMetadata memory) {
        return _metadata;
    }

    function outcomeCount() public view returns (uint256) {
        return _config.outcomeCount;
    }

    function marketStatus() public view returns (uint8) {
        if (failed) return MarketStatus.FAILED;
        if (winningOutcomeIdx != NO_WINNER) return MarketStatus.SETTLED;
        if (block.timestamp <= _config.tradingDeadline) return MarketStatus.OPEN;
        if (resolutionRequested || block.timestamp <= _config.settlementDeadline) {
            return MarketStatus.AWAITING_SETTLEMENT;
        }
        return MarketStatus.EXPIRED;
    }

    /// 0.01 token in base units.
    function minTokensDelta() public view returns (uint256) {
        return WAD / tokenScaler / 100;
    }

    function quoteBuy(uint256 i, uint256 sharesOut) external view returns (uint256 tokensIn, uint256 s0, uint256 s1) {
        _requireOpen();
        (tokensIn,, s0, s1) = _computeBuy(i, sharesOut);
    }

    function quoteSell(uint256 i, uint256 sharesIn) external view returns (uint256 tokensOut, uint256 s0, uint256 s1) {
        _requireOpen();
        (tokensOut,, s0, s1) = _computeSell(i, sharesIn);
    }

    // ------------------------------------------------------------ trading (gateway only)

    function buy(address trader, uint256 i, uint256 sharesOut, uint256 maxTokensIn)
        external
        onlyGateway
        returns (uint256 tokensIn)
    {
        _requireOpen();
        (uint256 tIn, uint256 net, uint256 s0, uint256 s1) = _computeBuy(i, sharesOut);
        if (tIn > maxTokensIn) revert TokensInExceedsMax(tIn, maxTokensIn);
        _commitTrade(i, s0, s1);
        pool += net;
        tradingFees += tIn - net;
        _mint(trader, i, sharesOut);
        SafeTransfer.safeTransferFrom(token, trader, address(this), tIn);
        return tIn;
    }

    function sell(address trader, uint256 i, uint256 sharesIn, uint256 minTokensOut)
        external
        onlyGateway
        returns (uint256 tokensOut)
    {
        _requireOpen();
        (uint256 tOut, uint256 gross, uint256 s0, uint256 s1) = _computeSell(i, sharesIn);
        if (tOut < minTokensOut) revert TokensOutBelowMin(tOut, minTokensOut);
        _commitTrade(i, s0, s1);
        pool -= gross;
        tradingFees += gross - tOut;
        _burn(trader, i, sharesIn);
        SafeTransfer.safeTransfer(token, trader, tOut);
        return tOut;
    }

    // ------------------------------------------------------------ lifecycle (gateway only)

    /// Anyone (through the gateway) once the trading deadline has passed: locks the market in
    /// AWAITING_SETTLEMENT until the oracle settles or fails it.
    function requestResolution() external onlyGateway {
        _requireStatus(MarketStatus.AWAITING_SETTLEMENT);
        if (resolutionRequested) revert MarketResolutionLocked();
        resolutionRequested = true;
    }

    /// Settles on `w` and pays the creator its reward, refund and fees. `byCreator`: the legacy
    /// `submitWinner` path (caller must be the creator, no automated resolution pending); otherwise the
    /// gateway has checked that the caller is the oracle relayer.
    function settle(address caller, uint256 w, bool byCreator)
        external
        onlyGateway
        returns (uint256 marketCreatorReward, uint256 refund_, uint256 marketCreatorTradingFeesCut)
    {
        _requireStatus(MarketStatus.AWAITING_SETTLEMENT);
        if (byCreator) {
            if (caller != creator) revert NotMarketCreator(caller);
            if (resolutionRequested) revert MarketResolutionLocked();
        }
        if (w >= _config.outcomeCount) revert WinningOutcomeOutOfBounds();
        marketCreatorReward = _settle(w);
        winningOutcomeIdx = w;
        refund_ = refund;
        marketCreatorTradingFeesCut = tradingFees;
        _pay(creator, marketCreatorReward + refund_ + marketCreatorTradingFeesCut);
    }

    function fail() external onlyGateway {
        _requireStatus(MarketStatus.AWAITING_SETTLEMENT);
        failed = true;
    }

    // ------------------------------------------------------------ exits (gateway only)

    /// Redeems all of `trader`'s winning shares (transferred in, not burned).
    function redeem(address trader) external onlyGateway returns (uint256 sharesIn, uint256 tokensOut) {
        _requireStatus(MarketStatus.SETTLED);
        uint256 w = winningOutcomeIdx;
        sharesIn = balanceOf[trader][w];
        if (sharesIn == 0) revert RedeemZeroShares();
        tokensOut = _redeemValue(sharesIn);
        if (tokensOut == 0) revert RedeemZeroTokensOut();
        pool -= tokensOut;
        _transfer(trader, address(this), w, sharesIn);
        SafeTransfer.safeTransfer(token, trader, tokensOut);
    }

    /// Liquidates `trader`'s whole balance of each listed outcome at the frozen prices of an expired or
    /// failed market. Shares are transferred in, not burned, so supplies stay frozen and the order of
    /// liquidations does not matter.
    function liquidate(address trader, uint256[] calldata outcomeIndices)
        external
        onlyGateway
        returns (uint256[] memory sharesIn, uint256 totalTokensOut)
    {
        _requireEnded();
        if (outcomeIndices.length == 0) revert EmptyOutcomeIndices();
        uint256[] memory holding = new uint256[](_config.outcomeCount);
        sharesIn = new uint256[](outcomeIndices.length);
        for (uint256 j; j < outcomeIndices.length; ++j) {
            uint256 i = outcomeIndices[j];
            _checkOutcome(i);
            uint256 b = balanceOf[trader][i];
            if (b == 0) revert ZeroSharesIn();
            holding[i] = b;
            sharesIn[j] = b;
            _transfer(trader, address(this), i, b);
        }
        totalTokensOut = _liquidationValue(holding);
        if (totalTokensOut > pool) revert GrossTokensOutExceedMarketPool();
        pool -= totalTokensOut;
        _pay(trader, totalTokensOut);
    }

    /// Winds up the creator's stake in an expired or failed market: its locked shares (or, for LMSR,
    /// the pool above what holders can claim), the refund and the trading fees, paid to the creator.
    function liquidateCreationShares() external onlyGateway returns (uint256 totalTokensOut) {
        _requireEnded();
        if (creationSharesLiquidated) revert MarketCreationSharesAlreadyLiquidated();
        creationSharesLiquidated = true;
        uint256 value = _creatorLiquidationValue();
        if (value > pool) revert GrossTokensOutExceedMarketPool();
        pool -= value;
        totalTokensOut = value + refund + tradingFees;
        _pay(creator, totalTokensOut);
    }

    // ------------------------------------------------------------ helpers

    function _checkOutcome(uint256 i) internal view {
        if (i >= _config.outcomeCount) revert OutcomeIdxOutOfBounds(i, _config.outcomeCount);
    }

    function _requireOpen() internal view {
        if (marketStatus() != MarketStatus.OPEN) revert MarketNotOpen();
    }

    function _requireStatus(uint8 required) internal view {
        uint8 s = marketStatus();
        if (s != required) revert WrongMarketStatus(s, required);
    }

    function _requireEnded() internal view {
        uint8 s = marketStatus();
        if (s != MarketStatus.EXPIRED && s != MarketStatus.FAILED) revert WrongMarketStatus(s, MarketStatus.EXPIRED);
    }

    /// Checks shared by both rules, in the TS order: outcome, zero, minimum size.
    function _checkBuySize(uint256 i, uint256 sharesOut) internal view returns (uint256 supply) {
        _checkOutcome(i);
        if (sharesOut == 0) revert ZeroSharesOut();
        if (sharesOut < MIN_SHARES_DELTA) revert SharesOutBelowMinDelta(sharesOut, MIN_SHARES_DELTA);
        return totalSupply[i];
    }

    function _checkSellSize(uint256 i, uint256 sharesIn) internal view returns (uint256 supply) {
        _checkOutcome(i);
        if (sharesIn == 0) revert ZeroSharesIn();
        if (sharesIn < MIN_SHARES_DELTA) revert SharesInBelowMinDelta(sharesIn, MIN_SHARES_DELTA);
        supply = totalSupply[i];
        if (sharesIn > supply) revert SharesInExceedSupply(sharesIn, supply);
    }

    /// Net → tokens in: ⌈net·1e18/(1e18 − fee)⌉ with the TS checks (zero net, zero, below 0.01 token).
    function _grossUp(uint256 net) internal view returns (uint256 tokensIn) {
        if (net == 0) revert ZeroNetTokensIn();
        tokensIn = FixedPointMath.mulDivUp(net, WAD, WAD - _config.tradingFee);
        if (tokensIn == 0) revert ZeroTokensIn();
        uint256 minTokens = minTokensDelta();
        if (tokensIn < minTokens) revert TokensInBelowMin(tokensIn, minTokens);
    }

    /// Gross → tokens out: ⌊gross·(1e18 − fee)/1e18⌋ with the TS checks (not positive, above the pool,
    /// zero, below 0.01 token).
    function _netDown(uint256 gross) internal view returns (uint256 tokensOut) {
        if (gross == 0) revert GrossTokensOutNotPositive();
        if (gross > pool) revert GrossTokensOutExceedMarketPool();
        tokensOut = FixedPointMath.mulDivDown(gross, WAD - _config.tradingFee, WAD);
        if (tokensOut == 0) revert ZeroTokensOut();
        if (tokensOut < minTokensDelta()) revert SellTooSmall();
    }

    function _pay(address to, uint256 amount) internal {
        if (amount != 0) SafeTransfer.safeTransfer(token, to, amount);
    }
}
