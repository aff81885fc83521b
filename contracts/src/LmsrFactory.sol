// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketFactory} from "./MarketFactory.sol";

/// @title LmsrFactory
/// @notice Factory of LMSR market proxies (clones of LmsrMarket), created by an LmsrGateway; config =
/// abi.encode(outcomeCount, b, tradingFee, tradingDeadline, settlementDeadline). The creator pays the
/// market's initial pool ⌈b·ln n⌉ (`initialDeposit` must cover it).
contract LmsrFactory is MarketFactory {
    constructor(address implementation, address token, uint256 scaler) MarketFactory(implementation, token, scaler) {}
}
