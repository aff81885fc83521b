// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixedPointMath} from "./FixedPointMath.sol";

/// @title DpmMath
/// @notice Dynamic parimutuel constants (research/delphi.md §3, §5; src/core/markets/dpm/dpm.ts) and the pure
/// creation maths shared by the market and its gateway.
library DpmMath {
    uint256 internal constant MIN_OUTCOME_COUNT = 2;
    uint256 internal constant MAX_OUTCOME_COUNT = 20;
    uint256 internal constant MIN_K = 1e18;
    uint256 internal constant MAX_K = 100e18;
    uint256 internal constant MIN_TRADING_FEE = 5e15; // 0.5 %
    uint256 internal constant MAX_TRADING_FEE = 5e16; // 5 %
    uint256 internal constant MIN_INITIAL_DEPOSIT_TOKENS = 1;
    uint256 internal constant MAX_INITIAL_DEPOSIT_TOKENS = 1_000_000;
    uint256 internal constant MIN_TRADING_WINDOW = 2 minutes;
    uint256 internal constant MAX_TRADING_WINDOW = 365 days;
    uint256 internal constant MIN_SETTLEMENT_WINDOW = 1 hours;
    uint256 internal constant MAX_SETTLEMENT_WINDOW = 24 hours;
    uint8 internal constant MIN_TOKEN_DECIMALS = 6;
    uint8 internal constant MAX_TOKEN_DECIMALS = 18;

    /// initialPool = ⌈D·1e18 / ⌊√(n·1e36)⌋⌉, refund = D − initialPool (dpm.ts calculateInitialPoolAndRefund).
    function initialPoolAndRefund(uint256 initialDeposit, uint256 outcomeCount)
        internal
        pure
        returns (uint256 initialPool, uint256 refund)
    {
        initialPool = FixedPointMath.mulDivUp(initialDeposit, 1e18, FixedPointMath.sqrtDown(outcomeCount * 1e36));
        refund = initialDeposit - initialPool;
    }

    /// The deposit whose initial pool is at most `initialPool`: D = ⌊initialPool·⌊√(n·1e36)⌋/1e18⌋.
    function initialDepositAndRefund(uint256 initialPool, uint256 outcomeCount)
        internal
        pure
        returns (uint256 initialDeposit, uint256 refund)
    {
        initialDeposit = FixedPointMath.mulDivDown(initialPool, FixedPointMath.sqrtDown(outcomeCount * 1e36), 1e18);
        (, refund) = initialPoolAndRefund(initialDeposit, outcomeCount);
    }
}
