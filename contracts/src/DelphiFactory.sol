// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketFactory} from "./MarketFactory.sol";

/// @title DelphiFactory
/// @notice Factory of dynamic parimutuel market proxies (clones of DpmMarket), created by a
/// DynamicParimutuelGateway; config = abi.encode(outcomeCount, k, tradingFee, tradingDeadline,
/// settlementDeadline). The creator pays `initialDeposit`; the refund part comes back at the end.
contract DelphiFactory is MarketFactory {
    constructor(address implementation, address token, uint256 scaler) MarketFactory(implementation, token, scaler) {}
}
