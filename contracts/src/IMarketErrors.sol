// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IMarketErrors
/// @notice Every custom error the market contracts revert with, inherited by the markets, factories and
/// gateways so each ABI can decode a revert bubbling up from a market proxy. Names and arguments are
/// those of src/core/markets/errors.ts (`MarketMathError.name` / `.args`): Delphi's published gateway errors
/// first, then the ones Delphi documents without a signature, then tabswarm's own (INVENTED_ERROR_NAMES
/// and the contract-only ones: access, lifecycle, deadlines).
interface IMarketErrors {
    // ---- Delphi DynamicParimutuelGateway (exact interface)
    error BuyTooSmall();
    error GrossTokensOutNotPositive();
    error MarketNotOpen();
    error MarketProxyNotDeployedByFactory(address marketProxy);
    error OutcomeSupplyBelowMinDelta(uint256 newSupply, uint256 minDelta);
    error SellOverlap();
    error SellTooSmall();
    error SharesInBelowMinDelta(uint256 sharesIn, uint256 minDelta);
    error SharesInExceedSupply(uint256 sharesIn, uint256 supply);
    error SharesOutBelowMinDelta(uint256 sharesOut, uint256 minDelta);
    error SqrtOverlap();
    error TokenDecimalsTooHigh(uint8 decimals);
    error TokenDecimalsTooLow(uint8 decimals);
    error TokensInBelowMin(uint256 tokensIn, uint256 minTokensIn);
    error TokensInExceedsMax(uint256 tokensIn, uint256 maxTokensIn);
    error TokensOutBelowMin(uint256 tokensOut, uint256 minTokensOut);
    error ZeroNetTokensIn();
    error ZeroSharesIn();
    error ZeroSharesOut();
    error ZeroTokensIn();
    error ZeroTokensOut();

    // ---- Delphi errors documented by name (research/delphi.md §9)
    error WrongMarketStatus(uint8 currentStatus, uint8 requiredStatus);
    error WinningOutcomeOutOfBounds();
    error CannotResolveMarketYet();
    error GrossTokensOutExceedMarketPool();
    error RedeemZeroShares();
    error RedeemZeroTokensOut();
    error EmptyOutcomeIndices();
    error ArrayLengthMismatch();
    error ExpInputTooBig(uint256 xRay, uint256 maxXRay);

    // ---- tabswarm's names (src/core/markets/errors.ts INVENTED_ERROR_NAMES), same arguments
    error OutcomeIdxOutOfBounds(uint256 outcomeIdx, uint256 outcomeCount);
    error OutcomeCountTooLow(uint256 outcomeCount, uint256 min);
    error OutcomeCountTooHigh(uint256 outcomeCount, uint256 max);
    error KTooLow(uint256 k, uint256 min);
    error KTooHigh(uint256 k, uint256 max);
    error TradingFeeTooLow(uint256 tradingFee, uint256 min);
    error TradingFeeTooHigh(uint256 tradingFee, uint256 max);
    error InitialDepositTooLow(uint256 initialDeposit, uint256 min);
    error InitialDepositTooHigh(uint256 initialDeposit, uint256 max);
    error LiquidityParameterTooLow(uint256 b, uint256 min);
    error LiquidityParameterTooHigh(uint256 b, uint256 max);
    /// Declared for parity with the TS maths; a uint256 cannot be negative, so never thrown.
    error NegativeValue(int256 value);
    /// Declared for parity; on-chain an overflow is a checked-arithmetic panic (0x11).
    error Uint256Overflow(uint256 value);
    /// Declared for parity; on-chain a division by zero is panic 0x12.
    error DivisionByZero();
    error LnRatioBelowOne(uint256 num, uint256 den);

    // ---- contract-only: creation windows, access, lifecycle
    error TradingWindowOutOfBounds(uint256 window, uint256 min, uint256 max);
    error SettlementWindowOutOfBounds(uint256 window, uint256 min, uint256 max);
    error NotGateway(address caller);
    error NotOracleRelayer(address caller);
    error NotMarketCreator(address caller);
    error MarketResolutionLocked();
    error MarketCreationSharesAlreadyLiquidated();
    error AlreadyInitialized();
    error ReentrantCall();
    error MarketProxyRangeInvalid(uint256 first, uint256 last, uint256 count);
}
