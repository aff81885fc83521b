// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A market's creation parameters, abi-encoded as `deployNewMarketProxy`'s `abiEncodedConfig`. For an
/// LMSR market `k` is the liquidity parameter b (wei-shares). Deadlines are unix seconds.
struct MarketConfig {
    uint256 outcomeCount;
    uint256 k;
    uint256 tradingFee;
    uint256 tradingDeadline;
    uint256 settlementDeadline;
}

struct MarketMetadata {
    string uri;
    bytes32 uriContentHash;
}

/// Lifecycle codes returned by `marketStatus` (research/delphi.md §2).
library MarketStatus {
    uint8 internal constant OPEN = 0;
    uint8 internal constant AWAITING_SETTLEMENT = 1;
    uint8 internal constant SETTLED = 2;
    uint8 internal constant EXPIRED = 3;
    uint8 internal constant FAILED = 4;
}
